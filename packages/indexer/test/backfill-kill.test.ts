/**
 * Crash safety of the history backfill (issue 32): a child indexer process started at a fixed forward floor
 * of the seeded sandbox chain, with the FA1.2 (originated at level ~4) asked for and its history backfilled by
 * a scan of the node, is killed with SIGKILL several times while it stores blocks below the floor, and
 * restarted each time; the database it ends with equals (every table, see table-dump.ts; the backfill's row)
 * the one of an uninterrupted backfill from the same floor in this process: no duplicate, no gap.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase, type Db } from '@michelscope/db';
import { requestAddress } from '@michelscope/db/address-requests';
import { describeDb } from '@michelscope/db/testing';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexer } from '../src';
import { waitFor } from './fake-node';
import { killableChild } from './killable-child';
import { dumpTables, expectSameTables } from './table-dump';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

/** The child: prints `BELOW n` as it stores blocks below the floor, DONE when it exits by itself. */
const runChild = killableChild('backfill-child.ts', 'BELOW');

const backfillRow = async (db: Db, network: string, address: string) =>
  db
    .selectFrom('history_backfills')
    .select(['state', 'to_level', 'from_level', 'covered', 'blocks', 'levels_found', 'source'])
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();

describeDb('history backfill: kill -9 and restart', { backends: 'both' }, ({ db, kind, databaseUrl }) => {
  let sandbox: Sandbox;
  let app: FastifyInstance;
  let rpcUrl = '';
  let fa12 = '';
  const dirs: string[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ms-backfill-kill-'));
    dirs.push(dir);
    sandbox = await openSeededSandbox({
      dataDir: dir,
      blockTimeMs: 3_600_000,
      log: (line) => {
        const m = /fa12=(KT1\w{33})/.exec(line);
        if (m) fa12 = m[1]!;
      },
    });
    app = Fastify({ forceCloseConnections: true });
    await app.register(sandboxRpcPlugin(sandbox));
    rpcUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await sandbox?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a backfill killed with SIGKILL three times ends with the same database as an uninterrupted one', async () => {
    expect(fa12).toMatch(/^KT1/);
    // the floor: an empty block (ARCHITECTURE §7), made final by two more; the chain then stays as it is
    await sandbox.bakeBlock();
    const floor = sandbox.headLevel;
    for (let i = 0; i < 2; i++) await sandbox.bakeBlock();
    const head = sandbox.headLevel;

    // uninterrupted, in this process
    const clean = startIndexer({
      db: db(),
      network: 'clean',
      rpcUrl,
      startLevel: floor,
      pollIntervalMs: 50,
      log: () => {},
    });
    try {
      await requestAddress(db(), 'clean', fa12, 10);
      await waitFor(async () => (await backfillRow(db(), 'clean', fa12))?.state === 'done', 120_000);
      await waitFor(() => clean.status().level === head, 30_000);
    } finally {
      await clean.stop();
    }
    // A backfilled block's before-images (undo_log below the floor) hold rows as they were when it was
    // written: the FA1.2's account row as adopted at whatever head each run had reached. Not compared.
    const withoutBackfillImages = (d: Record<string, string[]>): Record<string, string[]> => ({
      ...d,
      undo_log: (d.undo_log ?? []).filter((r) => (JSON.parse(r) as { level: number }).level >= floor),
    });
    const expected = withoutBackfillImages(await dumpTables(db(), 'clean', { byKey: true }));
    const below = expected.blocks!.filter((r) => (JSON.parse(r) as { level: number }).level < floor).length;
    expect(below).toBeGreaterThan(10);

    // killed, in a child process, on its own PGlite folder or in this suite's PostgreSQL database
    let target: string;
    if (kind === 'pglite') {
      target = mkdtempSync(path.join(tmpdir(), 'ms-backfill-kill-db-'));
      dirs.push(target);
    } else target = databaseUrl()!;
    const args = (mode: string) => [rpcUrl, 'killed', String(floor), fa12, mode, target];
    const kills: number[] = [];
    for (const at of [1, Math.floor(below / 3), Math.floor((2 * below) / 3)]) {
      const r = await runChild(args('stay'), at);
      expect(r.signal).toBe('SIGKILL');
      expect(r.done).toBe(false);
      kills.push(r.count);
    }
    const last = await runChild(args('exit'), null);
    expect(last.done).toBe(true);
    // each kill landed midway through the backfill, and after the one before
    expect(kills.every((n, i) => n < below && (i === 0 || n >= kills[i - 1]!))).toBe(true);

    const check = async (other: Db) => {
      expectSameTables(withoutBackfillImages(await dumpTables(other, 'killed', { byKey: true })), expected);
      expect(await backfillRow(other, 'killed', fa12)).toEqual(await backfillRow(db(), 'clean', fa12));
    };
    if (kind === 'pglite') {
      const h = await openDatabase({ dataDir: target });
      try {
        await migrateToLatest(h.db);
        await check(h.db);
      } finally {
        await h.close();
      }
    } else await check(db());
  }, 300_000);
});
