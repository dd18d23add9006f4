/**
 * End to end on the seeded sandbox: the real sandbox chain (demo seed) is indexed by the real indexer into a
 * migrated database, and the API answers from that data and simulates through the sandbox's node RPC.
 */
import { describeDb } from '@michelscope/db/testing';
import { BOOTSTRAP_ACCOUNTS } from '@michelscope/sandbox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const ALICE = BOOTSTRAP_ACCOUNTS[0]!.pkh;

// PGlite only: API and simulations over the indexed sandbox (its indexing runs on both in indexer/test).
describeDb('API over the indexed demo sandbox', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  let app: FastifyInstance;
  let contracts: Record<string, string>;
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
    ({ app, contracts } = env);
  }, 90_000);

  afterAll(() => env?.close());

  it('indexed the seed: contract, storage, entrypoints and operation groups', async () => {
    const counter = contracts.counter!;
    expect(counter).toMatch(/^KT1/);
    const c = await call('GET', `/v1/contract/${NET}/${counter}`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      address: counter,
      network: NET,
      manager: expect.stringMatching(/^tz1/),
      entrypoints: ['increment', 'decrement', 'note', 'forget'],
    });
    const storage = (await call('GET', `/v1/contract/${NET}/${counter}/storage`)).body as Array<{
      children: Array<{ name: string }>;
    }>;
    expect(storage[0]!.children.map((n) => n.name)).toEqual(['counter', 'notes']);
    const opg = (await call('GET', `/v1/contract/${NET}/${counter}/opg`)).body as Array<{
      hash: string;
      counter: number;
    }>;
    expect(opg.length).toBeGreaterThan(0);
    const group = (await call('GET', `/v1/opg/${NET}/${opg[0]!.hash}/${opg[0]!.counter}`)).body as Array<{
      destination?: string;
    }>;
    expect(group.some((o) => o.destination === counter)).toBe(true);
    expect((await call('GET', `/v1/account/${NET}/${ALICE}`)).body).toMatchObject({
      account_type: 'account',
      balance: expect.any(Number),
    });
    const acc = (await call('GET', `/v1/account/${NET}/${ALICE}`)).body as { balance: number };
    expect(acc.balance).toBeGreaterThan(0);
  });

  it('tokens/holders: balances from the FA2 and FA1.2 ledgers', async () => {
    const { fa2, fa12, counter } = contracts;
    const sum = (m: Record<string, string>) => Object.values(m).reduce((a, v) => a + BigInt(v), 0n);
    const t0 = await call('GET', `/v1/contract/${NET}/${fa2}/tokens/holders?token_id=0`);
    expect(t0.status).toBe(200);
    const holders0 = t0.body as Record<string, string>;
    expect(Object.keys(holders0).length).toBeGreaterThan(1);
    for (const [owner, amount] of Object.entries(holders0)) {
      expect(owner).toMatch(/^(tz[1-4]|KT1)\w{33}$/);
      expect(amount).toMatch(/^[1-9]\d*$/);
    }
    // transfers move token 0 between holders: its 500,000,000 units stay in the ledger
    expect(sum(holders0)).toBe(500_000_000n);
    // the NFT-like token 3 has exactly one holder of 1 unit
    const t3 = (await call('GET', `/v1/contract/${NET}/${fa2}/tokens/holders?token_id=3`)).body as Record<
      string,
      string
    >;
    expect(Object.values(t3)).toEqual(['1']);
    expect((await call('GET', `/v1/contract/${NET}/${fa2}/tokens/holders?token_id=99`)).body).toEqual({});
    // FA1.2 (single asset, `address → nat`): balances add up to the storage's total supply
    const fa12Holders = (await call('GET', `/v1/contract/${NET}/${fa12}/tokens/holders`)).body as Record<
      string,
      string
    >;
    expect(fa12Holders[ALICE]).toMatch(/^\d+$/);
    type Node = { name?: string; value?: unknown; children?: Node[] };
    const find = (nodes: Node[], name: string): Node | undefined =>
      nodes.map((n) => (n.name === name ? n : find(n.children ?? [], name))).find(Boolean);
    const storage = (await call('GET', `/v1/contract/${NET}/${fa12}/storage`)).body as Node[];
    const total = find(storage, 'total_supply')?.value;
    expect(total).toMatch(/^\d+$/);
    expect(sum(fa12Holders)).toBe(BigInt(total as string));
    expect((await call('GET', `/v1/contract/${NET}/${fa12}/tokens/holders?token_id=1`)).body).toEqual({});
    // no ledger big map → {}; a bad address → 404; a bad token id → 400
    expect((await call('GET', `/v1/contract/${NET}/${counter}/tokens/holders`)).body).toEqual({});
    expect((await call('GET', `/v1/contract/${NET}/tz1bad/tokens/holders`)).status).toBe(404);
    const bad = await call('GET', `/v1/contract/${NET}/${fa2}/tokens/holders?token_id=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: expect.any(String) });
  });

  it('entrypoints/trace simulates with run_code: storage diff, event, and failures as a failed operation', async () => {
    const counter = contracts.counter!;
    const before = (await call('GET', `/v1/contract/${NET}/${counter}/storage/raw`)).body as string;
    const current = Number(/^Pair (-?\d+)/.exec(before)?.[1]);
    const ok = await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/trace`, {
      name: 'increment',
      data: { increment: 5 },
      source: ALICE,
    });
    expect(ok.status).toBe(200);
    const ops = ok.body as Array<Record<string, unknown>>;
    expect(ops[0]).toMatchObject({
      kind: 'transaction',
      status: 'applied',
      destination: counter,
      entrypoint: 'increment',
    });
    expect(JSON.stringify(ops[0]!.storage_diff)).toContain(
      `"from":"${current}","diff_type":"update","value":"${current + 5}"`,
    );
    expect(ops[1]).toMatchObject({ kind: 'event', internal: true, tag: 'changed' });
    const fail = await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/trace`, {
      name: 'decrement',
      data: { decrement: current + 100 },
    });
    expect(fail.status).toBe(200);
    expect((fail.body as Array<Record<string, unknown>>)[0]).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(fail.body)).toContain('negative');
    const bad = await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/trace`, {
      name: 'increment',
      data: { increment: 'abc' },
    });
    expect(bad.status).toBe(400);
  });

  it('entrypoints/trace of a call that runs CREATE_CONTRACT originates as Octez run_code does (issue 33)', async () => {
    // run_code given `self` has no origination nonce (Octez lib_plugin/RPC.ml initialises one only when it
    // originates its dummy contract): the trace runs again without `self`, as the reference's RunCode does, and
    // CREATE_CONTRACT takes index 1 of the zero operation hash, KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm (tezt
    // contract_opcodes.ml "opcodes -create_contract-" regression output).
    const factory = contracts.factory!;
    const r = await call('POST', `/v1/contract/${NET}/${factory}/entrypoints/trace`, {
      name: 'default',
      data: { '@int_1': 7 },
      source: ALICE,
    });
    expect(r.status).toBe(200);
    const ops = r.body as Array<Record<string, unknown>>;
    expect(ops[0]).toMatchObject({ kind: 'transaction', status: 'applied', destination: factory });
    expect(JSON.stringify(ops[0]!.storage_diff)).toContain('KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm');
    expect(ops.slice(1)).toEqual([
      expect.objectContaining({ kind: 'origination', internal: true, source: factory }),
      expect.objectContaining({ kind: 'event', internal: true, source: factory, tag: 'created' }),
    ]);
  });

  it('storage/raw is Readable at every level: at the origination and after calls (issue 33)', async () => {
    // the indexed storage is the origination's as sent (readable) and then the receipts' (Optimized: combs as
    // sequences, addresses as bytes): both are printed as the node prints Readable storage
    const fa12 = contracts.fa12!;
    const { level } = (await call('GET', `/v1/contract/${NET}/${fa12}`)).body as { level: number };
    const at = async (q: string) => {
      const r = await call('GET', `/v1/contract/${NET}/${fa12}/storage/raw${q}`);
      expect(r.status, q).toBe(200);
      return r.body as string;
    };
    const readable = /^Pair \d+ \d+ "tz1\w{33}" \d+ \d+$/;
    const origination = await at(`?level=${level}`);
    expect(origination).toMatch(readable);
    expect(origination).toContain(`"${ALICE}"`);
    for (const raw of [await at(''), await at(`?level=${level + 5}`)]) {
      expect(raw).toMatch(readable);
      expect(raw).not.toMatch(/0x|\{/);
    }
    // what runs are fed (resolveStorage) is the node's context form at every level: the admin in bytes
    const admin = async (q: string) =>
      JSON.stringify((await call('GET', `/v1/contract/${NET}/${fa12}/storage/rich${q}`)).body).includes(
        '"bytes":"000002298c03ed7d454a101eb7022bc95f7e5f41ac78"',
      );
    expect([await admin(`?level=${level}`), await admin('')]).toEqual([true, true]);
  });

  it('run_operation simulates a signed-less operation from a source', async () => {
    const counter = contracts.counter!;
    const r = await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/run_operation`, {
      name: 'increment',
      data: { increment: 1 },
      source: ALICE,
    });
    expect(r.status).toBe(200);
    expect((r.body as Array<Record<string, unknown>>)[0]).toMatchObject({
      status: 'applied',
      destination: counter,
      source: ALICE,
    });
    expect(
      (
        await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/run_operation`, {
          name: 'increment',
          data: { increment: 1 },
        })
      ).status,
    ).toBe(400);
  });

  it('run_operation takes a storage limit: a call that needs more bytes fails with storage_exhausted', async () => {
    const counter = contracts.counter!;
    const url = `/v1/contract/${NET}/${counter}/entrypoints/run_operation`;
    // a new note: a big-map value the call adds, large enough to pass the contract's paid storage (the bytes
    // of the seed's forgotten notes are still paid for; Octez counts a big-map key by its hash)
    const note = (storage_limit?: number) =>
      call('POST', url, {
        name: 'note',
        data: {
          note: { '@string_7': `a big note ${storage_limit ?? 'unlimited'}`, '@nat_8': '9'.repeat(600) },
        },
        source: ALICE,
        ...(storage_limit === undefined ? {} : { storage_limit }),
      });
    const free = await note();
    expect(free.status, JSON.stringify(free.body)).toBe(200);
    const main = (
      free.body as Array<{ status: string; paid_storage_size_diff?: number; storage_limit: number }>
    )[0]!;
    expect(main.status).toBe('applied');
    const paid = main.paid_storage_size_diff!;
    expect(paid).toBeGreaterThan(0);
    // the limit the user gave is the operation's, capped at the node's maximum
    const exact = (await note(paid)).body as Array<{ status: string; storage_limit: number }>;
    expect(exact[0]).toMatchObject({ status: 'applied', storage_limit: paid });
    const low = (await note(paid - 1)).body as Array<{
      status: string;
      storage_limit: number;
      errors?: { id: string }[];
    }>;
    expect(low[0]).toMatchObject({ storage_limit: paid - 1 });
    // as Octez: the storage is checked once the call applied, which is then backtracked with the error
    expect(low[0]!.status).toBe('backtracked');
    expect(low[0]!.errors?.map((e) => e.id).join(' ')).toMatch(/storage_exhausted\.operation/);
    const capped = (await note(10_000_000)).body as Array<{ storage_limit: number }>;
    expect(capped[0]!.storage_limit).toBe(main.storage_limit);
    expect(
      (await call('POST', url, { name: 'note', data: {}, source: ALICE, storage_limit: -1 })).status,
    ).toBe(400);
  });

  it('views: schema and execution of on-chain and off-chain views', async () => {
    const counter = contracts.counter!;
    const views = (await call('GET', `/v1/contract/${NET}/${counter}/views/schema`)).body as Array<{
      name: string;
    }>;
    expect(views.map((v) => v.name)).toEqual(['get_counter', 'get_note']);
    const raw = (await call('GET', `/v1/contract/${NET}/${counter}/storage/raw`)).body as string;
    const current = /^Pair (-?\d+)/.exec(raw)?.[1];
    const onChain = await call('POST', `/v1/contract/${NET}/${counter}/views/execute`, {
      kind: 'on-chain',
      name: 'get_counter',
      implementation: 0,
      data: {},
    });
    expect(onChain.status).toBe(200);
    expect(onChain.body).toEqual([{ prim: 'int', type: 'int', name: '@int_1', value: current }]);
    const offChain = await call('POST', `/v1/contract/${NET}/${counter}/views/execute`, {
      kind: 'off-chain',
      data: {},
      view: {
        michelsonStorageView: {
          returnType: { prim: 'int' },
          code: [{ prim: 'CAR' }, { prim: 'PUSH', args: [{ prim: 'int' }, { int: '2' }] }, { prim: 'MUL' }],
        },
      },
    });
    expect(offChain.status).toBe(200);
    expect(offChain.body).toEqual([
      { prim: 'int', type: 'int', name: '@int_1', value: String(Number(current) * 2) },
    ]);
    expect(
      (
        await call('POST', `/v1/contract/${NET}/${counter}/views/execute`, {
          kind: 'on-chain',
          name: 'nope',
          data: {},
        })
      ).status,
    ).toBe(404);
  });

  it('entrypoints/data, fork and michelson parse', async () => {
    const counter = contracts.counter!;
    expect(
      (
        await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/data`, {
          name: 'note',
          data: { note: { '@string_8': 'hi', '@nat_9': 2 } },
        })
      ).body,
    ).toBeDefined();
    const json = await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/data`, {
      name: 'increment',
      data: { increment: 7 },
    });
    expect(json.body).toEqual({ int: '7' });
    const text = await call('POST', `/v1/contract/${NET}/${counter}/entrypoints/data`, {
      name: 'increment',
      data: { increment: 7 },
      format: 'michelson',
    });
    expect(text.body).toBe('7');
    const fork = await call('POST', '/v1/fork', {
      address: counter,
      network: NET,
      storage: { counter: 3, notes: [] },
    });
    expect(fork.status).toBe(200);
    expect((fork.body as { storage: unknown }).storage).toEqual({ prim: 'Pair', args: [{ int: '3' }, []] });
  });

  it('nesting limits: 400 with a message at every depth past the limit, for fork, views and Michelson text', async () => {
    const counter = contracts.counter!;
    const raw = async (url: string, payload: string) => {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      return { status: res.statusCode, body: JSON.parse(res.body) as unknown };
    };
    // JSON text built as text: JSON.stringify itself overflows the stack on these depths
    const optionType = (d: number) =>
      '{"prim":"option","args":['.repeat(d) + '{"prim":"int"}' + ']}'.repeat(d);
    const seq = (d: number, inner: string) => '['.repeat(d) + inner + ']'.repeat(d);
    const forkOf = (d: number) =>
      raw(
        '/v1/fork',
        JSON.stringify({
          script:
            `[{"prim":"parameter","args":[{"prim":"unit"}]},{"prim":"storage","args":[${optionType(d)}]},` +
            '{"prim":"code","args":[[{"prim":"FAILWITH"}]]}]',
          storage: {},
        }),
      );
    const viewOf = (d: number) =>
      raw(
        `/v1/contract/${NET}/${counter}/views/execute`,
        `{"kind":"off-chain","data":{},"view":{"michelsonStorageView":{"returnType":{"prim":"int"},"code":` +
          `${seq(d, '{"prim":"CAR"},{"prim":"PUSH","args":[{"prim":"int"},{"int":"2"}]},{"prim":"MUL"}')}}}}`,
      );
    const michelsonOf = (d: number) =>
      app.inject({
        method: 'POST',
        url: '/v1/michelson',
        headers: { 'content-type': 'text/plain' },
        payload: `parameter unit; storage ${'(option '.repeat(d)}int${')'.repeat(d)}; code { FAILWITH }`,
      });
    const raw100 = (await call('GET', `/v1/contract/${NET}/${counter}/storage/raw`)).body as string;
    const current = Number(/^Pair (-?\d+)/.exec(raw100)?.[1]);
    const fork = await forkOf(100);
    expect(fork.status).toBe(200);
    expect(JSON.stringify((fork.body as { code: unknown }).code)).toContain(optionType(100));
    const view = await viewOf(100);
    expect(view.status).toBe(200);
    expect(view.body).toEqual([{ prim: 'int', type: 'int', name: '@int_1', value: String(current * 2) }]);
    const parsed = await michelsonOf(100);
    expect(parsed.statusCode).toBe(200);
    expect(parsed.json<{ storage: { type: unknown[] } }>().storage.type.length).toBeGreaterThan(0);
    for (const depth of [3000, 5000, 10_000]) {
      expect(await forkOf(depth), `fork ${depth}`).toEqual({
        status: 400,
        body: { message: 'Micheline nested deeper than 1000 levels' },
      });
      expect(await viewOf(depth), `view ${depth}`).toEqual({
        status: 400,
        body: { message: 'request body nested deeper than 1000 levels' },
      });
      const text = await michelsonOf(depth);
      expect(text.statusCode, `michelson ${depth}`).toBe(400);
      expect(text.json(), `michelson ${depth}`).toEqual({
        message: 'Michelson parse error: Michelson text nested deeper than 1000 levels',
      });
    }
  });
});
