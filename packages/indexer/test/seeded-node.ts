/**
 * The seeded sandbox served as a remote node, for the suites that index it over HTTP (the history backfill's,
 * the reorg ones): the demo chain seeded once per run is copied into a directory of the suite's own
 * (`openSeededSandbox`, @michelscope/sandbox/testing), its RPC served on 127.0.0.1 as a public node's is, and
 * both stopped and the directory removed after the suite. `seededNode` registers the suite's beforeAll and
 * afterAll; the sandbox, its RPC URL and the seeded contracts' addresses are read from what it returns once
 * the suite's tests run. `backfillerOf` gives a Backfiller of a network over that node (no history source:
 * its `storeLevels` stores the levels it is given), as the suites' "every other level" steps use it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@michelscope/db';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import { openSeededSandbox } from '@michelscope/sandbox/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { ProtocolRegistry } from '../src/protocols/registry';
import { NodeRpc } from '../src/rpc/client';
import { Backfiller } from '../src/sync/backfill';
import { ContractCache } from '../src/sync/block-data';

export interface SeededNodeOptions {
  /** Prefix of the suite's temporary data directory (e.g. 'ms-backfill-'). */
  prefix: string;
  /** The beforeAll's timeout (the copy, the sandbox's start and the server). */
  timeoutMs: number;
  /** Runs before every RPC request is answered (e.g. to hold the node while the test changes the chain). */
  onRequest?: () => Promise<void>;
}

export interface SeededNode {
  /** The sandbox (after the suite's beforeAll). */
  readonly sandbox: Sandbox;
  /** Its RPC, served over HTTP (after the suite's beforeAll). */
  readonly rpcUrl: string;
  /** The seeded contracts' addresses by name (`fa12`, `swap`…), from the seeding's log lines. */
  readonly contracts: Record<string, string>;
}

/** Registers the suite's beforeAll (open the seeded sandbox, serve its RPC) and afterAll (stop, remove). */
export function seededNode(opts: SeededNodeOptions): SeededNode {
  let sandbox: Sandbox | undefined;
  let app: FastifyInstance | undefined;
  let rpcUrl = '';
  const contracts: Record<string, string> = {};
  const dir = mkdtempSync(path.join(tmpdir(), opts.prefix));

  beforeAll(async () => {
    sandbox = await openSeededSandbox({
      dataDir: dir,
      blockTimeMs: 3_600_000,
      log: (line) => {
        for (const m of line.matchAll(/(\w+)=(KT1\w{33})/g)) contracts[m[1]!] = m[2]!;
      },
    });
    app = Fastify({ forceCloseConnections: true });
    const onRequest = opts.onRequest;
    if (onRequest) app.addHook('onRequest', async () => onRequest());
    await app.register(sandboxRpcPlugin(sandbox));
    rpcUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  }, opts.timeoutMs);
  afterAll(async () => {
    await app?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    get sandbox() {
      if (!sandbox) throw new Error('seededNode: the sandbox is opened in beforeAll');
      return sandbox;
    },
    get rpcUrl() {
      return rpcUrl;
    },
    contracts,
  };
}

/** A Backfiller of `network` over the node at `rpcUrl`, with no history source, 4 blocks fetched at once. */
export function backfillerOf(db: Db, network: string, rpcUrl: string): Backfiller {
  return new Backfiller(
    {
      db,
      network,
      rpc: new NodeRpc(rpcUrl, { timeoutMs: 30_000, signal: new AbortController().signal }),
      registry: new ProtocolRegistry(),
      line: () => {},
      cache: new ContractCache(db, network),
      costPerByte: new Map<string, number>(),
    },
    { source: null, rpcUrl, concurrency: 4 },
  );
}

/** The levels of `network`'s stored blocks below `floor`, ascending. */
export async function storedLevelsBelow(db: Db, network: string, floor: number): Promise<number[]> {
  const rows = await db
    .selectFrom('blocks')
    .select('level')
    .where('network', '=', network)
    .where('level', '<', floor)
    .orderBy('level')
    .execute();
  return rows.map((r) => r.level);
}
