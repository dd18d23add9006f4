/**
 * The seeded sandbox chain (demo seed) served by its node RPC on a free port, indexed by the real indexer into
 * the given database up to its head, and the API built over that data: what end-to-end API suites start from.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@michelscope/db';
import { startIndexer } from '@michelscope/indexer';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApi, type BuildApiOptions } from '../src/index';
import { openSeededSandbox } from '@michelscope/sandbox/testing';

export const SANDBOX_NET = 'sandboxnet';

export interface IndexedSandbox {
  sandbox: Sandbox;
  app: FastifyInstance;
  /** The node RPC base (`…/rpc/sandboxnet`). */
  rpcUrl: string;
  /** Seeded contracts by seed name (counter, fa2, fa12, …). */
  contracts: Record<string, string>;
  /** Stops the indexer (the node goes on baking): the API then reads an index that lags the node. */
  stopIndexer(): Promise<void>;
  close(): Promise<void>;
}

export async function openIndexedSandbox(
  db: Db,
  api: Partial<BuildApiOptions> = {},
): Promise<IndexedSandbox> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ms-api-sandbox-'));
  const contracts: Record<string, string> = {};
  const sandbox = await openSeededSandbox({
    dataDir: dir,
    blockTimeMs: 3_600_000,
    log: (line) => {
      for (const m of line.matchAll(/(\w+)=(KT1\w{33})/g)) contracts[m[1]!] = m[2]!;
    },
  });
  const node = Fastify({ forceCloseConnections: true });
  await node.register(sandboxRpcPlugin(sandbox), { prefix: `/rpc/${SANDBOX_NET}` });
  const rpcUrl = `${await node.listen({ host: '127.0.0.1', port: 0 })}/rpc/${SANDBOX_NET}`;
  const indexer = startIndexer({
    db,
    network: SANDBOX_NET,
    rpcUrl,
    startLevel: 1,
    pollIntervalMs: 100,
    log: () => {},
  });
  const target = sandbox.headLevel;
  const deadline = Date.now() + 60_000;
  while ((indexer.status().level ?? 0) < target && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const app = await buildApi({
    db,
    networks: [{ name: SANDBOX_NET, rpcUrl, publicRpcUrl: rpcUrl, statsEnabled: false }],
    ...api,
  });
  return {
    sandbox,
    app,
    rpcUrl,
    contracts,
    stopIndexer: () => indexer.stop(),
    close: async () => {
      await app.close();
      await indexer.stop();
      await node.close();
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
