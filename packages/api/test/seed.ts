/**
 * A small indexed chain written through the indexer's write API (`applyBlock` with BlockData): a token-like
 * contract originated with a big map, called, emitting an event, a failed call, a key removal, a ticket,
 * a global constant and a smart rollup. Tests assert what the API makes of it.
 */
import type { Db } from '@michelscope/db';
import { applyBlock, emptyBlockData, type BlockData, type OperationRow } from '@michelscope/db/write';
import { bigMapKeyHash, scriptHash, type Micheline } from '@michelscope/michelson';

const pad = (prefix: string, len: number) => prefix + 'x'.repeat(len - prefix.length);

export const NET = 'sandboxnet';
export const PROTO = 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ';
export const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
export const BOB = 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN';
export const TOKEN = pad('KT1TokenContract', 36);
export const TWIN = pad('KT1TwinContract', 36);
export const ROLLUP = pad('sr1RxupAddress', 36);
export const CONSTANT = pad('exprConstantAddress', 54);
export const OPG1 = pad('ooriginationGroupHash', 51);
export const OPG2 = pad('ooTransferGroupHash', 51);
export const OPG3 = pad('ooFaxedGroupHash', 51);
export const OPG4 = pad('ooResetGroupHash', 51);

export const PARAMETER: Micheline = {
  prim: 'or',
  args: [
    { prim: 'pair', args: [{ prim: 'address' }, { prim: 'nat' }], annots: ['%transfer'] },
    { prim: 'address', annots: ['%remove'] },
  ],
};
export const STORAGE: Micheline = {
  prim: 'pair',
  args: [
    { prim: 'big_map', args: [{ prim: 'address' }, { prim: 'nat' }], annots: ['%ledger'] },
    { prim: 'nat', annots: ['%total'] },
  ],
};
export const CODE: Micheline = [
  { prim: 'CDR' },
  { prim: 'PUSH', args: [{ prim: 'string' }, { string: 'NO' }] },
  { prim: 'FAILWITH' },
];
export const VIEW: Micheline = {
  prim: 'view',
  args: [{ string: 'get_total' }, { prim: 'unit' }, { prim: 'nat' }, [{ prim: 'CDR' }, { prim: 'CDR' }]],
};
const FULL: Micheline = [
  { prim: 'parameter', args: [PARAMETER] },
  { prim: 'storage', args: [STORAGE] },
  { prim: 'code', args: [CODE] },
  VIEW,
];
export const SCRIPT_HASH = scriptHash(FULL);
export const keyHash = (addr: string) => bigMapKeyHash({ string: addr }, { prim: 'address' });

const T0 = Date.parse('2026-01-10T11:00:00Z');
const ts = (level: number) => new Date(T0 + level * 60_000);

function op(p: Partial<OperationRow>): OperationRow {
  return {
    hash: null,
    counter: null,
    content_index: 0,
    nonce: null,
    internal: false,
    kind: 'transaction',
    status: 'applied',
    source: null,
    destination: null,
    initiator: null,
    delegate: null,
    fee: 0,
    gas_limit: 0,
    storage_limit: 0,
    amount: '0',
    consumed_gas: 0,
    storage_size: 0,
    paid_storage_size_diff: 0,
    burned: 0,
    allocated_destination_contract_burned: 0,
    allocated_destination_contract: false,
    entrypoint: null,
    tag: null,
    tags: 0,
    parameters: null,
    storage: null,
    payload: null,
    payload_type: null,
    errors: null,
    big_map_diffs_count: 0,
    ticket_updates_count: 0,
    ...p,
  };
}

const acct = (
  address: string,
  type: 'account' | 'contract' | 'smart_rollup',
  ops = 1,
  extra: Partial<{ events_count: number; ticket_updates_count: number }> = {},
) => ({
  address,
  type,
  operations_count: ops,
  events_count: 0,
  migrations_count: 0,
  ticket_updates_count: 0,
  ...extra,
});

