/**
 * Contract tests for existing clients of the BCD API (issue 17, docs/CLIENT-COMPATIBILITY.md): each sends the
 * request the original BCD frontend sends, verbatim, and asserts the field that client reads.
 */
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS, sandboxRpcPlugin } from '@michelscope/sandbox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApi } from '../src/index';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const ALICE = BOOTSTRAP_ACCOUNTS[0]!.pkh;
type Op = Record<string, unknown> & { result?: { consumed_gas?: number }; internal?: boolean };

describeDb('BCD frontend requests over the indexed sandbox', ({ db }) => {
  let env: IndexedSandbox;
  const post = async (url: string, payload: object) => {
    const res = await env.app.inject({ method: 'POST', url, payload });
    return { status: res.statusCode, body: res.json<unknown>() };
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
  }, 90_000);
  afterAll(() => env?.close());

  /** SchemaResultOPG's header: `gasLimit` sums result.consumed_gas of the main and internal operations. */
  const clientGasLimit = (ops: Op[]) => ops.reduce((sum, op) => sum + (op.result?.consumed_gas ?? 0), 0);

  it('run_operation: gas_limit, storage_limit and result per operation (the simulation dialog)', async () => {
    const { splitter, counter } = env.contracts;
    // Schema.vue → api.getContractEntrypointTrace with source set and sender '' → run_operation
    const r = await post(`/v1/contract/${NET}/${splitter}/entrypoints/run_operation`, {
      name: 'default',
      data: {},
      source: ALICE,
      amount: 2000000,
    });
    expect(r.status).toBe(200);
    const ops = r.body as Op[];
    const [main, ...internals] = ops;
    // InternalOperation.vue: "Gas limit" / "Storage limit" of the main operation (internals use the main's)
    expect(main).toMatchObject({ status: 'applied', gas_limit: 1040000, storage_limit: 60000 });
    expect(internals.map((o) => [o.kind, o.destination ?? o.source])).toEqual([
      ['transaction', BOOTSTRAP_ACCOUNTS[3]!.pkh],
      ['transaction', counter],
      ['event', counter],
    ]);
    for (const op of ops) {
      expect(op.result, JSON.stringify(op)).toBeDefined();
      // consumed_gas stays milligas; result.consumed_gas is gas units, rounded up
      expect(op.result!.consumed_gas).toBe(Math.ceil(Number(op.consumed_gas) / 1000));
    }
    const gas = clientGasLimit(ops);
    expect(gas).toBeGreaterThan(100);
    expect(gas).toBeLessThan(1040000);
    // the storage size the node reported is in both places
    const note = await post(`/v1/contract/${NET}/${counter}/entrypoints/run_operation`, {
      name: 'note',
      data: { note: { '@string_7': 'a note from a BCD client', '@nat_8': 7 } },
      source: ALICE,
    });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    const n = (note.body as Op[])[0]!;
    expect(n).toMatchObject({ status: 'applied', gas_limit: 1040000, storage_limit: 60000 });
    expect(n.storage_size).toBeGreaterThan(0);
    expect(n.result).toMatchObject({ storage_size: n.storage_size });
  });

  it('trace: what the called contract emits has that contract as source', async () => {
    const { counter, splitter } = env.contracts;
    const r = await post(`/v1/contract/${NET}/${counter}/entrypoints/trace`, {
      name: 'increment',
      data: { increment: 5 },
      source: ALICE,
    });
    expect(r.status).toBe(200);
    const event = (r.body as Op[]).find((o) => o.kind === 'event');
    expect(event).toMatchObject({ internal: true, tag: 'changed', source: counter });
    const s = await post(`/v1/contract/${NET}/${splitter}/entrypoints/trace`, {
      name: 'default',
      data: {},
      amount: 1000,
    });
    expect(s.status).toBe(200);
    const internals = (s.body as Op[]).slice(1);
    expect(internals).toHaveLength(2);
    for (const op of internals) expect(op.source).toBe(splitter);
  });

  it('node RPC from the browser: the embedded node answers with CORS, also under a path without "sandbox"', async () => {
    // the composition of `npm start`: the sandbox's RPC served by the API plugin as its embedded node
    const app = await buildApi({
      db: db(),
      networks: [
        {
          name: NET,
          rpcUrl: env.rpcUrl,
          publicRpcUrl: 'http://sandbox:8080/rpc/embedded',
          statsEnabled: false,
        },
      ],
      rateLimit: false,
      embeddedNode: { network: NET, plugin: sandboxRpcPlugin(env.sandbox) },
    });
    try {
      const origin = { origin: 'http://127.0.0.1:8081' };
      // NodeRPC (taquito RpcClient) of the BCD frontend: plain GETs from another origin
      for (const base of ['/rpc/sandboxnet', '/rpc/embedded']) {
        const r = await app.inject({ url: `${base}/chains/main/blocks/head/header`, headers: origin });
        expect(r.statusCode, base).toBe(200);
        expect(r.headers['access-control-allow-origin'], base).toBe('*');
        expect(r.json<{ level: number }>().level).toBe(env.sandbox.headLevel);
        const post = await app.inject({
          method: 'POST',
          url: `${base}/chains/main/blocks/head/helpers/scripts/pack_data`,
          headers: origin,
          payload: { data: { int: '1' }, type: { prim: 'int' } },
        });
        expect(post.headers['access-control-allow-origin'], base).toBe('*');
        expect(post.json<{ packed: string }>().packed).toBe('050001');
      }
      // main.js: rpc_endpoints[n].replace('sandbox', '127.0.0.1') only touches the host, not the node's path
      const config = (await app.inject('/v1/config')).json<{ rpc_endpoints: Record<string, string> }>();
      const url = config.rpc_endpoints[NET]!.replace('sandbox', '127.0.0.1');
      expect(url).toBe('http://127.0.0.1:8080/rpc/embedded');
      const path = new URL(url).pathname;
      expect((await app.inject({ url: `${path}/chains/main/chain_id`, headers: origin })).statusCode).toBe(
        200,
      );
    } finally {
      await app.close();
    }
  });
});
