import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './schema';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

export interface Migration {
  name: string;
  sql: string;
}

/** The migrations shipped with the package, in order. */
export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  return Promise.all(
    files.map(async (f) => ({
      name: f.replace(/\.sql$/, ''),
      sql: await readFile(path.join(dir, f), 'utf8'),
    })),
  );
}

/**
 * Applies every migration not applied yet, each in its own transaction, in order. Forward-only: a
 * migration is never edited once shipped; a change is a new file. Concurrent starters are serialised by
 * an advisory lock, so two processes starting against one PostgreSQL do not race.
 */
export async function migrateToLatest(db: Db, migrations?: Migration[]): Promise<string[]> {
  const list = migrations ?? (await loadMigrations());
  const applied: string[] = [];
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  for (const migration of list) {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(7346201)`.execute(trx);
      const done = await sql<{
        name: string;
      }>`SELECT name FROM schema_migrations WHERE name = ${migration.name}`.execute(trx);
      if (done.rows.length > 0) return;
      await sql.raw(migration.sql).execute(trx);
      await sql`INSERT INTO schema_migrations (name) VALUES (${migration.name})`.execute(trx);
      applied.push(migration.name);
    });
  }
  return applied;
}
