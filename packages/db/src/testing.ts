import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { openDatabase, type DbHandle } from './connection';
import { migrateToLatest } from './migrate';
import type { Db } from './schema';
import { createTestDatabase, databaseUrl, dropTestDatabase } from './test-databases';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (`dumpDataDir` file), from packages/db/test/global-setup.ts. */
    msPgliteDump?: string;
    /** The migrated template database on TEST_DATABASE_URL's server (packages/db/test/global-setup.ts). */
    msPgTemplate?: string;
  }
}

export interface DescribeDbOptions {
  /**
   * `'both'`: embedded PGlite and PostgreSQL (TEST_DATABASE_URL), for suites whose subject is something
   * that differs between them: the writer's COPY and deferred statements, search (pg_trgm, full text),
   * LISTEN/NOTIFY, migrations, crash and restart, exports, pools and `openAnother`, prepared statements,
   * driver value types.
   * `'pglite'`: PGlite only, for suites of API or route logic over ordinary reads and writes.
   * Say why in a comment at the call.
   */
  backends: 'both' | 'pglite';
  /**
   * Migrate an empty database in the suite (`migrateToLatest` from nothing), instead of starting from the
   * migrated copy that the test run prepared once.
   */
  migrateFromEmpty?: boolean;
}

export interface DbTestContext {
  /** The migrated database of the current backend (valid inside tests and hooks). */
  db: () => Db;
  kind: 'pglite' | 'postgres';
  /** The open handle of `db()` (its `listen`, for live notifications). */
  handle: () => DbHandle;
  /**
   * Another handle on the same data, as a second process would open it: on PostgreSQL a new pool (and
   * listener) on the same database; PGlite is one session per process, so there it is the same handle.
   * The suite closes it.
   */
  openAnother: () => Promise<DbHandle>;
  /** PostgreSQL: the URL of the suite's own database (for a child process); PGlite: undefined. */
  databaseUrl: () => string | undefined;
}

type Body = (ctx: DbTestContext) => void;

/**
 * Declares a suite on embedded PGlite (in memory) and, with `backends: 'both'` and TEST_DATABASE_URL set,
 * again on that PostgreSQL server in a database of its own (`t_<random>`, dropped afterwards), so test files
 * never share data. Each starts from the migrated database the run prepared once (a PGlite dump, a PostgreSQL
 * template; packages/db/test/global-setup.ts), or, run without that setup, migrates an empty one.
 * A suite that wants PostgreSQL fails under CI (CI=true) when TEST_DATABASE_URL is not set.
 */
export function describeDb(name: string, options: DescribeDbOptions, body: Body): void {
  const url = process.env.TEST_DATABASE_URL;
  describeOn('pglite', name, options, body);
  if (options.backends === 'pglite') return;
  if (url) describeOn('postgres', name, options, body, url);
  else if (isCi()) {
    describe(`${name} [postgres]`, () => {
      it('runs on PostgreSQL', () => {
        throw new Error(`TEST_DATABASE_URL is not set: the PostgreSQL run of ${name} cannot run`);
      });
    });
  } else if (!warned) {
    warned = true;
    console.warn('[db tests] TEST_DATABASE_URL is not set: database suites run on PGlite only.');
  }
}

let warned = false;

const isCi = () => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

function describeOn(
  kind: 'pglite' | 'postgres',
  name: string,
  options: DescribeDbOptions,
  body: Body,
  url = '',
): void {
  describe(`${name} [${kind}]`, () => {
    let handle: DbHandle | undefined;
    let database: string | undefined; // PostgreSQL: the suite's database
    const others: DbHandle[] = [];
    const suiteUrl = () => (database ? databaseUrl(url, database) : undefined);
    beforeAll(async () => {
      let migrated = false;
      if (kind === 'pglite') {
        const dump = options.migrateFromEmpty ? undefined : await loadDump(inject('msPgliteDump'));
        handle = await openDatabase(dump ? { loadDataDir: dump } : {});
        migrated = dump !== undefined;
      } else {
        const template = options.migrateFromEmpty ? undefined : inject('msPgTemplate');
        const created = await createTestDatabase(url, template);
        database = created.name;
        migrated = created.migrated;
        handle = await openDatabase({ databaseUrl: suiteUrl(), maxConnections: 4 });
      }
      // A copy is of the current migrations (named after their hash): migrating it again would find nothing
      // to do, for 20–50 ms a suite.
      if (!migrated) await migrateToLatest(handle.db);
      // a guard, not a budget: PGlite migrated from empty took over a minute on a host CI's two runners kept busy
      // (session 33)
    }, 240_000);
    afterAll(async () => {
      for (const other of others.splice(0)) await other.close();
      await handle?.close();
      if (database) {
        // A test that killed a child process may leave its session behind: WITH (FORCE) ends it. A leftover
        // t_… database is harmless.
        await dropTestDatabase(url, database).catch((err: unknown) =>
          console.warn(`[db tests] database ${database} not dropped: ${String(err)}`),
        );
      }
    });
    body({
      kind,
      db: () => {
        if (!handle) throw new Error('database not open yet: use db() inside tests or hooks');
        return handle.db;
      },
      handle: () => {
        if (!handle) throw new Error('database not open yet: use handle() inside tests or hooks');
        return handle;
      },
      openAnother: async () => {
        if (!handle) throw new Error('database not open yet: use openAnother() inside tests or hooks');
        if (kind === 'pglite') return handle;
        const other = await openDatabase({ databaseUrl: suiteUrl(), maxConnections: 2 });
        others.push(other);
        return other;
      },
      databaseUrl: suiteUrl,
    });
  });
}

/** The dump file as a Blob; undefined without one (run without the global setup, or removed meanwhile). */
async function loadDump(file: string | undefined): Promise<Blob | undefined> {
  if (!file) return undefined;
  try {
    // read whole, not `openAsBlob`: a blob of the file becomes unreadable ("NotReadableError") once its mtime
    // changes, and another test run on this machine marks the shared dump used (utimes) when it starts — a
    // suite of a run beside it then failed to open its database
    return new Blob([await readFile(file)]);
  } catch {
    return undefined;
  }
}
