/**
 * Crash safety: an indexer process is killed with SIGKILL several times while it indexes a chain from the
 * fake node, restarted each time, and the database it ends with equals (every table, see table-dump.ts)
 * the one of an uninterrupted run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase, type Db } from '@michelscope/db';
import { describeDb } from '@michelscope/db/testing';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexer } from '../src';
import { FakeNode, SEOUL, TALLINN, waitFor } from './fake-node';
import { killableChild } from './killable-child';
import { dumpTables, expectSameTables } from './table-dump';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

const LEVELS = 36;

/** The child indexer: prints `LEVEL n` after every stored block, DONE once its target is stored. */
const runChild = killableChild('indexer-child.ts', 'LEVEL');

/**
 * Indexes levels 1..levels of `rpcUrl` twice: uninterrupted in this process (network "clean-<tag>"), and in
 * a child process killed with SIGKILL after each level of `killAt` (network "killed-<tag>"), then compares
 * every table of both.
 */
async function killAndCompare(
  db: Db,
  kind: 'pglite' | 'postgres',
  databaseUrl: string | undefined,
  rpcUrl: string,
  levels: number,
  killAt: number[],
  tag: string,
  dirs: string[],
) {
  const clean = startIndexer({
    db,
    network: `clean-${tag}`,
    rpcUrl,
    startLevel: 1,
    pollIntervalMs: 50,
    log: () => {},
  });
  await waitFor(() => clean.status().level === levels, 120_000, 'the clean run');
  await clean.stop();

  // Killed run, in a child process, on its own PGlite folder or in this suite's PostgreSQL database.
  let target: string[];
  let dir = '';
  if (kind === 'pglite') {
    dir = mkdtempSync(path.join(tmpdir(), 'ms-kill-'));
    dirs.push(dir);
    target = [dir];
  } else {
    target = [databaseUrl!];
  }
  const args = (until: string) => [rpcUrl, `killed-${tag}`, until, ...target];
  const kills: number[] = [];
  for (const at of killAt) {
    // A child to be killed keeps following the node instead of exiting at the last level: a fast run could
    // otherwise finish (and exit by itself) inside the random delay before the kill.
    const r = await runChild(args('follow'), at);
    expect(r.signal).toBe('SIGKILL');
    kills.push(r.count);
  }
  const last = await runChild(args(String(levels)), null);
  expect(last.done).toBe(true);
  expect(kills.every((l, i) => i === 0 || l >= kills[i - 1]!)).toBe(true);

  // Same rows (the network name aside) as the uninterrupted run.
  const expected = await dumpTables(db, `clean-${tag}`);
  expect(expected.operations!.length).toBeGreaterThan(0);
  if (kind === 'pglite') {
    const h = await openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(h.db);
      expectSameTables(await dumpTables(h.db, `killed-${tag}`), expected);
    } finally {
      await h.close();
    }
  } else {
    expectSameTables(await dumpTables(db, `killed-${tag}`), expected);
  }
}

// PGlite and PostgreSQL: crash safety (SIGKILL inside a transaction) of each backend.
describeDb('kill -9 and restart', { backends: 'both' }, ({ db, kind, databaseUrl }) => {
  const node = new FakeNode();
  let rpcUrl = '';
  let sandbox: Sandbox | undefined;
  let sandboxApp: FastifyInstance | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    node.build({
      branch: 'main',
      from: 1,
      to: LEVELS,
      protocols: [
        { hash: SEOUL, from: 1 },
        { hash: TALLINN, from: 20 },
      ],
    });
    rpcUrl = await node.start();
  });
  afterAll(async () => {
    await node.stop();
    await sandboxApp?.close();
    await sandbox?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a process killed with SIGKILL three times while indexing real mainnet blocks ends with the same database as an uninterrupted run', async () => {
    await killAndCompare(db(), kind, databaseUrl(), rpcUrl, LEVELS, [4, 15, 27], 'mainnet', dirs);
  }, 240_000);

  it('the same on the seeded sandbox chain (originations, calls, big maps, tickets, events)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ms-kill-sandbox-'));
    dirs.push(dir);
    sandbox = await openSeededSandbox({ dataDir: dir, blockTimeMs: 3_600_000, log: () => {} });
    sandboxApp = Fastify({ forceCloseConnections: true });
    await sandboxApp.register(sandboxRpcPlugin(sandbox));
    const url = await sandboxApp.listen({ host: '127.0.0.1', port: 0 });
    const head = sandbox.headLevel;
    await killAndCompare(
      db(),
      kind,
      databaseUrl(),
      url,
      head,
      [3, Math.floor(head / 2), head - 4],
      'sandbox',
      dirs,
    );
  }, 300_000);
});
