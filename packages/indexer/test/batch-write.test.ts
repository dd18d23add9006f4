/**
 * Catching up, the indexer parses blocks ahead of the writer and stores them in batches (one transaction
 * per batch). This proves that a chain parsed entirely ahead of any write and stored in batches gives the
 * same database (every table, see table-dump.ts) as parsing and storing block by block, on real mainnet
 * blocks across a protocol change and on the seeded sandbox chain (contracts called in the blocks after
 * their origination, big maps, tickets); and that reverting levels stored inside batches gives the
 * database of a chain that never had them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@michelscope/db';
import { describeDb } from '@michelscope/db/testing';
import { revertBlock } from '@michelscope/db/write';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { ProtocolRegistry } from '../src/protocols/registry';
import { NodeRpc } from '../src/rpc/client';
import { ContractCache } from '../src/sync/block-data';
import {
  fetchBlock,
  prepareBlock,
  storeBlocks,
  type ChainContext,
  type PreparedBlock,
} from '../src/sync/chain';
import { FakeNode, SEOUL, TALLINN } from './fake-node';
import { dumpTables, expectSameTables } from './table-dump';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

function context(db: Db, network: string, rpcUrl: string): ChainContext {
  return {
    db,
    network,
    rpc: new NodeRpc(rpcUrl, { timeoutMs: 60_000, signal: new AbortController().signal }),
    registry: new ProtocolRegistry(),
    line: () => {},
    cache: new ContractCache(db, network),
    costPerByte: new Map(),
  };
}

/** Levels 1..top parsed and stored one by one. */
async function oneByOne(ctx: ChainContext, top: number): Promise<void> {
  let protocol: string | null = null;
  for (let level = 1; level <= top; level++) {
    const p = await prepareBlock(ctx, await fetchBlock(ctx, level), protocol);
    await storeBlocks(ctx, [p]);
    protocol = p.write.block.protocol;
  }
}

/** Levels 1..top all parsed before the first write, then stored `size` blocks per transaction. */
async function inBatches(ctx: ChainContext, top: number, size: number): Promise<void> {
  const prepared: PreparedBlock[] = [];
  let protocol: string | null = null;
  for (let level = 1; level <= top; level++) {
    const p = await prepareBlock(ctx, await fetchBlock(ctx, level), protocol);
    prepared.push(p);
    protocol = p.write.block.protocol;
  }
  for (let i = 0; i < prepared.length; i += size) await storeBlocks(ctx, prepared.slice(i, i + size));
}

/** Batched vs one by one on `rpcUrl` (levels 1..top), then `revertTo`: reverted batches vs never stored. */
async function compare(db: Db, rpcUrl: string, tag: string, top: number, size: number, revertTo: number) {
  await oneByOne(context(db, `seq-${tag}`, rpcUrl), top);
  await inBatches(context(db, `batch-${tag}`, rpcUrl), top, size);
  const expected = await dumpTables(db, `seq-${tag}`);
  expect(expected.operations!.length).toBeGreaterThan(0);
  expectSameTables(await dumpTables(db, `batch-${tag}`), expected);

  for (let level = top; level > revertTo; level--) await revertBlock(db, `batch-${tag}`, level);
  await oneByOne(context(db, `short-${tag}`, rpcUrl), revertTo);
  expectSameTables(await dumpTables(db, `batch-${tag}`), await dumpTables(db, `short-${tag}`));
}

// PGlite and PostgreSQL: batched block writes go through COPY and deferred statements on PostgreSQL.
describeDb('batched writes of blocks parsed ahead', { backends: 'both' }, ({ db }) => {
  const node = new FakeNode();
  let sandbox: Sandbox | undefined;
  let app: FastifyInstance | undefined;
  let dir = '';
  afterAll(async () => {
    await node.stop();
    await app?.close();
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('mainnet blocks across a protocol change: batches equal block by block, reverts equal never stored', async () => {
    node.build({
      branch: 'main',
      from: 1,
      to: 30,
      protocols: [
        { hash: SEOUL, from: 1 },
        { hash: TALLINN, from: 18 },
      ],
    });
    // Batches of 7: 15..21 holds the protocol change; the revert goes back through it.
    await compare(db(), await node.start(), 'mainnet', 30, 7, 16);
  }, 600_000);

  it('the seeded sandbox chain: originations then calls, big maps, tickets, events', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ms-batch-sandbox-'));
    sandbox = await openSeededSandbox({ dataDir: dir, blockTimeMs: 3_600_000, log: () => {} });
    app = Fastify({ forceCloseConnections: true });
    await app.register(sandboxRpcPlugin(sandbox));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const head = sandbox.headLevel;
    await compare(db(), url, 'sandbox', head, 4, Math.floor(head / 3));
  }, 600_000);
});