export async function seedChain(db: Db): Promise<void> {
  let prev = 'BLgenesis';
  const block = async (level: number, data: BlockData, first = false) => {
    const hash = `BLblock${level}`;
    await applyBlock(
      db,
      NET,
      { level, hash, predecessor: prev, timestamp: ts(level), chainId: 'NetXsandbox', protocol: PROTO },
      first
        ? {
            hash: PROTO,
            chainId: 'NetXsandbox',
            startLevel: level,
            costPerByte: 250,
            hardGasLimitPerOperation: 1_040_000,
            hardStorageLimitPerOperation: 60_000,
            timeBetweenBlocks: 8,
            constants: { cost_per_byte: '250' },
          }
        : undefined,
      data,
    );
    prev = hash;
  };

  // level 1: a global constant, then the token and its twin originated (ledger big map 0 with ALICE → 10)
  const b1 = emptyBlockData();
  b1.operations.push(
    op({ hash: OPG1, counter: 1, kind: 'register_global_constant', source: ALICE, fee: 400 }),
    op({
      hash: OPG1,
      counter: 2,
      content_index: 1,
      kind: 'origination',
      source: ALICE,
      destination: TOKEN,
      fee: 1000,
      burned: 500,
      amount: '5000000',
      storage: { prim: 'Pair', args: [{ int: '0' }, { int: '10' }] },
      allocated_destination_contract: true,
    }),
    op({
      hash: OPG1,
      counter: 3,
      content_index: 2,
      kind: 'origination',
      source: ALICE,
      destination: TWIN,
      fee: 1000,
      storage: { prim: 'Pair', args: [{ int: '1' }, { int: '0' }] },
    }),
  );
  b1.globalConstants.push({ op: 0, address: CONSTANT, value: { prim: 'nat' } });
  b1.scripts.push({
    hash: SCRIPT_HASH,
    code: CODE,
    parameter: PARAMETER,
    storage: STORAGE,
    views: [VIEW],
    entrypoints: ['transfer', 'remove'],
    fail_strings: ['NO'],
    annotations: ['%transfer', '%remove', '%ledger', '%total'],
    hardcoded: [],
    constants: [CONSTANT],
    tags: 0,
  });
  b1.contracts.push(
    { op: 1, address: TOKEN, manager: ALICE, delegate: null, script_hash: SCRIPT_HASH, tags: 2 },
    { op: 2, address: TWIN, manager: ALICE, delegate: null, script_hash: SCRIPT_HASH, tags: 2 },
  );
  b1.bigMaps.push(
    {
      op: 1,
      ptr: 0,
      contract: TOKEN,
      key_type: { prim: 'address' },
      value_type: { prim: 'nat' },
      name: 'ledger',
    },
    {
      op: 2,
      ptr: 1,
      contract: TWIN,
      key_type: { prim: 'address' },
      value_type: { prim: 'nat' },
      name: 'ledger',
    },
  );
  b1.bigMapActions.push(
    { op: 1, action: 'alloc', source_ptr: 0, destination_ptr: null, address: TOKEN },
    { op: 2, action: 'alloc', source_ptr: 1, destination_ptr: null, address: TWIN },
  );
  b1.bigMapDiffs.push({
    op: 1,
    ptr: 0,
    contract: TOKEN,
    key: { string: ALICE },
    key_hash: keyHash(ALICE),
    value: { int: '10' },
  });
  b1.accounts.push(acct(ALICE, 'account', 3), acct(TOKEN, 'contract'), acct(TWIN, 'contract'));
  b1.searchDocuments.push(
    { kind: 'contract', key: TOKEN, title: TOKEN, body: 'transfer remove ledger total NO' },
    { kind: 'global_constant', key: CONSTANT, title: CONSTANT, body: '' },
  );
  await block(1, b1, true);

  // level 2: ALICE → TOKEN transfer (BOB gets 3) with an internal event and a ticket update; a rollup
  const b2 = emptyBlockData();
  b2.operations.push(
    op({
      hash: OPG2,
      counter: 4,
      kind: 'transaction',
      source: ALICE,
      destination: TOKEN,
      fee: 700,
      amount: '1000',
      entrypoint: 'transfer',
      consumed_gas: 2054659,
      gas_limit: 2155,
      parameters: { entrypoint: 'transfer', value: { prim: 'Pair', args: [{ string: BOB }, { int: '3' }] } },
      storage: { prim: 'Pair', args: [{ int: '0' }, { int: '13' }] },
      big_map_diffs_count: 2,
      ticket_updates_count: 1,
    }),
    op({
      hash: OPG2,
      counter: 4,
      internal: true,
      nonce: 0,
      kind: 'event',
      source: TOKEN,
      tag: 'moved',
      payload_type: { prim: 'nat' },
      payload: { int: '3' },
    }),
    op({
      hash: OPG2,
      counter: 4,
      internal: true,
      nonce: 1,
      kind: 'transaction',
      source: TOKEN,
      destination: BOB,
      amount: '400',
    }),
    op({ hash: OPG2, counter: 5, content_index: 1, kind: 'smart_rollup_originate', source: BOB, fee: 300 }),
  );
  b2.bigMapActions.push({ op: 0, action: 'update', source_ptr: 0, destination_ptr: null, address: TOKEN });
  b2.bigMapDiffs.push(
    { op: 0, ptr: 0, contract: TOKEN, key: { string: ALICE }, key_hash: keyHash(ALICE), value: { int: '7' } },
    { op: 0, ptr: 0, contract: TOKEN, key: { string: BOB }, key_hash: keyHash(BOB), value: { int: '3' } },
  );
  b2.tickets.push({
    hash: 'ticket1',
    ticketer: TOKEN,
    content_type: { prim: 'string' },
    content: { string: 'gold' },
  });
  b2.ticketUpdates.push({ op: 0, ticket_hash: 'ticket1', account: BOB, amount: '5' });
  b2.smartRollups.push({
    op: 3,
    address: ROLLUP,
    size: 42,
    genesis_commitment_hash: 'src1genesis',
    pvm_kind: 'wasm_2_0_0',
    kernel: '0061736d',
    type: { prim: 'bytes' },
  });
  b2.accounts.push(
    acct(ALICE, 'account'),
    acct(TOKEN, 'contract', 2, { events_count: 1 }),
    acct(BOB, 'account', 2, { ticket_updates_count: 1 }),
    acct(ROLLUP, 'smart_rollup'),
  );
  await block(2, b2);

  // level 3: a rejected call (FAILWITH "NO" at node 7 of the script)
  const b3 = emptyBlockData();
  b3.operations.push(
    op({
      hash: OPG3,
      counter: 6,
      kind: 'transaction',
      status: 'failed',
      source: BOB,
      destination: TOKEN,
      fee: 500,
      entrypoint: 'transfer',
      parameters: {
        entrypoint: 'transfer',
        value: { prim: 'Pair', args: [{ string: ALICE }, { int: '1' }] },
      },
      errors: [
        {
          kind: 'temporary',
          id: 'proto.019-PtParisB.michelson_v1.script_rejected',
          location: 19,
          with: { string: 'NO' },
        },
        { kind: 'temporary', id: 'proto.019-PtParisB.michelson_v1.runtime_error', contract_handle: TOKEN },
      ],
    }),
  );
  b3.accounts.push(acct(BOB, 'account'), acct(TOKEN, 'contract'));
  await block(3, b3);

  // level 4: BOB's key removed from the ledger
  const b4 = emptyBlockData();
  b4.operations.push(
    op({
      hash: OPG4,
      counter: 7,
      kind: 'transaction',
      source: ALICE,
      destination: TOKEN,
      fee: 600,
      entrypoint: 'remove',
      parameters: { entrypoint: 'remove', value: { string: BOB } },
      storage: { prim: 'Pair', args: [{ int: '0' }, { int: '13' }] },
      big_map_diffs_count: 1,
    }),
  );
  b4.bigMapActions.push({ op: 0, action: 'update', source_ptr: 0, destination_ptr: null, address: TOKEN });
  b4.bigMapDiffs.push({
    op: 0,
    ptr: 0,
    contract: TOKEN,
    key: { string: BOB },
    key_hash: keyHash(BOB),
    value: null,
  });
  b4.accounts.push(acct(ALICE, 'account'), acct(TOKEN, 'contract'));
  await block(4, b4);
}
