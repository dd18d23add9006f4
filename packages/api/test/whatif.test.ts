/**
 * What-if (issue 20, capability 5) over the indexed demo sandbox, run for real in the debug workers: overrides
 * change what the contract computes (storage, a big-map entry it reads, NOW / LEVEL / AMOUNT / SENDER / SOURCE /
 * CHAIN_ID / BALANCE seen by a contract that stores them), a bundle's calls see each other's storage and big-map
 * writes, a failed call backtracks the bundle, the debug route takes the same overrides, and bad overrides are
 * 400s naming what is wrong.
 */
import { describeDb } from '@michelscope/db/testing';
import { encodeExpr } from '@michelscope/interpreter';
import { parseMichelsonExpression, parseMichelsonScript, type Micheline } from '@michelscope/michelson';
import { BOOTSTRAP_ACCOUNTS, injectAs } from '@michelscope/sandbox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openIndexedSandbox, SANDBOX_NET as NET, type IndexedSandbox } from './indexed-sandbox';

const ALICE = BOOTSTRAP_ACCOUNTS[0]!.pkh;
const BOB = BOOTSTRAP_ACCOUNTS[1]!.pkh;
/** A valid address that never held anything on the sandbox. */
const NOBODY = 'tz1burnburnburnburnburnburnburjAYjjX';

/** Stores what the chain tells it: NOW, LEVEL, AMOUNT, SENDER, SOURCE, CHAIN_ID, BALANCE. */
const ENV_RECORDER = `
parameter unit;
storage (pair (timestamp %now) (nat %level) (mutez %amount) (address %sender) (address %source)
              (chain_id %chain) (mutez %balance));
code { DROP; BALANCE; CHAIN_ID; SOURCE; SENDER; AMOUNT; LEVEL; NOW; PAIR 7; NIL operation; PAIR };`;

interface Node {
  name?: string;
  value?: unknown;
  from?: unknown;
  diff_type?: string;
  children?: Node[];
}
interface CallResult {
  entrypoint: string;
  status: string;
  consumed_gas: number;
  storage?: Micheline;
  storage_diff?: Node | null;
  failure?: { kind: string; with_text?: string };
  errors?: { id: string }[];
  consumed_milligas?: number;
  operations: {
    kind: string;
    destination?: string;
    amount?: string;
    entrypoint?: string;
    status?: string;
    depth?: number;
  }[];
  events: { kind: string; tag?: string; payload?: Node[] }[];
  balance_updates: { address: string; change: string }[];
}
interface WhatIf {
  status: string;
  calls: CallResult[];
  storage_before: Micheline;
  storage_after: Micheline;
  storage_diff: Node | null;
  big_maps: {
    ptr: number;
    name: string | null;
    counts: { added: number; changed: number; removed: number };
    items: { key_string: string; change: string; value: Node | null }[];
  }[];
  balance_changes: { address: string; before?: string; after?: string; change: string }[];
  inputs: Record<string, unknown>;
  state?: { level: number; head_level: number; changed_since: boolean };
}

const child = (n: Node | null | undefined, name: string) => n?.children?.find((c) => c.name === name);
const args = (m: Micheline) => (m as { args: Micheline[] }).args;
const int = (m: Micheline) => Number((m as { int: string }).int);

