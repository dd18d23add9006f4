// Receipts of contract operations injected as signed bytes: origination (address, burns, big-map
// alloc), calls, failures (FAILWITH, backtracked internal calls, a failing batch), CREATE_CONTRACT
// and events, and reads at past blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Parser, packDataBytes } from '@taquito/michel-codec';
import { encodeExpr } from '@taquito/utils';
import { BOOTSTRAP_ACCOUNTS } from '../src/index';
import { originatedAddress } from '../src/execute';
import { seedContractSource } from '../src/seed/index';
import { contractSource, groupInjector, openHarness, type Harness } from './helpers';

const b2 = BOOTSTRAP_ACCOUNTS[1]!;
let h: Harness;
const parser = new Parser();

beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

async function code(name: string): Promise<unknown> {
  return parser.parseScript(await contractSource(name));
}

/** Injects one operation of bootstrap2 with generous limits, bakes, returns its contents and hash. */
const run = groupInjector(() => h, b2);

const call = (destination: string, entrypoint: string, value: unknown) => ({
  kind: 'transaction',
  amount: '0',
  destination,
  parameters: { entrypoint, value },
});
const storage = async (kt1: string, block = 'head') =>
  (await h.get(`/chains/main/blocks/${block}/context/contracts/${kt1}/storage`)).body;
const keyHash = (e: object) => encodeExpr(packDataBytes(e as never, { prim: 'string' }).bytes);

let counterKt1 = '';

