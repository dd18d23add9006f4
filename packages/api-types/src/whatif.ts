/**
 * What-if simulations (issue 20, capability 5): POST /v1/contract/{network}/{address}/entrypoints/what_if runs a
 * bundle of up to 5 calls of one contract in order, in our interpreter, against a state the caller may override
 * (storage, balance, now, level, source, sender, amount, chain id, big-map entries); the debug route takes the
 * same overrides. The answer gives each call's result and the diff of the whole bundle.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Micheline, Miguel, OperationError } from './explorer';
import { KeyChangeCounts, KeyChangeKind } from './time-travel';
import { FlowGraph } from './flow';

const Int = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
/** Mutez as a decimal string (up to int64) or a safe integer. */
export const MutezInput = Type.Union([
  Type.String({ pattern: '^[0-9]{1,19}$' }),
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
]);
const Address = Type.String({ maxLength: 64 });

/**
 * A run pinned to a past level (a shared simulation's): the contract's storage, big maps and balance, and the
 * block's `level` and `now`, as they were at the end of that block. Absent: the indexed head.
 */
export const AtLevel = Type.Integer({
  minimum: 0,
  maximum: 2147483647,
  description:
    "run against the state at the end of this block (storage, big maps, balance, the block's level and time) " +
    "instead of the indexed head; 400 above the head or before the contract's origination",
});

/** Where a run's state came from: the level it ran at, the head then, and whether the contract changed since. */
export const StateLevel = Type.Object(
  {
    level: Type.Integer({ description: 'the level whose state the run read (the head, or `at_level`)' }),
    head_level: Type.Integer({ description: 'the indexed head when it ran' }),
    changed_since: Type.Boolean({
      description: 'an applied operation reached the contract after `level` (its state at the head differs)',
    }),
  },
  { title: 'StateLevel' },
);
export type StateLevel = Static<typeof StateLevel>;

export const WhatIfBigMapEntry = Type.Object(
  {
    ptr: Type.Optional(
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the big map id' }),
    ),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "or the big map's field name in the storage type (its annotation, e.g. `ledger`)",
      }),
    ),
    key: Type.Unknown({ description: 'the key as Micheline (readable or optimized)' }),
    value: Type.Union([Type.Unknown({ description: 'the value as Micheline' }), Type.Null()], {
      description: 'null removes the key',
    }),
  },
  { title: 'WhatIfBigMapEntry', additionalProperties: false },
);
export type WhatIfBigMapEntry = Static<typeof WhatIfBigMapEntry>;

export const WhatIfOverrides = Type.Object(
  {
    storage: Type.Optional(
      Type.Unknown({ description: "the contract's storage as Micheline (typechecked against its type)" }),
    ),
    balance: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,19}$', description: 'the contract balance, mutez' }),
    ),
    now: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 40, description: 'ISO 8601 time, or seconds since the epoch' }),
        Type.Integer({ minimum: 0, maximum: 253402300799 }),
      ]),
    ),
    level: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
    source: Type.Optional(Address),
    sender: Type.Optional(Address),
    amount: Type.Optional(MutezInput),
    chain_id: Type.Optional(Type.String({ maxLength: 32, description: 'base58 `Net…`' })),
    big_maps: Type.Optional(Type.Array(WhatIfBigMapEntry, { maxItems: 100 })),
  },
  {
    title: 'WhatIfOverrides',
    additionalProperties: false,
    description:
      'What the calls run against instead of the indexed head: each absent field keeps its value at the head ' +
      '(source, sender and amount are defaults that a call’s own fields override)',
  },
);
export type WhatIfOverrides = Static<typeof WhatIfOverrides>;

export const WhatIfCall = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'entrypoint' }),
    data: Type.Optional(
      Type.Unknown({ description: 'the entrypoint form (as …/entrypoints/trace takes it)' }),
    ),
    value: Type.Optional(Type.Unknown({ description: 'or the parameter as Micheline' })),
    amount: Type.Optional(MutezInput),
    source: Type.Optional(Address),
    sender: Type.Optional(Address),
    gas_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    storage_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'bytes of paid storage the call may use (new storage, originations and new accounts); with it the ' +
          "source's balance must also cover the burn; absent: neither is checked",
      }),
    ),
  },
  { title: 'WhatIfCall', additionalProperties: false },
);
export type WhatIfCall = Static<typeof WhatIfCall>;

