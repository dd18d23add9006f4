import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { openDatabase, type DbHandle } from './connection';
import { migrateToLatest } from './migrate';
import type { Db } from './schema';

export interface DbTestContext {
  /** The migrated database of the current backend (valid inside tests and hooks). */
  db: () => Db;
  kind: 'pglite' | 'postgres';
  /** The open handle of `db()` (its `listen`, for live notifications). */
  handle: () => DbHandle;
  /**
   * Another handle on the same data, as a second process would open it: on PostgreSQL a new pool (and
   * listener) on the same schema; PGlite is one session per process, so there it is the same handle.
   * The suite closes it.
   */
  openAnother: () => Promise<DbHandle>;
}

/**
 * Declares a suite that runs on embedded PGlite (in memory) and, when TEST_DATABASE_URL is set, again on
 * that PostgreSQL server in a fresh schema of its own (dropped afterwards), so test files never share data.
 */
export function describeDb(name: string, body: (ctx: DbTestContext) => void): void {
  const backends: Array<'pglite' | 'postgres'> = ['pglite'];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push('postgres');
  else if (!warned) {
    warned = true;
    console.warn('[db tests] TEST_DATABASE_URL is not set: database suites run on PGlite only.');
  }
  for (const kind of backends) {
    describe(`${name} [${kind}]`, () => {
      let handle: DbHandle | undefined;
      const others: DbHandle[] = [];
      const schema = `t_${randomBytes(6).toString('hex')}`;
      beforeAll(async () => {
        handle =
          kind === 'pglite'
            ? await openDatabase()
            : await openDatabase({ databaseUrl: url!, schema, maxConnections: 4 });
        await migrateToLatest(handle.db);
      });
      afterAll(async () => {
        for (const other of others.splice(0)) await other.close();
        if (!handle) return;
        if (kind === 'postgres') {
          const { sql } = await import('kysely');
          // A test that killed a child process may leave its server session holding locks for a while:
          // do not wait on it; a leftover t_… schema in the test database is harmless.
          await sql
            .raw(`SET lock_timeout = '5s'; DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
            .execute(handle.db)
            .catch((err: unknown) => console.warn(`[db tests] schema ${schema} not dropped: ${String(err)}`));
        }
        await handle.close();
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
          const other = await openDatabase({ databaseUrl: url!, schema, maxConnections: 2 });
          others.push(other);
          return other;
        },
      });
    });
  }
}

let warned = false;
