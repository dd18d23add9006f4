/**
 * A contract with a Sapling state in its storage (Octez's michelson_test_scripts/opcodes/sapling_empty_state.tz),
 * originated and called on the real sandbox, indexed by the real indexer, and shown by the API's storage
 * viewer: the state is its lazy-storage id (Octez's unparse_data of a state without changes), nothing crashes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeDb } from '@michelscope/db/testing';
import { startIndexer } from '@michelscope/indexer';
import { BOOTSTRAP_ACCOUNTS, injectAs, Sandbox, sandboxRpcPlugin } from '@michelscope/sandbox';
import { Parser } from '@taquito/michel-codec';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';

const NET = 'sandboxnet';
const EMPTY_STATE =
  'parameter unit; storage (sapling_state 8); code { DROP; SAPLING_EMPTY_STATE 8; NIL operation; PAIR; };';

// PGlite only: the storage viewer over ordinary reads.
describeDb('a Sapling state in a contract storage, indexed and viewed', { backends: 'pglite' }, ({ db }) => {
  let sandbox: Sandbox;
  let node: FastifyInstance;
  let app: FastifyInstance;
  let kt1 = '';
  let logs: string[] = [];
  let stopIndexer: () => Promise<void> = async () => {};
  let dir = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ms-api-sapling-'));
    sandbox = await Sandbox.open({ dataDir: dir, blockTimeMs: 3_600_000, seed: false, log: () => {} });
    const alice = BOOTSTRAP_ACCOUNTS[0]!;
    const code = new Parser().parseScript(EMPTY_STATE) as unknown[];
    const orig = await injectAs(sandbox, alice, [
      { kind: 'origination', balance: '0', script: { code, storage: [] } },
    ]);
    const block = await sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === orig)!;
    const result = (op.contents[0] as { metadata: { operation_result: { originated_contracts: string[] } } })
      .metadata.operation_result;
    kt1 = result.originated_contracts[0]!;
    // one call: the state is replaced by a new one (id 1)
    await injectAs(sandbox, alice, [{ kind: 'transaction', amount: '0', destination: kt1 }]);
    await sandbox.bakeBlock();

    node = Fastify({ forceCloseConnections: true });
    await node.register(sandboxRpcPlugin(sandbox), { prefix: `/rpc/${NET}` });
    const rpcUrl = `${await node.listen({ host: '127.0.0.1', port: 0 })}/rpc/${NET}`;
    logs = [];
    const indexer = startIndexer({
      db: db(),
      network: NET,
      rpcUrl,
      startLevel: 1,
      pollIntervalMs: 100,
      log: (l) => logs.push(l),
    });
    stopIndexer = () => indexer.stop();
    const deadline = Date.now() + 60_000;
    while ((indexer.status().level ?? 0) < sandbox.headLevel && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(indexer.status().level).toBe(sandbox.headLevel);
    expect(indexer.status().lastError, logs.join('\n')).toBeUndefined();
    app = await buildApi({
      db: db(),
      networks: [{ name: NET, rpcUrl, publicRpcUrl: rpcUrl, statsEnabled: false }],
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await stopIndexer();
    await node?.close();
    await sandbox?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('indexes the origination and the call, and the storage viewer shows the state id', async () => {
    expect(logs.filter((l) => /invalid|error/i.test(l))).toEqual([]);
    const c = await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${kt1}` });
    expect(c.statusCode).toBe(200);
    const storage = await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${kt1}/storage` });
    expect(storage.statusCode, storage.body).toBe(200);
    expect(JSON.parse(storage.body)).toMatchObject([
      { prim: 'sapling_state', type: 'sapling_state', children: [{ prim: 'int', value: '1' }] },
    ]);
    const raw = await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${kt1}/storage/raw` });
    expect(raw.statusCode).toBe(200);
    expect(JSON.parse(raw.body)).toBe('1');
  });
});
