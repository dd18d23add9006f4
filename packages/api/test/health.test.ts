// GET /v1/health and the heads' `failures` (issue 34 item 5): a part that cannot store (the embedded node with
// its folder removed, the indexer without its database) makes its network unhealthy (503, the error and when
// it began) and its heads say so, until the cause is gone (200, the last error kept with its time).
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Head, Health } from '@michelscope/api-types';
import { describeDb } from '@michelscope/db/testing';
import { Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ApiNetwork, ApiOptions } from '../src/index';
import { clearTables, insertBlock, insertProtocol, makeApi } from './helpers';

type Parts = NonNullable<ReturnType<NonNullable<ApiOptions['parts']>>>;

const PROTO = 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ';

// PGlite only: route logic over ordinary reads; the node is the real sandbox chain's RPC.
describeDb('GET /v1/health', { backends: 'pglite' }, ({ db }) => {
  let sandbox: Sandbox;
  let dir: string;
  let node: FastifyInstance;
  let networks: ApiNetwork[];
  /** The indexer's status as the server would pass it (the test sets it). */
  let indexer: Parts['indexer'];
  let lastNodeFault: { message: string; at: number } | undefined;

  const parts = (network: string): Parts | undefined => {
    if (network !== 'sandboxnet') return undefined;
    const fault = sandbox.storageFault;
    if (fault) lastNodeFault = { message: fault.message, at: fault.since };
    return {
      indexer,
      nodeStorage: fault,
      ...(lastNodeFault ? { nodeRecentError: lastNodeFault } : {}),
    };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ms-api-health-'));
    sandbox = await Sandbox.open({ dataDir: dir, blockTimeMs: 3_600_000, log: () => {} });
    node = Fastify({ forceCloseConnections: true });
    await node.register(sandboxRpcPlugin(sandbox), { prefix: '/rpc/sandboxnet' });
    const base = await node.listen({ host: '127.0.0.1', port: 0 });
    networks = [
      {
        name: 'sandboxnet',
        rpcUrl: `${base}/rpc/sandboxnet`,
        publicRpcUrl: 'http://localhost/rpc/sandboxnet',
        statsEnabled: false,
      },
    ];
  }, 120_000);
  afterAll(async () => {
    await node.close();
    await sandbox.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await clearTables(db());
    indexer = { state: 'following' };
  });

  /** A new app each time: no node head cached by an earlier read. */
  const api = () => makeApi(db(), { networks, parts });
  const indexHead = async () => {
    const p = await insertProtocol(db(), 'sandboxnet', { hash: PROTO, startLevel: 0 });
    const level = sandbox.headLevel;
    await insertBlock(db(), 'sandboxnet', {
      level,
      hash: sandbox.block(level)!.hash,
      predecessor: sandbox.block(level - 1)!.hash,
      timestamp: new Date(),
      protocolId: p,
    });
  };
  const health = async () => {
    const app = await api();
    try {
      const r = await app.inject({ url: '/v1/health' });
      const head = await app.inject({ url: '/v1/head/sandboxnet' });
      return { status: r.statusCode, body: r.json<Health>(), head: head.json<Head>() };
    } finally {
      await app.close();
    }
  };

  it('healthy: 200, the node and the indexer as they are, no failures', async () => {
    await indexHead();
    const { status, body, head } = await health();
    expect(status).toBe(200);
    expect(body.healthy).toBe(true);
    expect(body.database).toEqual({ reachable: true });
    expect(body.networks).toEqual([
      {
        network: 'sandboxnet',
        healthy: true,
        node: { reachable: true, level: sandbox.headLevel },
        indexer: { state: 'following', level: sandbox.headLevel, lag: 0, synced: true },
        failures: [],
      },
    ]);
    expect(head.failures).toBeUndefined();
  });

  it("the node's folder removed: 503 with the node's error and its time, the head says so; 200 once it is back", async () => {
    await indexHead();
    const level = sandbox.headLevel;
    fs.rmSync(path.join(dir, 'sandbox'), { recursive: true });
    await expect(sandbox.bakeBlock()).rejects.toThrow(/gone/);

    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body.healthy).toBe(false);
    const net = down.body.networks[0]!;
    expect(net.healthy).toBe(false);
    expect(net.failures).toEqual([
      { part: 'node', message: expect.stringMatching(/gone.*ENOENT/), since: expect.any(String) },
    ]);
    expect(Date.parse(net.failures[0]!.since)).toBeGreaterThan(Date.now() - 60_000);
    expect(net.last_error).toMatchObject({ part: 'node', message: net.failures[0]!.message });
    expect(down.head.failures).toEqual(net.failures);
    expect(sandbox.headLevel).toBe(level);

    fs.mkdirSync(path.join(dir, 'sandbox'));
    await sandbox.bakeBlock();
    await clearTables(db());
    await indexHead();
    const up = await health();
    expect(up.status).toBe(200);
    expect(up.body.networks[0]).toMatchObject({ healthy: true, failures: [], node: { level: level + 1 } });
    // the latest error stays, with its time, after the recovery
    expect(up.body.networks[0]!.last_error).toMatchObject({
      part: 'node',
      message: net.failures[0]!.message,
    });
    expect(up.head.failures).toBeUndefined();
  });

  it("the indexer without its database: 503 with the indexer's error; 200 once it follows again", async () => {
    await indexHead();
    const since = Date.parse('2026-11-29T10:00:00Z');
    indexer = {
      state: 'failed',
      lastError: 'could not extend file "base/16384/16397": No space left on device',
      failedSince: since,
      recentError: {
        message: 'could not extend file "base/16384/16397": No space left on device',
        at: since + 5,
      },
    };
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body.networks[0]).toMatchObject({
      healthy: false,
      indexer: { state: 'failed' },
      failures: [{ part: 'indexer', message: indexer.lastError, since: '2026-11-29T10:00:00Z' }],
    });
    expect(down.head.failures).toEqual([
      { part: 'indexer', message: indexer.lastError, since: '2026-11-29T10:00:00Z' },
    ]);

    indexer = { state: 'following', recentError: indexer.recentError };
    const up = await health();
    expect(up.status).toBe(200);
    expect(up.body.networks[0]).toMatchObject({
      healthy: true,
      failures: [],
      indexer: { state: 'following' },
    });
    expect(up.head.failures).toBeUndefined();
  });

  it('a node that cannot be read: 503, node not reachable', async () => {
    const app = await makeApi(db(), {
      networks: [{ ...networks[0]!, rpcUrl: 'http://127.0.0.1:9/nothing' }],
    });
    try {
      const r = await app.inject({ url: '/v1/health' });
      expect(r.statusCode).toBe(503);
      expect(r.json<Health>().networks[0]).toMatchObject({
        healthy: false,
        node: { reachable: false },
        indexer: { state: 'elsewhere', level: null, synced: false },
      });
    } finally {
      await app.close();
    }
  });
});
