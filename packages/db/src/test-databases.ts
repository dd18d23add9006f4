/**
 * The migrated databases that database test suites start from (`describeDb`, testing.ts), prepared once per
 * test run by packages/db/test/global-setup.ts instead of migrating an empty database in every suite:
 *
 * - PGlite: a migrated data directory dumped to a file (`dumpDataDir`), each suite loads it (`loadDataDir`).
 * - PostgreSQL: a template database `ms_tpl_<hash>`, which each suite copies (`CREATE DATABASE … TEMPLATE`).
 *
 * Both are named after a hash of the migration files, so they are built again only when a migration changes
 * and are reused by later runs (the template stays on the server, the dump in the temp folder).
 * Test code only: nothing here is exported by the package.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Kysely } from 'kysely';
import pg from 'pg';
import { createPGlite, openDatabase } from './connection';
import { loadMigrations, migrateToLatest } from './migrate';
import { PGliteDialect } from './pglite-dialect';
import type { Database } from './schema';

/** A template or dump of another migration set is removed once no run has used it for this long. */
const UNUSED_FOR_MS = 60 * 60 * 1000;
/** Serialises the template builds (and clean-ups) of concurrent test runs on one server. */
const TEMPLATE_LOCK = 7346202;
const TEMPLATE = /^ms_tpl_[0-9a-f]{8}(_wip)?$/;

/** sha-256 (hex) of the migrations' names and contents, in order. */
export async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const m of await loadMigrations()) hash.update(`${m.name}\0${m.sql}\0`);
  return hash.digest('hex');
}

/** `url` with its database replaced by `database`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs `fn` with a client on the database of `url` (TEST_DATABASE_URL: test databases are made from it). */
export async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates the template database of the current migrations on the server of `url` unless it exists, and
 * removes the templates of other migration sets that no run has used for an hour. Answers its name.
 * Concurrent runs wait for each other (advisory lock); a template is built under another name and renamed
 * once migrated, so a run that died while building leaves no half-migrated template behind.
 */
export async function preparePostgresTemplate(url: string): Promise<string> {
  const name = `ms_tpl_${(await migrationsHash()).slice(0, 8)}`;
  await withAdmin(url, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rows } = await admin.query<{ name: string; note: string | null }>(
        `SELECT datname AS name, shobj_description(oid, 'pg_database') AS note FROM pg_database
         WHERE datname LIKE 'ms\\_tpl\\_%'`,
      );
      if (!rows.some((r) => r.name === name)) {
        const wip = `${name}_wip`;
        await dropDatabase(admin, wip);
        await admin.query(`CREATE DATABASE "${wip}"`);
        const handle = await openDatabase({ databaseUrl: databaseUrl(url, wip), maxConnections: 1 });
        try {
          await migrateToLatest(handle.db);
        } finally {
          await handle.close();
        }
        await admin.query(`ALTER DATABASE "${wip}" RENAME TO "${name}"`);
        // no session on a template, so that CREATE DATABASE … TEMPLATE never finds one
        await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      }
      await admin.query(`COMMENT ON DATABASE "${name}" IS 'michelscope test template, used ${Date.now()}'`);
      for (const r of rows) {
        if (r.name === name || !TEMPLATE.test(r.name)) continue;
        const used = Number(/used (\d+)/.exec(r.note ?? '')?.[1] ?? 0);
        // a _wip is never in use here: its builder would hold the lock
        if (r.name.endsWith('_wip') || Date.now() - used > UNUSED_FOR_MS) await dropDatabase(admin, r.name);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return name;
}

async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) return;
  await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE false`);
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * A new database `t_<random>` on the server of `url`: a copy of `template`, or empty without one (or when the
 * template is gone: a run of other migrations removed it). Answers its name and whether it is migrated.
 */
export async function createTestDatabase(
  url: string,
  template: string | undefined,
): Promise<{ name: string; migrated: boolean }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  return withAdmin(url, async (admin) => {
    if (template) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return { name, migrated: true };
      } catch (err) {
        if ((err as { code?: string }).code !== '3D000') throw err; // 3D000: no such template
      }
    }
    await admin.query(`CREATE DATABASE "${name}"`);
    return { name, migrated: false };
  });
}

/** Drops a test database, ending its sessions (a killed child process may have left some). */
export async function dropTestDatabase(url: string, name: string): Promise<void> {
  await withAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * A migrated PGlite data directory dumped to a file in the temp folder (reused while the migrations and the
 * PGlite version stay the same); dumps of other versions unused for an hour are removed. Answers its path.
 */
export async function preparePgliteDump(
  dir = path.join(os.tmpdir(), 'michelscope-test-db'),
): Promise<string> {
  const key = createHash('sha256')
    .update(await migrationsHash())
    .update(pgliteVersion())
    .digest('hex')
    .slice(0, 16);
  const file = path.join(dir, `pglite-${key}.tar`);
  await mkdir(dir, { recursive: true });
  const now = new Date();
  try {
    await utimes(file, now, now); // marks it used
  } catch {
    const pglite = await createPGlite();
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    try {
      await migrateToLatest(db);
      await pglite.exec('CHECKPOINT'); // a clean data directory: no WAL to replay at each load
      // uncompressed: loading it is faster than a gzip one (about 1.1 s vs 1.6 s)
      const dump = await pglite.dumpDataDir('none');
      const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file); // atomic: a concurrent run sees the whole file or none
    } finally {
      await db.destroy();
      await pglite.close();
    }
  }
  for (const other of await readdir(dir)) {
    if (other === path.basename(file) || !other.startsWith('pglite-')) continue;
    const at = path.join(dir, other);
    const info = await stat(at).catch(() => undefined);
    if (info && now.getTime() - info.mtimeMs > UNUSED_FOR_MS) await rm(at, { force: true });
  }
  return file;
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@electric-sql/pglite');
  return (require(path.join(path.dirname(main), '../package.json')) as { version: string }).version;
}