// PGlite only: what-if simulations over the indexed sandbox (its indexing runs on both in indexer/test).
describeDb('what-if route over the indexed demo sandbox', { backends: 'pglite' }, ({ db }) => {
  let env: IndexedSandbox;
  let app: FastifyInstance;
  let contracts: Record<string, string>;
  let recorder = '';
  const post = async (url: string, payload: object) => {
    const res = await app.inject({ method: 'POST', url, payload });
    return { status: res.statusCode, body: JSON.parse(res.body) as unknown };
  };
  const whatIf = async (address: string, body: object) => {
    const r = await post(`/v1/contract/${NET}/${address}/entrypoints/what_if`, body);
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
    return r.body as WhatIf;
  };
  const rejected = async (address: string, body: object) => {
    const r = await post(`/v1/contract/${NET}/${address}/entrypoints/what_if`, body);
    expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(400);
    return (r.body as { message: string }).message;
  };

  beforeAll(async () => {
    env = await openIndexedSandbox(db());
    ({ app, contracts } = env);
    // the environment recorder, originated now and indexed before the tests run
    const code = parseMichelsonScript(ENV_RECORDER);
    const storage = parseMichelsonExpression(`Pair 0 0 0 "${ALICE}" "${ALICE}" "NetXdQprcVkpaWU" 0`);
    const hash = await injectAs(env.sandbox, BOOTSTRAP_ACCOUNTS[0]!, [
      { kind: 'origination', balance: '0', script: { code, storage } },
    ]);
    const block = await env.sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === hash)!;
    recorder = (op.contents[0] as { metadata: { operation_result: { originated_contracts: string[] } } })
      .metadata.operation_result.originated_contracts[0]!;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const r = await app.inject({ method: 'GET', url: `/v1/contract/${NET}/${recorder}` });
      if (r.statusCode === 200 && r.body.length > 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(() => env?.close());

  it('an overridden storage changes the result; without overrides the call runs on the head', async () => {
    const counter = contracts.counter!;
    const plain = await whatIf(counter, { calls: [{ name: 'increment', data: { increment: 5 } }] });
    const head = int(args(plain.storage_before)[0]!);
    expect(int(args(plain.calls[0]!.storage!)[0]!)).toBe(head + 5);

    const storage = { prim: 'Pair', args: [{ int: '1000' }, args(plain.storage_before)[1]!] };
    const r = await whatIf(counter, {
      calls: [{ name: 'increment', data: { increment: 5 } }],
      overrides: { storage },
    });
    expect(r.status).toBe('applied');
    expect(r.calls[0]!.status).toBe('applied');
    expect(r.calls[0]!.consumed_gas).toBeGreaterThan(0);
    expect(int(args(r.storage_after)[0]!)).toBe(1005);
    expect(child(r.storage_diff, 'counter')).toMatchObject({
      value: '1005',
      from: '1000',
      diff_type: 'update',
    });
    // the counter emits its new value as an event
    expect(r.calls[0]!.events).toHaveLength(1);
    expect(r.calls[0]!.events[0]!.tag).toBe('changed');
    expect(r.calls[0]!.events[0]!.payload?.[0]?.value).toBe('1005');
    expect(r.inputs.overridden).toEqual(['storage']);
  });

  it('an overridden big-map entry is what the contract reads', async () => {
    const fa12 = contracts.fa12!;
    const call = { name: 'transfer', data: { from: NOBODY, to: BOB, value: '250' }, source: NOBODY };
    // NOBODY holds no token: the transfer fails with the contract's NotEnoughBalance
    const without = await whatIf(fa12, { calls: [call] });
    expect(without.status).toBe('failed');
    expect(without.calls[0]!.failure?.with_text).toContain('NotEnoughBalance');

    const r = await whatIf(fa12, {
      calls: [call],
      overrides: { big_maps: [{ path: 'ledger', key: { string: NOBODY }, value: { int: '1000' } }] },
    });
    expect(r.status).toBe('applied');
    const ledger = r.big_maps.find((m) => m.name === 'ledger')!;
    expect(ledger.counts.changed).toBeGreaterThanOrEqual(1);
    const mine = ledger.items.find((i) => i.key_string === NOBODY)!;
    expect(mine.change).toBe('changed');
    expect(mine.value).toMatchObject({ value: '750', from: '1000', diff_type: 'update' });
    const bob = ledger.items.find((i) => i.key_string === BOB)!;
    expect(['changed', 'added']).toContain(bob.change);
  });

  it('now, level, amount, sender, source, chain id and balance overrides are what the contract sees', async () => {
    const r = await whatIf(recorder, {
      calls: [{ name: 'default', data: {} }],
      overrides: {
        now: '2030-01-02T03:04:05Z',
        level: 424242,
        amount: '1234',
        sender: contracts.counter!,
        source: BOB,
        chain_id: 'NetXnHfVqm9iesp',
        balance: '5000000',
      },
    });
    expect(r.status, JSON.stringify(r.calls[0]!.errors)).toBe('applied');
    const seen = Object.fromEntries(r.storage_diff!.children!.map((c) => [c.name, c.value]));
    expect(seen).toEqual({
      now: '2030-01-02T03:04:05Z',
      level: '424242',
      amount: '1234',
      sender: contracts.counter!,
      source: BOB,
      chain: 'NetXnHfVqm9iesp',
      // BALANCE counts the amount the call brings
      balance: '5001234',
    });
    expect(r.balance_changes).toEqual(
      expect.arrayContaining([
        { address: recorder, before: '5000000', after: '5001234', change: '1234' },
        { address: contracts.counter!, change: '-1234' },
      ]),
    );
  });

  it('a bundle runs in order: each call sees the storage and big-map writes of the one before', async () => {
    const counter = contracts.counter!;
    const r = await whatIf(counter, {
      calls: [
        { name: 'increment', data: { increment: 5 } },
        { name: 'increment', data: { increment: 7 } },
        { name: 'note', value: { prim: 'Pair', args: [{ string: 'what-if' }, { int: '42' }] } },
      ],
      overrides: { source: ALICE },
    });
    expect(r.calls.map((c) => c.status)).toEqual(['applied', 'applied', 'applied']);
    const start = int(args(r.storage_before)[0]!);
    expect(int(args(r.calls[0]!.storage!)[0]!)).toBe(start + 5);
    expect(int(args(r.calls[1]!.storage!)[0]!)).toBe(start + 12);
    expect(child(r.storage_diff, 'counter')).toMatchObject({
      value: String(start + 12),
      from: String(start),
    });
    const notes = r.big_maps.find((m) => m.name === 'notes')!;
    expect(notes.counts).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(notes.items[0]).toMatchObject({ key_string: 'what-if', change: 'added' });
    expect(notes.items[0]!.value).toMatchObject({ value: '42', diff_type: 'create' });

    // FA1.2: the second transfer spends what the first one credited (a big-map write carried over)
    const fa12 = contracts.fa12!;
    const chained = await whatIf(fa12, {
      calls: [
        { name: 'transfer', data: { from: NOBODY, to: BOB, value: '10' }, source: NOBODY },
        { name: 'transfer', data: { from: BOB, to: NOBODY, value: '3' }, source: BOB },
      ],
      overrides: { big_maps: [{ path: 'ledger', key: { string: NOBODY }, value: { int: '10' } }] },
    });
    expect(chained.calls.map((c) => c.status)).toEqual(['applied', 'applied']);
    const item = chained.big_maps[0]!.items.find((i) => i.key_string === NOBODY)!;
    expect(item.value).toMatchObject({ value: '3', from: '10' });
  });

  it('internal operations run against the indexed chain: the contracts called change, tez move', async () => {
    // the splitter forwards its amount to its beneficiary and calls %increment 1 of the counter
    const splitter = contracts.splitter!;
    const counter = contracts.counter!;
    const r = (await whatIf(splitter, {
      calls: [{ name: 'default', value: { prim: 'Unit' }, amount: '2000000', source: ALICE }],
    })) as WhatIf & {
      contracts: { address: string; storage_before: Micheline; storage_after: Micheline }[];
      totals: { burn: string; consumed_milligas: number };
    };
    expect(r.status).toBe('applied');
    const self = r.contracts.find((x) => x.address === splitter)!;
    const beneficiary = (args(self.storage_after)[0] as { string: string }).string;
    const c = r.contracts.find((x) => x.address === counter)!;
    expect(int(args(c.storage_after)[0]!)).toBe(int(args(c.storage_before)[0]!) + 1);
    expect(r.calls[0]!.operations.map((o) => [o.kind, o.destination, o.status, o.depth])).toEqual([
      ['transaction', beneficiary, 'applied', 1],
      ['transaction', counter, 'applied', 1],
      // the counter emits its new value
      ['event', undefined, 'applied', 2],
    ]);
    expect(r.balance_changes).toEqual(
      expect.arrayContaining([
        { address: ALICE, change: '-2000000' },
        { address: beneficiary, change: '2000000' },
      ]),
    );
    expect(r.totals.consumed_milligas).toBe(r.calls[0]!.consumed_milligas);

    // the swap pulls FA1.2 tokens and sends FA2 tokens: the big maps of both token contracts change
    const swap = await whatIf(contracts.swap!, {
      calls: [{ name: 'default', value: { int: '10' }, source: BOOTSTRAP_ACCOUNTS[2]!.pkh }],
    });
    expect(swap.status, JSON.stringify(swap.calls[0]!.failure)).toBe('applied');
    const owners = new Set(
      (swap.big_maps as { contract?: string }[]).map((m) => m.contract).filter((x) => x !== undefined),
    );
    expect(owners).toEqual(new Set([contracts.fa12!, contracts.fa2!]));
  });

  it('the storage limit: what-if and debug say the limit, the use and the contract that grew', async () => {
    const counter = contracts.counter!;
    // a new notes key: 65 bytes + its value (a 999-digit int), less what the contract paid beyond its use
    const space = async (what: string) =>
      Number(
        await (
          await fetch(`${env.rpcUrl}/chains/main/blocks/head/context/contracts/${counter}/storage/${what}`)
        ).json(),
      );
    const [used, paid] = [await space('used_space'), await space('paid_space')];
    const big = { int: '9'.repeat(999) };
    const grows = Math.max(0, used + 65 + encodeExpr(big).length - paid);
    expect(grows).toBeGreaterThan(0);
    const note = { name: 'note', value: { prim: 'Pair', args: [{ string: 'limit-test' }, big] } };
    const r = await whatIf(counter, { calls: [{ ...note, storage_limit: grows - 1 }] });
    expect(r.status).toBe('failed');
    expect(r.calls[0]!.failure).toMatchObject({
      kind: 'storage_exhausted',
      storage: {
        limit: grows - 1,
        used: grows,
        contracts: [{ address: counter, paid_storage_size_diff: grows }],
      },
    });
    const ok = (await whatIf(counter, { calls: [{ ...note, storage_limit: grows }] })) as WhatIf & {
      totals: { paid_storage_size_diff: number; storage_burn: string };
    };
    expect(ok.status).toBe('applied');
    expect(ok.totals).toMatchObject({ paid_storage_size_diff: grows, storage_burn: String(grows * 250) });

    const dbg = await post(`/v1/contract/${NET}/${counter}/entrypoints/debug`, {
      ...note,
      storage_limit: grows - 1,
    });
    expect(dbg.status).toBe(200);
    expect(dbg.body).toMatchObject({
      status: 'failed',
      failure: { kind: 'storage_exhausted', storage: { limit: grows - 1, used: grows } },
    });
  });

  it('a failed call backtracks the calls before it and skips those after it', async () => {
    const r = await whatIf(contracts.counter!, {
      calls: [
        { name: 'increment', data: { increment: 1 } },
        { name: 'decrement', data: { decrement: 1_000_000_000 } },
        { name: 'increment', data: { increment: 1 } },
      ],
    });
    expect(r.status).toBe('failed');
    expect(r.calls.map((c) => c.status)).toEqual(['backtracked', 'failed', 'skipped']);
    expect(r.calls[1]!.failure?.with_text).toContain('"negative"');
  });

  it('the debug route runs a what-if call: overrides and the bundle calls before it', async () => {
    const counter = contracts.counter!;
    const base = await whatIf(counter, { calls: [{ name: 'increment', data: { increment: 0 } }] });
    const storage = { prim: 'Pair', args: [{ int: '40' }, args(base.storage_before)[1]!] };
    const r = await post(`/v1/contract/${NET}/${counter}/entrypoints/debug`, {
      name: 'increment',
      data: { increment: 2 },
      overrides: { storage, level: 777 },
      before: [{ name: 'increment', data: { increment: 100 } }],
    });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    const d = r.body as {
      status: string;
      storage: Micheline;
      inputs: { level: string };
      trace: { steps: number };
    };
    expect(d.status).toBe('applied');
    expect(int(args(d.storage)[0]!)).toBe(142);
    expect(d.inputs.level).toBe('777');
    expect(d.trace.steps).toBeGreaterThan(5);
  });

  it('bad overrides are 400s that say what is wrong', async () => {
    const counter = contracts.counter!;
    const call = { name: 'increment', data: { increment: 1 } };
    expect(await rejected(counter, { calls: [call], overrides: { storage: { int: '5' } } })).toMatch(
      /^storage does not match its type/,
    );
    expect(
      await rejected(counter, {
        calls: [call],
        overrides: { big_maps: [{ ptr: 999_999, key: { string: 'a' }, value: null }] },
      }),
    ).toMatch(/big_maps\[0\]: unknown big map 999999 of this contract/);
    expect(
      await rejected(counter, {
        calls: [call],
        overrides: { big_maps: [{ path: 'ledger', key: { string: 'a' }, value: null }] },
      }),
    ).toMatch(/unknown big map 'ledger'.*notes/);
    expect(
      await rejected(counter, {
        calls: [call],
        overrides: { big_maps: [{ path: 'notes', key: { int: '1' }, value: { int: '1' } }] },
      }),
    ).toMatch(/^big_maps\[0\]\.key does not match its type/);
    expect(await rejected(counter, { calls: [call], overrides: { source: 'tz1notanaddress' } })).toMatch(
      /^source: invalid implicit account/,
    );
    expect(await rejected(counter, { calls: [call], overrides: { source: counter } })).toMatch(
      /^source: invalid implicit account/,
    );
    expect(await rejected(counter, { calls: [call], overrides: { sender: 'KT1xyz' } })).toMatch(
      /^sender: invalid address/,
    );
    expect(await rejected(counter, { calls: [call], overrides: { chain_id: 'NetXbad' } })).toMatch(
      /^chain_id: invalid chain id/,
    );
    expect(await rejected(counter, { calls: [call], overrides: { now: 'yesterday' } })).toMatch(/^now: /);
    expect(await rejected(counter, { calls: [call], overrides: { balance: '-1' } })).toBeTruthy();
    expect(await rejected(counter, { calls: Array.from({ length: 6 }, () => call) })).toBeTruthy();
    expect(await rejected(counter, { calls: [] })).toBeTruthy();
    expect(await rejected(counter, { calls: [{ name: 'increment', data: { increment: 'x' } }] })).toMatch(
      /calls\[0\]/,
    );
  });

  it('at_level: the calls run against the state at the end of that block, after the chain moved on', async () => {
    const counter = contracts.counter!;
    const call = { name: 'increment', data: { increment: 5 } };
    const before = await whatIf(counter, { calls: [call] });
    const level = before.state!.level;
    expect(before.state).toEqual({ level, head_level: level, changed_since: false });
    const value = int(args(before.storage_before)[0]!);
    // the chain moves on: a real call adds 3 to the counter and sends it 1,000 mutez
    await injectAs(env.sandbox, BOOTSTRAP_ACCOUNTS[0]!, [
      {
        kind: 'transaction',
        amount: '1000',
        destination: counter,
        parameters: { entrypoint: 'increment', value: { int: '3' } },
      },
    ]);
    await env.sandbox.bakeBlock();
    const deadline = Date.now() + 60_000;
    let now = before;
    while (now.state!.head_level === level && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      now = await whatIf(counter, { calls: [call] });
    }
    expect(int(args(now.storage_before)[0]!)).toBe(value + 3);
    expect(BigInt(now.inputs.balance as string)).toBe(BigInt(before.inputs.balance as string) + 1000n);

    // pinned to the first level: the same storage, balance, level and time as the first run
    const pinned = await whatIf(counter, { calls: [call], at_level: level });
    expect(pinned.state).toEqual({ level, head_level: now.state!.head_level, changed_since: true });
    expect(pinned.storage_before).toEqual(before.storage_before);
    expect(child(pinned.storage_diff, 'counter')).toMatchObject({
      value: String(value + 5),
      from: String(value),
    });
    expect(pinned.inputs).toEqual(before.inputs);
    // the recorder (originated before the first run) pinned to that level sees its LEVEL and NOW
    const recorded = await whatIf(recorder, { calls: [{ name: 'default', data: {} }], at_level: level });
    const seen = Object.fromEntries(recorded.storage_diff!.children!.map((c) => [c.name, c.value]));
    expect(seen.level).toBe(String(level));
    expect(seen.now).toBe(before.inputs.now);
    expect(recorded.inputs.level).toBe(String(level));
    // the debug route takes it too
    const d = await post(`/v1/contract/${NET}/${counter}/entrypoints/debug`, { ...call, at_level: level });
    expect(d.status, JSON.stringify(d.body).slice(0, 300)).toBe(200);
    expect(int(args((d.body as { storage: Micheline }).storage)[0]!)).toBe(value + 5);

    // a level above the head, or before the contract existed, is a 400 saying so
    const head = now.state!.head_level;
    expect(await rejected(counter, { calls: [call], at_level: head + 10 })).toBe(
      `at_level ${head + 10} is above the indexed head (level ${head})`,
    );
    expect(await rejected(counter, { calls: [call], at_level: 0 })).toMatch(
      /^at_level 0 is before the contract's origination \(level \d+\)/,
    );
    const bad = await post(`/v1/contract/${NET}/${counter}/entrypoints/debug`, {
      ...call,
      at_level: head + 1,
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/above the indexed head/);
  });
});