describe('contract receipts', () => {
  it('originates with the node address derivation, big-map alloc and storage burns', async () => {
    const init = {
      prim: 'Pair',
      args: [{ int: '5' }, [{ prim: 'Elt', args: [{ string: 'a' }, { int: '1' }] }]],
    };
    const { hash, contents } = await run([
      { kind: 'origination', balance: '1000000', script: { code: await code('counter'), storage: init } },
    ]);
    const result = contents[0].metadata.operation_result;
    expect(result.status).toBe('applied');
    counterKt1 = originatedAddress(hash, 0);
    expect(result.originated_contracts).toEqual([counterKt1]);
    const size = Number(result.storage_size);
    expect(result.paid_storage_size_diff).toBe(String(size));
    expect(result.balance_updates).toEqual([
      { kind: 'contract', contract: b2.pkh, change: '-1000000', origin: 'block' },
      { kind: 'contract', contract: counterKt1, change: '1000000', origin: 'block' },
      { kind: 'contract', contract: b2.pkh, change: String(-size * 250), origin: 'block' },
      { kind: 'burned', category: 'storage fees', change: String(size * 250), origin: 'block' },
      { kind: 'contract', contract: b2.pkh, change: '-64250', origin: 'block' },
      { kind: 'burned', category: 'storage fees', change: '64250', origin: 'block' },
    ]);
    const [diff] = result.lazy_storage_diff;
    expect(diff).toMatchObject({
      kind: 'big_map',
      diff: { action: 'alloc', key_type: { prim: 'string' }, value_type: { prim: 'nat' } },
    });
    expect(diff.diff.updates).toEqual([
      { key_hash: keyHash({ string: 'a' }), key: { string: 'a' }, value: { int: '1' } },
    ]);
    expect(await storage(counterKt1)).toEqual({ prim: 'Pair', args: [{ int: '5' }, { int: diff.id }] });
    expect(
      (await h.get(`/chains/main/blocks/head/context/big_maps/${diff.id}/${keyHash({ string: 'a' })}`)).body,
    ).toEqual({ int: '1' });
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${counterKt1}/balance`)).body).toBe(
      '1000000',
    );
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${counterKt1}/storage/used_space`)).body,
    ).toBe(String(size));
    // The raw-context paths the explorer reads: sizes and big-map types.
    expect(
      (await h.get(`/chains/main/blocks/head/context/raw/json/contracts/index/${counterKt1}/used_bytes`))
        .body,
    ).toBe(String(size));
    expect(
      (await h.get(`/chains/main/blocks/head/context/raw/json/contracts/index/${counterKt1}/paid_bytes`))
        .body,
    ).toBe(String(size));
    // 33 bytes for the map plus its types, 65 bytes plus the value for the key.
    const totalBytes = Number(
      (await h.get(`/chains/main/blocks/head/context/raw/json/big_maps/index/${diff.id}/total_bytes`)).body,
    );
    expect(totalBytes).toBe(33 + 2 + 2 + 65 + 2);
    expect(
      (await h.get(`/chains/main/blocks/head/context/raw/json/big_maps/index/${diff.id}/key_type`)).body,
    ).toEqual({ prim: 'string' });
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${counterKt1}/entrypoints`)).body.entrypoints,
    ).toEqual({
      increment: { prim: 'int' },
      decrement: { prim: 'int' },
      set_entry: { prim: 'pair', args: [{ prim: 'string' }, { prim: 'nat' }] },
    });
  });

  it('updates storage and big map on a call, and serves the old storage at the old block', async () => {
    const before = await storage(counterKt1);
    const { contents, level } = await run([
      call(counterKt1, 'set_entry', { prim: 'Pair', args: [{ string: 'b' }, { int: '42' }] }),
    ]);
    const result = contents[0].metadata.operation_result;
    expect(result.status).toBe('applied');
    const bigMap = before.args[1].int;
    expect(result.lazy_storage_diff).toEqual([
      {
        kind: 'big_map',
        id: bigMap,
        diff: {
          action: 'update',
          updates: [{ key_hash: keyHash({ string: 'b' }), key: { string: 'b' }, value: { int: '42' } }],
        },
      },
    ]);
    // 65 bytes for a new key plus the value's size are paid for.
    expect(Number(result.paid_storage_size_diff)).toBeGreaterThanOrEqual(65);
    expect(
      (await h.get(`/chains/main/blocks/head/context/big_maps/${bigMap}/${keyHash({ string: 'b' })}`)).body,
    ).toEqual({ int: '42' });
    expect(
      (await h.get(`/chains/main/blocks/${level - 1}/context/big_maps/${bigMap}/${keyHash({ string: 'b' })}`))
        .status,
    ).toBe(404);
    const inc = await run([call(counterKt1, 'increment', { int: '3' })]);
    expect(inc.contents[0].metadata.operation_result.storage).toEqual({
      prim: 'Pair',
      args: [{ int: '8' }, { int: bigMap }],
    });
    expect(await storage(counterKt1, String(inc.level - 1))).toEqual(before);
  });

  it('records a FAILWITH as a failed receipt with the value, keeping the fee and nothing else', async () => {
    const before = await storage(counterKt1);
    const balance = BigInt(
      (await h.get(`/chains/main/blocks/head/context/contracts/${b2.pkh}/balance`)).body,
    );
    const { contents } = await run([call(counterKt1, 'decrement', { int: '1000' })]);
    const result = contents[0].metadata.operation_result;
    expect(result.status).toBe('failed');
    expect(result.errors[0]).toMatchObject({
      id: 'proto.024-PtTALLiN.michelson_v1.runtime_error',
      contract_handle: counterKt1,
    });
    expect(result.errors[1]).toMatchObject({
      id: 'proto.024-PtTALLiN.michelson_v1.script_rejected',
      with: { prim: 'Pair', args: [{ string: 'negative' }, { int: '-992' }] },
    });
    expect(await storage(counterKt1)).toEqual(before);
    expect(BigInt((await h.get(`/chains/main/blocks/head/context/contracts/${b2.pkh}/balance`)).body)).toBe(
      balance - 10000n,
    );
  });

  it('runs internal calls, and backtracks the whole operation when one fails', async () => {
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: await code('relay'), storage: { int: '0' } } },
    ]);
    const relay = orig.contents[0].metadata.operation_result.originated_contracts[0];
    const ok = await run([
      call(relay, 'default', { prim: 'Pair', args: [{ string: counterKt1 }, { int: '2' }] }),
    ]);
    const internal = ok.contents[0].metadata.internal_operation_results;
    expect(internal).toHaveLength(1);
    expect(internal[0]).toMatchObject({
      kind: 'transaction',
      source: relay,
      nonce: 0,
      amount: '0',
      destination: counterKt1,
      parameters: { entrypoint: 'decrement', value: { int: '2' } },
    });
    expect(internal[0].result.status).toBe('applied');
    expect((await storage(counterKt1)).args[0]).toEqual({ int: '6' });
    expect(await storage(relay)).toEqual({ int: '1' });

    const bad = await run([
      call(relay, 'default', { prim: 'Pair', args: [{ string: counterKt1 }, { int: '100' }] }),
    ]);
    const top = bad.contents[0].metadata.operation_result;
    expect(top.status).toBe('backtracked');
    expect(top.errors).toBeUndefined();
    const failed = bad.contents[0].metadata.internal_operation_results[0];
    expect(failed.result.status).toBe('failed');
    expect(failed.result.errors.at(-1)).toMatchObject({
      with: { prim: 'Pair', args: [{ string: 'negative' }, { int: '-94' }] },
    });
    expect(await storage(relay)).toEqual({ int: '1' });
    expect((await storage(counterKt1)).args[0]).toEqual({ int: '6' });
  });

  it('backtracks earlier contents of a batch and skips later ones', async () => {
    const { contents } = await run([
      call(counterKt1, 'increment', { int: '1' }),
      call(counterKt1, 'decrement', { int: '1000' }),
      call(counterKt1, 'increment', { int: '1' }),
    ]);
    expect(contents.map((c) => c.metadata.operation_result.status)).toEqual([
      'backtracked',
      'failed',
      'skipped',
    ]);
    expect((await storage(counterKt1)).args[0]).toEqual({ int: '6' });
  });

  it('originates from a contract (CREATE_CONTRACT) and emits an event', async () => {
    const orig = await run([
      { kind: 'origination', balance: '0', script: { code: await code('factory'), storage: [] } },
    ]);
    const factory = orig.contents[0].metadata.operation_result.originated_contracts[0];
    const { hash, contents } = await run([call(factory, 'default', { int: '7' })]);
    const [created, event] = contents[0].metadata.internal_operation_results;
    const child = originatedAddress(hash, 0);
    expect(created).toMatchObject({ kind: 'origination', source: factory, nonce: 0, balance: '0' });
    expect(created.result.status).toBe('applied');
    expect(created.result.originated_contracts).toEqual([child]);
    // The burns of the child are paid by the operation's source.
    expect(
      created.result.balance_updates
        .filter((u: { kind: string }) => u.kind === 'contract')
        .every((u: { contract: string }) => u.contract === b2.pkh),
    ).toBe(true);
    expect(event).toMatchObject({
      kind: 'event',
      source: factory,
      nonce: 1,
      type: { prim: 'address' },
      tag: 'created',
      result: { status: 'applied' },
    });
    expect(await storage(child)).toEqual({ int: '7' });
    expect((await storage(factory))[0]).toEqual(expect.objectContaining({ bytes: expect.any(String) }));
  });

  it('moves tickets between contracts with ticket receipts and balances', async () => {
    const seedCode = (n: string) => parser.parseScript(seedContractSource(n));
    const ticketer = (
      await run([
        { kind: 'origination', balance: '0', script: { code: seedCode('ticketer'), storage: { int: '0' } } },
      ])
    ).contents[0].metadata.operation_result.originated_contracts[0];
    const receiver = (
      await run([
        {
          kind: 'origination',
          balance: '0',
          script: { code: seedCode('receiver'), storage: { prim: 'None' } },
        },
      ])
    ).contents[0].metadata.operation_result.originated_contracts[0];
    const mint = (n: number) =>
      run([call(ticketer, 'default', { prim: 'Pair', args: [{ string: receiver }, { int: String(n) }] })]);
    await mint(5);
    const { contents } = await mint(7);
    const [sent] = contents[0].metadata.internal_operation_results;
    expect(sent).toMatchObject({
      kind: 'transaction',
      source: ticketer,
      destination: receiver,
      parameters: { entrypoint: 'receive' },
    });
    expect(sent.result.status).toBe('applied');
    const token = { ticketer, content_type: { prim: 'string' }, content: { string: 'demo' } };
    expect(sent.result.ticket_receipt).toEqual([
      { ticket_token: token, updates: [{ account: receiver, amount: '7' }] },
    ]);
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${receiver}/all_ticket_balances`)).body,
    ).toEqual([{ ...token, amount: '12' }]);
  });

  it('sends tickets to an implicit account, which passes them on to a contract with transfer_ticket', async () => {
    const sender = (
      await run([
        {
          kind: 'origination',
          balance: '0',
          script: { code: await code('ticket-sender'), storage: { prim: 'Unit' } },
        },
      ])
    ).contents[0].metadata.operation_result.originated_contracts[0];
    const receiver = (
      await run([
        {
          kind: 'origination',
          balance: '0',
          script: { code: parser.parseScript(seedContractSource('receiver')), storage: { prim: 'None' } },
        },
      ])
    ).contents[0].metadata.operation_result.originated_contracts[0];
    const sent = await run([
      call(sender, 'default', { prim: 'Pair', args: [{ string: b2.pkh }, { int: '9' }] }),
    ]);
    const token = { ticketer: sender, content_type: { prim: 'string' }, content: { string: 'demo' } };
    const [toImplicit] = sent.contents[0].metadata.internal_operation_results;
    expect(toImplicit.result).toMatchObject({
      status: 'applied',
      ticket_receipt: [{ ticket_token: token, updates: [{ account: b2.pkh, amount: '9' }] }],
    });
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${b2.pkh}/all_ticket_balances`)).body,
    ).toEqual([{ ...token, amount: '9' }]);

    const transfer = (amount: string) =>
      run([
        {
          kind: 'transfer_ticket',
          ticket_contents: { string: 'demo' },
          ticket_ty: { prim: 'string' },
          ticket_ticketer: sender,
          ticket_amount: amount,
          destination: receiver,
          entrypoint: 'receive',
        },
      ]);
    const tt = await transfer('4');
    const result = tt.contents[0].metadata.operation_result;
    expect(result.status).toBe('applied');
    expect(result.ticket_updates).toEqual([
      { ticket_token: token, updates: [{ account: b2.pkh, amount: '-4' }] },
    ]);
    // The receiver's new ticket-balance entry (65 bytes of key + 1 of balance) is paid by the source,
    // as in Octez' receipts (a mainnet transfer_ticket to a new holder: 66 bytes, 16,500 mutez).
    expect(result.paid_storage_size_diff).toBe('66');
    expect(result.balance_updates).toEqual([
      { kind: 'contract', contract: b2.pkh, change: '-16500', origin: 'block' },
      { kind: 'burned', category: 'storage fees', change: '16500', origin: 'block' },
    ]);
    expect(Object.keys(result)).toEqual([
      'status',
      'balance_updates',
      'ticket_updates',
      'consumed_milligas',
      'paid_storage_size_diff',
    ]);
    const [inner] = tt.contents[0].metadata.internal_operation_results;
    expect(inner).toMatchObject({
      kind: 'transaction',
      source: b2.pkh,
      destination: receiver,
      parameters: { entrypoint: 'receive' },
    });
    expect(inner.result.ticket_receipt).toEqual([
      { ticket_token: token, updates: [{ account: receiver, amount: '4' }] },
    ]);
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${b2.pkh}/all_ticket_balances`)).body,
    ).toEqual([{ ...token, amount: '5' }]);
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${receiver}/all_ticket_balances`)).body,
    ).toEqual([{ ...token, amount: '4' }]);
    // More than held: failed, nothing moves.
    expect((await transfer('6')).contents[0].metadata.operation_result.status).toBe('failed');
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${b2.pkh}/all_ticket_balances`)).body,
    ).toEqual([{ ...token, amount: '5' }]);
    // To an implicit account: no internal operation, the receipt lists both holders.
    const b3 = BOOTSTRAP_ACCOUNTS[2]!.pkh;
    const direct = await run([
      {
        kind: 'transfer_ticket',
        ticket_contents: { string: 'demo' },
        ticket_ty: { prim: 'string' },
        ticket_ticketer: sender,
        ticket_amount: '2',
        destination: b3,
        entrypoint: 'default',
      },
    ]);
    const directResult = direct.contents[0].metadata.operation_result;
    expect(direct.contents[0].metadata.internal_operation_results).toBeUndefined();
    expect(directResult).toMatchObject({
      status: 'applied',
      ticket_updates: [
        {
          ticket_token: token,
          updates: [
            { account: b2.pkh, amount: '-2' },
            { account: b3, amount: '2' },
          ],
        },
      ],
      paid_storage_size_diff: '66',
    });
    expect(
      (await h.get(`/chains/main/blocks/head/context/contracts/${b3}/all_ticket_balances`)).body,
    ).toEqual([{ ...token, amount: '2' }]);
    // All of b2's rest to b3: b2's entry is freed, b3's only changes value; nothing new to pay.
    const back = await run([
      {
        kind: 'transfer_ticket',
        ticket_contents: { string: 'demo' },
        ticket_ty: { prim: 'string' },
        ticket_ticketer: sender,
        ticket_amount: '3',
        destination: b3,
        entrypoint: 'default',
      },
    ]);
    expect(back.contents[0].metadata.operation_result.paid_storage_size_diff).toBeUndefined();
    expect(back.contents[0].metadata.operation_result.balance_updates).toBeUndefined();
  });

  it('answers run_code, run_script_view, run_view and pack_data', async () => {
    const head = '/chains/main/blocks/head/helpers/scripts';
    const chain_id = (await h.get('/chains/main/chain_id')).body;
    const rc = await h.post(`${head}/run_code`, {
      script: await code('counter'),
      storage: { prim: 'Pair', args: [{ int: '1' }, []] },
      input: { prim: 'Left', args: [{ prim: 'Left', args: [{ int: '2' }] }] },
      amount: '0',
      chain_id,
    });
    expect(rc.status).toBe(200);
    // the new big map takes the chain's next fresh id (the counter's own big map is 0), as in Octez
    expect(rc.body.storage).toEqual({ prim: 'Pair', args: [{ int: '3' }, { int: '1' }] });
    const view = await h.post(`${head}/run_script_view`, {
      contract: counterKt1,
      view: 'get_counter',
      input: { prim: 'Unit' },
      chain_id,
      unparsing_mode: 'Readable',
    });
    expect(view.body).toEqual({ data: { int: '6' } });
    const missing = await h.post(`${head}/run_script_view`, {
      contract: counterKt1,
      view: 'nope',
      input: { prim: 'Unit' },
      chain_id,
    });
    expect(missing.status).toBe(500);
    const packed = await h.post(`${head}/pack_data`, { data: { string: 'a' }, type: { prim: 'string' } });
    expect(packed.body.packed).toBe(packDataBytes({ string: 'a' }, { prim: 'string' }).bytes);
    const traced = await h.post(`${head}/trace_code`, {
      script: await code('counter'),
      storage: { prim: 'Pair', args: [{ int: '1' }, []] },
      input: { prim: 'Left', args: [{ prim: 'Right', args: [{ int: '2' }] }] },
      amount: '0',
      chain_id,
    });
    expect(traced.status).toBe(500);
    const ok = await h.post(`${head}/trace_code`, {
      script: await code('counter'),
      storage: { prim: 'Pair', args: [{ int: '1' }, []] },
      input: { prim: 'Left', args: [{ prim: 'Left', args: [{ int: '2' }] }] },
      amount: '0',
      chain_id,
    });
    expect(ok.body.trace.length).toBeGreaterThan(5);
    expect(ok.body.trace[0]).toEqual({
      location: expect.any(Number),
      gas: expect.any(String),
      stack: expect.any(Array),
    });
    expect(traced.body.at(-1)).toMatchObject({ id: 'proto.024-PtTALLiN.michelson_v1.script_rejected' });
  });
});
