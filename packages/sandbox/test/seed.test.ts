// The demo seed: every operation is applied as planned (only the intended failures fail), the
// contracts answer their views, and the chain has the kinds of data the explorer shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { Sandbox, sandboxRpcPlugin } from '../src/index';
import type { ManagerContent } from '../src/operation-types';
import { tempDir } from './helpers';

let sandbox: Sandbox;
const lines: string[] = [];
let app: ReturnType<typeof Fastify>;
const get = async (url: string) => {
  const r = await app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: JSON.parse(r.body) };
};

beforeAll(async () => {
  sandbox = await Sandbox.open({
    dataDir: await tempDir(),
    blockTimeMs: 60_000,
    seed: true,
    log: (l) => lines.push(l),
  });
  app = Fastify({ forceCloseConnections: true });
  await app.register(sandboxRpcPlugin(sandbox));
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app.close();
  await sandbox.stop();
});

describe('demo seed', () => {
  it('applies every planned operation, with exactly the intended failures', async () => {
    expect(lines.find((l) => l.includes('demo seed failed'))).toBeUndefined();
    const statuses: Record<string, number> = {};
    const kinds = new Set<string>();
    const internal = new Set<string>();
    const diffs = new Set<string>();
    const errors: string[] = [];
    for (let l = 1; l <= sandbox.headLevel; l++) {
      for (const op of sandbox.block(l)!.operations[3]!) {
        for (const c of op.contents) {
          const r = c.metadata!.operation_result;
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          kinds.add(c.kind);
          for (const e of r.errors ?? []) errors.push(e.id.replace(/^proto\.[^.]+\./, ''));
          for (const i of c.metadata!.internal_operation_results ?? []) {
            internal.add(`${i.kind}:${i.result.status}`);
            for (const e of i.result.errors ?? []) errors.push(e.id.replace(/^proto\.[^.]+\./, ''));
          }
          for (const d of (r.lazy_storage_diff ?? []) as Array<{
            diff: { action: string; updates?: Array<{ value?: unknown }> };
          }>) {
            diffs.add(d.diff.action);
            if (d.diff.updates?.some((u) => u.value === undefined)) diffs.add('key removed');
          }
        }
      }
    }
    expect(statuses.applied).toBeGreaterThan(150);
    expect(statuses.failed).toBe(8);
    // the batch's first transfer, the note over its storage limit, the increment before a failing decrement, the
    // increment and the note before the multisig call over its storage limit, and that call
    expect(statuses.backtracked).toBe(6);
    expect([...kinds].sort()).toEqual([
      'delegation',
      'origination',
      'register_global_constant',
      'smart_rollup_originate',
      'transaction',
      'transfer_ticket',
    ]);
    expect([...internal].sort()).toEqual([
      'delegation:applied',
      'event:applied',
      'event:backtracked',
      'origination:applied',
      'transaction:applied',
      'transaction:backtracked',
    ]);
    expect([...diffs].sort()).toEqual(['alloc', 'key removed', 'update']);
    expect(errors).toEqual(
      expect.arrayContaining([
        'michelson_v1.script_rejected',
        'michelson_v1.script_overflow',
        'contract.balance_too_low',
        'storage_exhausted.operation',
      ]),
    );
  });

  it('backtracks the note over its storage limit: the call ran, its growth passed the limit', async () => {
    const over = [];
    for (let l = 1; l <= sandbox.headLevel; l++)
      for (const op of sandbox.block(l)!.operations[3]!)
        for (const c of op.contents)
          if (c.metadata!.operation_result.errors?.some((e) => e.id.endsWith('.storage_exhausted.operation')))
            over.push(c);
    // the note, and the multisig call whose internal note passes the limit
    expect(over).toHaveLength(2);
    const r = over[0]!.metadata!.operation_result;
    expect(r.status).toBe('backtracked');
    expect(over[0]!.storage_limit).toBe('40');
    // the receipt keeps what the call would have paid: more than its limit
    expect(Number(r.paid_storage_size_diff)).toBeGreaterThan(40);
    // the multisig's: its internal note ran (backtracked, no error of its own) and would have paid the bytes
    const inner = over[1]!.metadata!.internal_operation_results!;
    expect(over[1]!.storage_limit).toBe('40');
    expect(over[1]!.metadata!.operation_result.status).toBe('backtracked');
    expect(inner.map((i) => [i.kind, i.parameters?.entrypoint, i.result.status, i.result.errors])).toEqual([
      ['transaction', 'note', 'backtracked', undefined],
    ]);
    expect(Number(inner[0]!.result.paid_storage_size_diff)).toBeGreaterThan(40);
  });

  it('leaves contracts whose storage, big maps and views answer', async () => {
    const seeded = lines.find((l) => l.includes('demo seed:'))!;
    const contracts = Object.fromEntries([...seeded.matchAll(/(\w+)=(KT1\w+)/g)].map((m) => [m[1], m[2]]));
    expect(Object.keys(contracts).sort()).toEqual([
      'adder',
      'counter',
      'delegator',
      'fa12',
      'fa2',
      'factory',
      'minter',
      'multisig',
      'receiver',
      'splitter',
      'swap',
      'ticketer',
      'upgradable',
      'vault',
    ]);
    expect((await get(`/chains/main/blocks/head/context/contracts/${contracts.adder}/storage`)).body).toEqual(
      { int: '42' },
    );
    expect(
      (await get(`/chains/main/blocks/head/context/contracts/${contracts.delegator}`)).body.delegate,
    ).toBeUndefined();
    const factoryStorage = (
      await get(`/chains/main/blocks/head/context/contracts/${contracts.factory}/storage`)
    ).body;
    expect(factoryStorage.length).toBeGreaterThanOrEqual(7);
    const entrypoints = (await get(`/chains/main/blocks/head/context/contracts/${contracts.fa2}/entrypoints`))
      .body.entrypoints;
    expect(Object.keys(entrypoints).sort()).toEqual(['balance_of', 'transfer', 'update_operators']);
    const view = async (contract: string, name: string, input: unknown) => {
      const r = await app.inject({
        method: 'POST',
        url: '/chains/main/blocks/head/helpers/scripts/run_script_view',
        payload: { contract, view: name, input, chain_id: 'NetXb4iQop6QC3n', unparsing_mode: 'Readable' },
      });
      return JSON.parse(r.body).data;
    };
    // 1+2+…+24 increments plus 8 bumps by the splitter; the failed decrement changed nothing.
    expect(await view(contracts.counter, 'get_counter', { prim: 'Unit' })).toEqual({
      int: String((24 * 25) / 2 + 8),
    });
    const b5 = 'tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv';
    // bootstrap5 got 10,000 per round from bootstrap2's allowance until it was withdrawn at round 15.
    expect(Number((await view(contracts.fa12, 'get_balance', { string: b5 })).int)).toBeGreaterThanOrEqual(
      150_000,
    );
    expect(
      await view(contracts.fa2, 'get_balance', { prim: 'Pair', args: [{ string: b5 }, { int: '3' }] }),
    ).toEqual({ int: '1' });
  });

  it('pays the growth of the ticket-balance table on the operation that credits a new holder', async () => {
    const seeded = lines.find((l) => l.includes('demo seed:'))!;
    const contracts = Object.fromEntries([...seeded.matchAll(/(\w+)=(KT1\w+)/g)].map((m) => [m[1], m[2]]));
    const contents: ManagerContent[] = [];
    for (let l = 1; l <= sandbox.headLevel; l++)
      for (const op of sandbox.block(l)!.operations[3]!) contents.push(...op.contents);
    const tableBytes = (c: ManagerContent) => {
      const r = c.metadata!.operation_result;
      const inner = c.metadata!.internal_operation_results ?? [];
      return { top: r.paid_storage_size_diff, inner: inner.map((i) => i.result.paid_storage_size_diff) };
    };
    // The ticketer's first mint: the receiver's new entry (66 bytes) is paid by the ticketer's call,
    // whose own storage (a small counter) does not grow; later mints find the entry there, and the
    // one that takes the receiver's balance past 63 pays one more byte (a 2-byte Zarith number).
    const mints = contents.filter((c) => c.kind === 'transaction' && c.destination === contracts.ticketer);
    expect(mints.length).toBeGreaterThan(3);
    let held = 0;
    const expected = mints.map((c) => {
      const before = held;
      held += Number((c.parameters!.value as { args: Array<{ int: string }> }).args[1]!.int);
      return before === 0 ? '66' : before < 64 && held >= 64 ? '1' : undefined;
    });
    expect(expected).toContain('1');
    expect(mints.map((c) => tableBytes(c).top)).toEqual(expected);
    // The minter's call credits bootstrap4 (a new entry), the transfer_ticket the vault.
    const minterCall = contents.find((c) => c.kind === 'transaction' && c.destination === contracts.minter)!;
    expect(tableBytes(minterCall)).toEqual({ top: '66', inner: [undefined] });
    const transferTicket = contents.find((c) => c.kind === 'transfer_ticket')!;
    expect(tableBytes(transferTicket).top).toBe('66');
  });

  it('leaves a smart rollup that the context RPCs answer for', async () => {
    const rollup = /smart rollup (sr1\w+)/.exec(lines.find((l) => l.includes('demo seed:'))!)![1]!;
    expect((await get('/chains/main/blocks/head/context/smart_rollups/all')).body).toEqual([rollup]);
    const info = (
      await get(`/chains/main/blocks/head/context/smart_rollups/smart_rollup/${rollup}/genesis_info`)
    ).body;
    const block = sandbox.block(info.level)!;
    const content = block.operations[3]!.flatMap((o) => o.contents).find(
      (c) => c.kind === 'smart_rollup_originate',
    )!;
    expect(content.metadata!.operation_result).toMatchObject({
      status: 'applied',
      address: rollup,
      genesis_commitment_hash: info.commitment_hash,
      size: '6552',
    });
  });
});