export const WhatIfRequest = Type.Object(
  {
    calls: Type.Array(WhatIfCall, { minItems: 1, maxItems: 5 }),
    overrides: Type.Optional(WhatIfOverrides),
    at_level: Type.Optional(AtLevel),
  },
  { title: 'WhatIfRequest', additionalProperties: false },
);
export type WhatIfRequest = Static<typeof WhatIfRequest>;

export const BalanceUpdate = Type.Object(
  { address: Type.String(), change: Type.String({ description: 'mutez, signed' }) },
  { title: 'WhatIfBalanceUpdate' },
);

export const WhatIfOperation = Type.Object(
  {
    kind: Type.String(),
    source: Type.Optional(Type.String({ description: 'the contract that emitted it' })),
    status: Type.Optional(
      Type.Union(
        [
          Type.Literal('applied'),
          Type.Literal('failed'),
          Type.Literal('backtracked'),
          Type.Literal('skipped'),
        ],
        { description: 'as in a receipt: after a failure the operations run before it are backtracked' },
      ),
    ),
    depth: Type.Optional(
      Type.Integer({ description: '1: emitted by the called contract, 2: by what that one called, …' }),
    ),
    consumed_milligas: Type.Optional(Int),
    originated_contract: Type.Optional(Type.String()),
    storage_size: Type.Optional(Int),
    paid_storage_size_diff: Type.Optional(Int),
    allocated_destination_contract: Type.Optional(Type.Boolean()),
    delegate: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    destination: Type.Optional(Type.String()),
    amount: Type.Optional(Type.String({ description: 'mutez' })),
    entrypoint: Type.Optional(Type.String()),
    parameter: Type.Optional(Micheline),
    parameters: Type.Optional(
      Type.Array(Miguel, { description: "the parameter decoded with the destination's type" }),
    ),
    tag: Type.Optional(Type.String()),
    payload: Type.Optional(Type.Array(Miguel, { description: 'an event’s payload, decoded' })),
  },
  { title: 'WhatIfOperation' },
);

const MutezText = Type.String({ description: 'mutez' });
export const WhatIfFees = Type.Object(
  {
    consumed_milligas: Int,
    consumed_gas: Type.Integer(),
    paid_storage_size_diff: Type.Integer({ description: 'bytes of new storage paid for' }),
    storage_burn: MutezText,
    allocations: Type.Integer({ description: 'originations and new implicit accounts' }),
    allocation_burn: Type.String({ description: 'mutez: allocations × origination_size × cost_per_byte' }),
    burn: MutezText,
    gas_limit: Type.Optional(Type.Integer({ description: "the gas limit Taquito's estimate sets" })),
    storage_limit: Type.Optional(Type.Integer({ description: "the storage limit Taquito's estimate sets" })),
    op_size: Type.Optional(Type.Integer({ description: 'bytes of the signed operation' })),
    fee: Type.String({ description: "mutez: the fee Taquito's estimate proposes (the wallet's)" }),
  },
  { title: 'WhatIfFees' },
);

export const WhatIfContractState = Type.Object(
  {
    address: Type.String(),
    originated: Type.Boolean({ description: 'originated by the bundle' }),
    storage_before: Type.Union([Micheline, Type.Null()]),
    storage_after: Micheline,
    storage_diff: Type.Union([Miguel, Type.Null()]),
    storage_size: Type.Optional(Int),
    paid_storage_size_diff: Type.Optional(Int),
  },
  { title: 'WhatIfContractState' },
);

export const WhatIfFailure = Type.Object(
  {
    kind: Type.String({ description: 'e.g. script_rejected, gas_exhausted, storage_exhausted' }),
    message: Type.String(),
    with: Type.Optional(Micheline),
    with_text: Type.Optional(Type.String()),
    operation: Type.Optional(
      Type.Integer({ description: 'the index in `operations` of the internal operation that failed' }),
    ),
    storage: Type.Optional(
      Type.Object({
        limit: Type.Integer(),
        used: Type.Integer({ description: 'bytes the call pays for' }),
        contracts: Type.Array(
          Type.Object({ address: Type.String(), paid_storage_size_diff: Type.Integer() }),
          { description: 'the contracts whose storage grew' },
        ),
        allocations: Type.Integer(),
      }),
    ),
    burn: Type.Optional(Type.Object({ payer: Type.String(), balance: MutezText, burn: MutezText })),
  },
  { title: 'WhatIfFailure' },
);

