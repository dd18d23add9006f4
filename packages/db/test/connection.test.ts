import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../src/index';
import { describeDb } from '../src/testing';

// PGlite and PostgreSQL, migrated from empty: the migrations, driver value types, transaction isolation.
describeDb('migrations', { backends: 'both', migrateFromEmpty: true }, ({ db, kind }) => {
  // PGlite has no JIT compiler (its setting is moot): PostgreSQL only
  it.runIf(kind === 'postgres')(
    'PostgreSQL: no JIT compilation on the pool (an estimate past jit_above_cost cost /search 45 ms)',
    async () => {
      const r = await sql<{ jit: string }>`SELECT current_setting('jit') AS jit`.execute(db());
      expect(r.rows[0]?.jit).toBe('off');
    },
  );

  it('creates the foundation tables and is idempotent', async () => {
    expect(await migrateToLatest(db())).toEqual([]);
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`.execute(
      db(),
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['blocks', 'indexer_state', 'protocols', 'schema_migrations', 'stats']),
    );
  });

  it('returns bigint counters as numbers', async () => {
    await db().insertInto('stats').values({ network: 'n1', operations_count: 5_000_000_000 }).execute();
    const row = await db()
      .selectFrom('stats')
      .selectAll()
      .where('network', '=', 'n1')
      .executeTakeFirstOrThrow();
    expect(row.operations_count).toBe(5_000_000_000);
    expect(row.tx_count).toBe(0);
  });

  it('rolls a failed transaction back as a whole', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('stats').values({ network: 'rolled-back' }).execute();
          throw new Error('boom');
        }),
    ).rejects.toThrow('boom');
    const rows = await db().selectFrom('stats').selectAll().where('network', '=', 'rolled-back').execute();
    expect(rows).toHaveLength(0);
  });

  it('keeps concurrent reads out of an open transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tx = db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('stats').values({ network: 'pending' }).execute();
        await gate;
      });
    await new Promise((r) => setTimeout(r, 20));
    const read = db().selectFrom('stats').select('network').where('network', '=', 'pending').execute();
    release();
    await tx;
    // The read sees either nothing (PostgreSQL, isolation) or the committed row (PGlite, serialised), never an error.
    const rows = await read;
    expect(rows.length).toBeLessThanOrEqual(1);
  });
});

describe('PGlite on disk', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across reopen', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ms-db-'));
    const first = await openDatabase({ dataDir: dir });
    await migrateToLatest(first.db);
    await first.db.insertInto('stats').values({ network: 'sandboxnet', tx_count: 7 }).execute();
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    expect(await migrateToLatest(second.db)).toEqual([]);
    const row = await second.db
      .selectFrom('stats')
      .select('tx_count')
      .where('network', '=', 'sandboxnet')
      .executeTakeFirst();
    expect(row?.tx_count).toBe(7);
    await second.close();
  });

  it('reports an unreachable PostgreSQL clearly', async () => {
    await expect(openDatabase({ databaseUrl: 'postgres://nobody:secret@127.0.0.1:1/none' })).rejects.toThrow(
      /cannot connect to PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/,
    );
  });
});
