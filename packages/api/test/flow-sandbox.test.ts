/**
 * The operation flow graph (issue 37) over the indexed demo sandbox: the swap (FA1.2 pulled through an
 * allowance, FA2 sent back), the splitter (tez forwarded, a counter bumped, its event) and the ticketer (tickets
 * minted to a receiver) — every edge, token and ticket movement and the per-node sums; and the route's 404.
 */
import type { FlowGraph } from '@michelscope/api-types';
import { describeDb } from '@michelscope/db/testing';
import { startMetadataResolver } from '@michelscope/indexer';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const B1 = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const B3 = 'tz1faswCTDciRzE4oJ9jn2Vm2dvjeyA9fUzU';
const B4 = 'tz1b7tUupMgCNw2cCLpKTkSD1NZzB5TkP2sv';
const B5 = 'tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv';

// PGlite only: the flow is built from ordinary reads.
describeDb('operation flow graph over the seeded sandbox', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  const get = async <T>(url: string) => {
    const res = await env.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json<T>() };
  };
  /** The first applied call of `dest` (a seeded group) and its flow. */
  const flowOf = async (dest: string) => {
    const r = await db()
      .selectFrom('operations')
      .select(['hash'])
      .where('destination', '=', dest)
      .where('internal', '=', false)
      .where('status', '=', 'applied')
      .where('kind', '=', 'transaction')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const res = await get<FlowGraph>(`/v1/opg/${NET}/${r.hash}/flow`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const edgeFacts = (g: FlowGraph) =>
    g.edges.map((e) => ({
      kind: e.kind,
      from: e.from,
      to: e.to,
      entrypoint: e.entrypoint,
      amount: e.amount,
      status: e.status,
      internal: e.internal,
    }));
  const node = (g: FlowGraph, address: string) => g.nodes.find((n) => n.address === address)!;

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
    // the metadata resolver of `npm start`: names the demo tokens and contracts
    const resolver = startMetadataResolver({
      db: db(),
      network: NET,
      rpcUrl: env.rpcUrl,
      background: false,
      batchSize: 50,
      log: () => {},
    });
    await resolver.runOnce();
    await resolver.stop();
  }, 90_000);
  afterAll(() => env?.close());

  it('the swap: FA1.2 pulled through the allowance, FA2 sent back, both checked against the ledgers', async () => {
    const { swap, fa12, fa2 } = env.contracts;
    const g = await flowOf(swap!);
    expect(g).toMatchObject({ truncated: false, total_operations: 3, status: 'applied' });
    const amount = '1002'; // round 2: 1000 + r
    expect(edgeFacts(g)).toEqual([
      {
        kind: 'transaction',
        from: B3,
        to: swap,
        entrypoint: 'default',
        amount: '0',
        status: 'applied',
        internal: false,
      },
      {
        kind: 'transaction',
        from: swap,
        to: fa12,
        entrypoint: 'transfer',
        amount: '0',
        status: 'applied',
        internal: true,
      },
      {
        kind: 'transaction',
        from: swap,
        to: fa2,
        entrypoint: 'transfer',
        amount: '0',
        status: 'applied',
        internal: true,
      },
    ]);
    expect(g.edges[0]!.parameters?.[0]).toMatchObject({ prim: 'nat', value: amount });
    expect(g.edges.map((e) => [e.counter, e.nonce])).toEqual([
      [expect.any(Number), undefined],
      [undefined, 0],
      [undefined, 1],
    ]);
    const fa12Token = { contract: fa12, token_id: '0', standard: 'fa1.2' };
    const fa2Token = {
      contract: fa2,
      token_id: '0',
      standard: 'fa2',
      symbol: 'DMC',
      decimals: 6,
      name: 'Demo Coin',
    };
    expect(g.edges.map((e) => e.tokens)).toEqual([
      [],
      [{ token: fa12Token, from: B3, to: swap, amount, checked: true }],
      [{ token: fa2Token, from: swap, to: B3, amount, checked: true }],
    ]);
    expect(g.edges.flatMap((e) => e.tickets)).toEqual([]);
    expect(g.nodes.map((n) => [n.address, n.kind])).toEqual([
      [B3, 'implicit'],
      [swap, 'contract'],
      [fa12, 'contract'],
      [fa2, 'contract'],
    ]);
    expect(node(g, B3)).toMatchObject({
      tez: '0',
      fees: expect.stringMatching(/^[1-9]\d*$/),
      tokens: [
        { token: fa12Token, change: `-${amount}` },
        { token: fa2Token, change: amount },
      ],
      tickets: [],
    });
    expect(node(g, swap!)).toMatchObject({
      tez: '0',
      tokens: [
        { token: fa12Token, change: amount },
        { token: fa2Token, change: `-${amount}` },
      ],
    });
    expect(node(g, fa12!)).toMatchObject({
      alias: 'Michelscope Demo Token',
      tags: expect.arrayContaining(['fa1-2']),
      tez: '0',
      tokens: [],
    });
    expect(node(g, fa2!)).toMatchObject({
      alias: 'Michelscope Demo Collection',
      tags: expect.arrayContaining(['fa2']),
      tokens: [],
    });
  });

  it('the splitter: tez forwarded to the beneficiary, the counter bumped, its event', async () => {
    const { splitter, counter } = env.contracts;
    const g = await flowOf(splitter!);
    expect(g).toMatchObject({ truncated: false, total_operations: 4, status: 'applied' });
    expect(edgeFacts(g)).toEqual([
      {
        kind: 'transaction',
        from: B5,
        to: splitter,
        entrypoint: 'default',
        amount: '2000000',
        status: 'applied',
        internal: false,
      },
      {
        kind: 'transaction',
        from: splitter,
        to: B4,
        entrypoint: undefined,
        amount: '2000000',
        status: 'applied',
        internal: true,
      },
      {
        kind: 'transaction',
        from: splitter,
        to: counter,
        entrypoint: 'increment',
        amount: '0',
        status: 'applied',
        internal: true,
      },
      {
        kind: 'event',
        from: counter,
        to: undefined,
        entrypoint: undefined,
        amount: '0',
        status: 'applied',
        internal: true,
      },
    ]);
    expect(g.edges[2]!.parameters?.[0]).toMatchObject({ prim: 'int', value: '1' });
    expect(g.edges[3]!.event).toMatchObject({ tag: 'changed', payload: [{ prim: 'int' }] });
    expect(g.edges.flatMap((e) => [...e.tokens, ...e.tickets])).toEqual([]);
    expect(g.nodes.map((n) => [n.address, n.tez])).toEqual([
      [B5, '-2000000'],
      [splitter, '0'],
      [B4, '2000000'],
      [counter, '0'],
    ]);
    expect(node(g, B5).fees).toMatch(/^[1-9]\d*$/);
    expect(g.nodes.flatMap((n) => [...n.tokens, ...n.tickets])).toEqual([]);
  });

  it('the ticketer: tickets minted to the receiver', async () => {
    const { ticketer, receiver } = env.contracts;
    const g = await flowOf(ticketer!);
    expect(g).toMatchObject({ truncated: false, total_operations: 2, status: 'applied' });
    expect(edgeFacts(g)).toEqual([
      {
        kind: 'transaction',
        from: B1,
        to: ticketer,
        entrypoint: 'default',
        amount: '0',
        status: 'applied',
        internal: false,
      },
      {
        kind: 'transaction',
        from: ticketer,
        to: receiver,
        entrypoint: 'receive',
        amount: '0',
        status: 'applied',
        internal: true,
      },
    ]);
    const ticket = {
      ticketer,
      content_type: { prim: 'string' },
      content: { prim: 'string', value: 'demo' },
    };
    expect(g.edges.map((e) => e.tickets)).toEqual([
      [],
      [{ ...ticket, content: expect.objectContaining(ticket.content), account: receiver, amount: '12' }],
    ]);
    expect(g.nodes.map((n) => [n.address, n.tez, n.tickets.length])).toEqual([
      [B1, '0', 0],
      [ticketer, '0', 0],
      [receiver, '0', 1],
    ]);
    expect(node(g, receiver!).tickets).toEqual([
      { ...ticket, content: expect.objectContaining(ticket.content), change: '12' },
    ]);
    expect(node(g, B1).burned).toMatch(/^[1-9]\d*$/);
  });

  it('a what-if of the swap carries the same flow, checked against the ledgers; a failing second call backtracks it', async () => {
    const { swap, fa12, fa2 } = env.contracts;
    const post = async (calls: object[]) => {
      const res = await env.app.inject({
        method: 'POST',
        url: `/v1/contract/${NET}/${swap}/entrypoints/what_if`,
        payload: { calls },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      return res.json<{ status: string; flow: FlowGraph }>();
    };
    const ok = await post([{ name: 'default', value: { int: '7' }, source: B3 }]);
    expect(ok.flow).toMatchObject({ truncated: false, total_operations: 3, status: 'applied' });
    expect(edgeFacts(ok.flow)).toEqual([
      {
        kind: 'transaction',
        from: B3,
        to: swap,
        entrypoint: 'default',
        amount: '0',
        status: 'applied',
        internal: false,
      },
      {
        kind: 'transaction',
        from: swap,
        to: fa12,
        entrypoint: 'transfer',
        amount: '0',
        status: 'applied',
        internal: true,
      },
      {
        kind: 'transaction',
        from: swap,
        to: fa2,
        entrypoint: 'transfer',
        amount: '0',
        status: 'applied',
        internal: true,
      },
    ]);
    expect(ok.flow.edges.map((e) => e.tokens)).toEqual([
      [],
      [
        {
          token: { contract: fa12, token_id: '0', standard: 'fa1.2' },
          from: B3,
          to: swap,
          amount: '7',
          checked: true,
        },
      ],
      [
        {
          token: { contract: fa2, token_id: '0', standard: 'fa2' },
          from: swap,
          to: B3,
          amount: '7',
          checked: true,
        },
      ],
    ]);
    expect(node(ok.flow, B3).tokens.map((t) => [t.token.contract, t.change])).toEqual([
      [fa12, '-7'],
      [fa2, '7'],
    ]);
    // B1 gave the swap no allowance: the second call fails, the first is backtracked; no sums
    const failed = await post([
      { name: 'default', value: { int: '7' }, source: B3 },
      { name: 'default', value: { int: '7' }, source: B1 },
    ]);
    expect(failed.status).toBe('failed');
    expect(failed.flow.status).toBe('failed');
    expect(failed.flow.edges.map((e) => [e.from, e.to, e.status])).toEqual([
      [B3, swap, 'backtracked'],
      [swap, fa12, 'backtracked'],
      [swap, fa2, 'backtracked'],
      [B1, swap, 'failed'],
      ...failed.flow.edges.slice(4).map((e) => [e.from, e.to, e.status]),
    ]);
    expect(failed.flow.edges.slice(4).every((e) => e.status !== 'applied')).toBe(true);
    expect(failed.flow.edges[1]!.tokens).toHaveLength(1);
    for (const n of failed.flow.nodes) expect(n.tokens).toEqual([]);
  });

  it('run_operation/flow: the node simulation of the splitter, the swap and the ticketer, before anything is sent', async () => {
    const { splitter, counter, swap, fa12, fa2 } = env.contracts;
    const post = async (address: string, body: object) => {
      const res = await env.app.inject({
        method: 'POST',
        url: `/v1/contract/${NET}/${address}/entrypoints/run_operation/flow`,
        payload: body,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      return res.json<FlowGraph>();
    };
    const split = await post(splitter!, { name: 'default', data: {}, source: B5, amount: 3000 });
    expect(edgeFacts(split)).toEqual([
      {
        kind: 'transaction',
        from: B5,
        to: splitter,
        entrypoint: 'default',
        amount: '3000',
        status: 'applied',
        internal: false,
      },
      {
        kind: 'transaction',
        from: splitter,
        to: B4,
        entrypoint: undefined,
        amount: '3000',
        status: 'applied',
        internal: true,
      },
      {
        kind: 'transaction',
        from: splitter,
        to: counter,
        entrypoint: 'increment',
        amount: '0',
        status: 'applied',
        internal: true,
      },
      {
        kind: 'event',
        from: counter,
        to: undefined,
        entrypoint: undefined,
        amount: '0',
        status: 'applied',
        internal: true,
      },
    ]);
    expect(split.nodes.map((n) => [n.address, n.tez])).toEqual([
      [B5, '-3000'],
      [splitter, '0'],
      [B4, '3000'],
      [counter, '0'],
    ]);
    const sw = await post(swap!, { name: 'default', data: { '@nat_1': '5' }, source: B3 });
    expect(sw.edges.map((e) => [e.from, e.to, e.entrypoint, e.status])).toEqual([
      [B3, swap, 'default', 'applied'],
      [swap, fa12, 'transfer', 'applied'],
      [swap, fa2, 'transfer', 'applied'],
    ]);
    expect(sw.edges[2]!.tokens).toEqual([
      {
        token: {
          contract: fa2,
          token_id: '0',
          standard: 'fa2',
          symbol: 'DMC',
          decimals: 6,
          name: 'Demo Coin',
        },
        from: swap,
        to: B3,
        amount: '5',
        checked: true,
      },
    ]);
    expect(sw.edges[1]!.tokens).toEqual([
      {
        token: { contract: fa12, token_id: '0', standard: 'fa1.2' },
        from: B3,
        to: swap,
        amount: '5',
        checked: true,
      },
    ]);
    expect(sw.nodes.find((n) => n.address === fa12)).toMatchObject({ alias: 'Michelscope Demo Token' });
    const { ticketer, receiver } = env.contracts;
    const tk = await post(ticketer!, {
      name: 'default',
      data: { receiver: receiver, amount: '4' },
      source: B1,
    });
    expect(tk.edges.map((e) => [e.from, e.to, e.entrypoint, e.status])).toEqual([
      [B1, ticketer, 'default', 'applied'],
      [ticketer, receiver, 'receive', 'applied'],
    ]);
    expect(tk.edges.flatMap((e) => e.tickets.map((t) => [t.ticketer, t.account, t.amount]))).toEqual([
      [ticketer, receiver, '4'],
    ]);
    expect(tk.nodes.find((n) => n.address === receiver)!.tickets).toMatchObject([
      { ticketer, content: { value: 'demo' }, change: '4' },
    ]);
  });

  it('404 for an unknown group, a malformed hash and an unknown network', async () => {
    const unknown = 'ooTjRw9gs4mx29E2KYQyqi7nxqq9yGWokBqxEEpSjfUHkU9zG8u';
    const a = await get<{ message: string }>(`/v1/opg/${NET}/${unknown.slice(0, -1)}x/flow`);
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ message: 'operation group not found' });
    const b = await get<{ message: string }>(`/v1/opg/${NET}/nothash/flow`);
    expect(b.status).toBe(404);
    expect(b.body.message).toMatch(/invalid operation hash/);
    const c = await get<{ message: string }>(`/v1/opg/nonet/${unknown}/flow`);
    expect(c.status).toBeGreaterThanOrEqual(400);
    expect(c.body).toHaveProperty('message');
  });
});