export const WhatIfCallResult = Type.Object(
  {
    entrypoint: Type.String(),
    status: Type.Union(
      [Type.Literal('applied'), Type.Literal('failed'), Type.Literal('backtracked'), Type.Literal('skipped')],
      {
        description:
          'as a batch’s receipt: after a failed call the calls before it are backtracked (their effect is ' +
          'still shown) and those after it are skipped',
      },
    ),
    consumed_gas: Type.Integer({ description: 'gas units (rounded up) of the whole call' }),
    consumed_milligas: Type.Integer({
      description: 'as the node counts it: the manager operation, each call and script, internal operations',
    }),
    script_milligas: Type.Optional(Type.Integer({ description: "the called contract's script run alone" })),
    fees: Type.Optional(WhatIfFees),
    contracts: Type.Optional(
      Type.Array(WhatIfContractState, { description: 'every contract the call ran or originated' }),
    ),
    parameters: Type.Optional(Type.Array(Miguel)),
    storage: Type.Optional(Micheline),
    storage_diff: Type.Optional(Type.Union([Miguel, Type.Null()])),
    errors: Type.Optional(Type.Array(OperationError)),
    failure: Type.Optional(WhatIfFailure),
    operations: Type.Array(WhatIfOperation, {
      description: 'internal operations, in the order they ran (events included), with their status',
    }),
    events: Type.Array(WhatIfOperation),
    balance_updates: Type.Array(BalanceUpdate),
  },
  { title: 'WhatIfCallResult' },
);
export type WhatIfCallResult = Static<typeof WhatIfCallResult>;

export const WhatIfBigMapChange = Type.Object(
  {
    ptr: Type.Integer({
      description:
        "the big map id (negative: a new big map the bundle allocated, the run's temporary id, which the " +
        'chain never gives: `name` says its field)',
    }),
    name: Type.Union([Type.String(), Type.Null()]),
    contract: Type.Optional(Type.String({ description: 'the contract whose run wrote it' })),
    counts: KeyChangeCounts,
    items: Type.Array(
      Type.Object({
        key_hash: Type.String(),
        key: Type.Union([Miguel, Type.Null()]),
        key_string: Type.String(),
        change: KeyChangeKind,
        value: Type.Union([Miguel, Type.Null()]),
      }),
      { description: 'the first 100 changed keys' },
    ),
  },
  { title: 'WhatIfBigMapChange' },
);

export const WhatIfResult = Type.Object(
  {
    status: Type.Union([Type.Literal('applied'), Type.Literal('failed')]),
    calls: Type.Array(WhatIfCallResult),
    storage_before: Micheline,
    storage_after: Micheline,
    storage_diff: Type.Union([Miguel, Type.Null()], {
      description:
        'the storage before the first call against after the last applied one (big maps as ids; a big map the ' +
        'bundle allocated as a created big map with its keys)',
    }),
    contracts: Type.Optional(
      Type.Array(WhatIfContractState, {
        description: 'the called contract and every other contract whose storage the bundle changed',
      }),
    ),
    big_maps: Type.Array(WhatIfBigMapChange),
    totals: Type.Optional(WhatIfFees),
    cost_per_byte: Type.Optional(MutezText),
    balance_changes: Type.Array(
      Type.Object({
        address: Type.String(),
        before: Type.Optional(Type.String()),
        after: Type.Optional(Type.String()),
        change: Type.String({ description: 'mutez, signed' }),
      }),
    ),
    state: Type.Optional(StateLevel),
    flow: Type.Optional(FlowGraph),
    inputs: Type.Object({
      balance: Type.String(),
      now: Type.String(),
      level: Type.String(),
      chain_id: Type.String(),
      source: Type.Optional(Type.String()),
      sender: Type.Optional(Type.String()),
      overridden: Type.Array(Type.String(), { description: 'the fields the overrides set' }),
    }),
  },
  { title: 'WhatIfResult' },
);
export type WhatIfResult = Static<typeof WhatIfResult>;
