/**
 * The debugger's answer (issue 20): one contract call recorded step by step (POST
 * /v1/contract/{network}/{address}/entrypoints/debug).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Micheline, ViewKind } from './explorer';
import { FlowGraph } from './flow';
import { AtLevel, StateLevel, WhatIfCall, WhatIfOverrides } from './whatif';

const Int = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const Ints = Type.Array(Int);

const Mutez = Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }));
const Addr = Type.Optional(Type.String({ maxLength: 64 }));

/** What to debug: an entrypoint with its form (a simulation) or its Micheline parameter (an internal call). */
export const DebugRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, description: 'entrypoint' }),
    data: Type.Optional(
      Type.Unknown({ description: 'the entrypoint form (as …/entrypoints/trace takes it)' }),
    ),
    value: Type.Optional(
      Type.Unsafe<Micheline>(
        Type.Unknown({ description: 'or the parameter of the entrypoint as Micheline (an internal call)' }),
      ),
    ),
    amount: Mutez,
    gas_limit: Mutez,
    storage_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'bytes of paid storage the call may use: the call then runs with its internal operations and a call ' +
          'that needs more fails with `failure.kind` storage_exhausted (`failure.storage` says the limit, the use ' +
          'and which contracts grew)',
      }),
    ),
    source: Addr,
    sender: Addr,
    overrides: Type.Optional(WhatIfOverrides),
    before: Type.Optional(
      Type.Array(WhatIfCall, {
        maxItems: 4,
        description: 'a what-if bundle’s calls before the debugged one: run first (not recorded), in order',
      }),
    ),
    at_level: Type.Optional(AtLevel),
  },
  { title: 'DebugRequest' },
);
export type DebugRequest = Static<typeof DebugRequest>;

/** An undeployed script's call to debug (a deploy's 'Debug'): the script with its storage and parameter. */
export const ScriptDebugRequest = Type.Object(
  {
    script: Type.Array(Type.Unsafe<Micheline>(Type.Unknown()), {
      minItems: 3,
      maxItems: 1000,
      description: 'the script as Micheline: its parameter, storage and code sections (and views)',
    }),
    storage: Type.Unsafe<Micheline>(Type.Unknown({ description: 'the initial storage, Micheline' })),
    parameter: Type.Unsafe<Micheline>(
      Type.Unknown({ description: 'the parameter of the entrypoint, Micheline' }),
    ),
    entrypoint: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'default: default' })),
    amount: Mutez,
    balance: Mutez,
    gas_limit: Mutez,
    source: Addr,
    sender: Addr,
    at_level: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        description:
          'run at this indexed block’s level and time (and the chain’s state then: contracts it reads) instead ' +
          'of the indexed head: a deploy page’s link rerun as it was; 400 above the head or for a block not indexed',
      }),
    ),
  },
  { title: 'ScriptDebugRequest' },
);
export type ScriptDebugRequest = Static<typeof ScriptDebugRequest>;

export const CompactTrace = Type.Object(
  {
    steps: Type.Integer({ minimum: 0, description: 'number of recorded steps' }),
    loc: Type.Array(Int, {
      description: "each step's instruction location (pre-order node index in `code`)",
    }),
    gas: Type.Array(Int, { description: 'milligas left after each step' }),
    gas_start: Type.Integer({ description: 'milligas left when the first instruction started' }),
    types: Type.Array(Micheline, { description: 'distinct stack item types' }),
    items: Type.Array(Type.Tuple([Int, Micheline]), {
      description: 'distinct stack items: [index in types, value as Readable Micheline]',
    }),
    pop: Type.Array(Int, { description: 'per step: items removed from the top of the previous stack' }),
    push: Type.Array(Ints, { description: 'per step: items (indexes in items) then pushed, bottom first' }),
    checkpoints: Type.Array(Ints, { description: 'full stacks (bottom first) after steps 0, 512, 1024, …' }),
    elided: Type.Array(Int, { description: 'items too large to record (value written {"prim":"…"})' }),
    truncated: Type.Boolean({ description: 'steps past the recording bound were not recorded' }),
  },
  { title: 'CompactTrace' },
);
export type CompactTrace = Static<typeof CompactTrace>;

export const DebugEmitted = Type.Object(
  {
    kind: Type.String(),
    destination: Type.Optional(Type.String()),
    amount: Type.Optional(Type.String()),
    entrypoint: Type.Optional(Type.String()),
    parameter: Type.Optional(Micheline),
    tag: Type.Optional(Type.String()),
    payload: Type.Optional(Micheline),
    payload_type: Type.Optional(Micheline),
  },
  { title: 'DebugEmitted' },
);
export type DebugEmitted = Static<typeof DebugEmitted>;

export const GasProfile = Type.Object(
  {
    total_milligas: Type.Integer({
      description: "the operation's consumed milligas as the node's receipt counts it (fixed cost included)",
    }),
    fixed_milligas: Type.Integer({
      description: 'the fixed cost of the operation (call and manager or internal)',
    }),
    lines: Type.Array(
      Type.Object({
        row: Type.Integer({ minimum: 0, description: '0-based row in `code`' }),
        milligas: Int,
        steps: Type.Integer({ minimum: 0 }),
      }),
      { description: 'gas of the steps on each line that ran (a failed run: its failing line has the rest)' },
    ),
    frames: Type.Array(
      Type.Object({
        parent: Type.Integer({ minimum: -1, description: 'index of the enclosing frame, -1 for the root' }),
        label: Type.String(),
        kind: Type.Union([
          Type.Literal('operation'),
          Type.Literal('overhead'),
          Type.Literal('section'),
          Type.Literal('block'),
        ]),
        location: Type.Optional(Int),
        row: Type.Optional(Type.Integer({ minimum: 0 })),
        milligas: Int,
        self_milligas: Int,
        steps: Type.Integer({ minimum: 0 }),
      }),
      {
        description:
          'the call tree of code blocks that ran (root: the operation; then its fixed cost, parsing, the code ' +
          'section or view, each branch/body of a block instruction, named after the entrypoint when it ' +
          'dispatches the parameter), parents first',
      },
    ),
  },
  { title: 'GasProfile' },
);
export type GasProfile = Static<typeof GasProfile>;

export const DebugResult = Type.Object(
  {
    code: Type.String({ description: 'the script, formatted as the code tab shows it' }),
    spans: Type.Record(Type.String(), Type.Tuple([Int, Int, Int]), {
      description: 'location → [row, first column, end column] (0-based) in `code`',
    }),
    blocks: Type.Record(Type.String(), Int, {
      description:
        'block instructions (IF…, DIP, LOOP, ITER, MAP, LAMBDA…): location → location of their last node',
    }),
    enclosing: Type.Record(Type.String(), Int, {
      description: 'traced location → location of the innermost block instruction around it',
    }),
    trace: CompactTrace,
    profile: GasProfile,
    status: Type.Union([Type.Literal('applied'), Type.Literal('failed')]),
    consumed_milligas: Int,
    gas_limit: Int,
    storage: Type.Optional(Micheline),
    result: Type.Optional(
      Type.Unsafe<Micheline>(Type.Unknown({ description: 'a debugged view: the value it returned' })),
    ),
    view: Type.Optional(
      Type.Object(
        { kind: Type.Union([Type.Literal('on-chain'), Type.Literal('off-chain')]), name: Type.String() },
        { description: 'a debugged view (…/views/debug): which one' },
      ),
    ),
    state: Type.Optional(StateLevel),
    cut: Type.Optional(
      Type.Object(
        {
          steps: Type.Integer({ minimum: 0, description: 'steps run before the cut' }),
          ms: Type.Integer({ minimum: 0, description: 'wall-clock ms of the recorded run' }),
          message: Type.String({ description: 'what the debugger shows' }),
        },
        {
          description:
            'the recorded run went past its budget (steps or time) and was stopped: the trace and the profile ' +
            'cover the steps before; status, gas, storage, operations and failure are the whole call (run unrecorded)',
        },
      ),
    ),
    operations: Type.Array(DebugEmitted),
    errors: Type.Optional(Type.Array(Type.Unknown())),
    failure: Type.Optional(
      Type.Object({
        kind: Type.String(),
        message: Type.String(),
        location: Type.Optional(Int),
        with: Type.Optional(Micheline),
        storage: Type.Optional(
          Type.Object(
            {
              limit: Type.Integer(),
              used: Type.Integer({ description: 'bytes the call pays for' }),
              contracts: Type.Array(
                Type.Object({ address: Type.String(), paid_storage_size_diff: Type.Integer() }),
                { description: 'the contracts whose storage grew' },
              ),
              allocations: Type.Integer({ description: 'originations and new accounts (bytes each)' }),
            },
            { description: 'storage exhaustion (kind storage_exhausted)' },
          ),
        ),
        burn: Type.Optional(
          Type.Object(
            { payer: Type.String(), balance: Type.String(), burn: Type.String() },
            { description: 'the payer cannot pay the storage burn (kind cannot_pay_storage_fee), mutez' },
          ),
        ),
        meaning: Type.Optional(
          Type.Object(
            {
              text: Type.String(),
              languages: Type.Optional(Type.Array(Type.String())),
              view: Type.Optional(
                Type.String({ description: 'the off-chain view of the metadata that computed it' }),
              ),
            },
            {
              description:
                "the FAILWITH value's meaning from the contract's TZIP-16 `errors`: a static entry, or one that " +
                'names an off-chain view (run with the value, bounded in gas and time)',
            },
          ),
        ),
      }),
    ),
    replay: Type.Optional(
      Type.Object(
        {
          recorded: Type.Object({
            status: Type.String(),
            consumed_milligas: Int,
            storage: Type.Optional(Micheline),
          }),
          equal: Type.Boolean(),
          differences: Type.Array(Type.String()),
        },
        { description: 'a replayed indexed call: its recorded result and what the replay does differently' },
      ),
    ),
    /**
     * The recorded call's operation flow graph (issue 37): the call (its sender to the contract) then the internal
     * operations it emitted, with status `emitted` (the debugger does not run them); token movements from
     * FA1.2/FA2 transfer parameters, the call's own checked against its big-map diff; no aliases, tags or token
     * metadata. Absent for a view.
     */
    flow: Type.Optional(FlowGraph),
    inputs: Type.Object({
      entrypoint: Type.String(),
      parameter: Micheline,
      storage: Micheline,
      amount: Type.String(),
      balance: Type.String(),
      sender: Type.Optional(Type.String()),
      source: Type.Optional(Type.String()),
      self: Type.String(),
      now: Type.String(),
      level: Type.String(),
      chain_id: Type.String(),
    }),
  },
  { title: 'DebugResult' },
);
export type DebugResult = Static<typeof DebugResult>;

/** A view to run or debug (…/views/execute, …/views/debug): on-chain by name, or off-chain with its implementation. */
export const ViewRequest = Type.Object(
  {
    kind: ViewKind,
    data: Type.Unknown({ description: 'the view input form' }),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    implementation: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
    amount: Mutez,
    gas_limit: Mutez,
    source: Addr,
    sender: Addr,
    view: Type.Optional(Type.Unknown({ description: 'an off-chain view: its TZIP-16 implementation' })),
    at_level: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2147483647,
        description:
          "run the view against the state at the end of this block (the contract's storage, big maps and balance, " +
          "the block's level and time) instead of the indexed head (a shared view rerun as it was); 400 above the " +
          "head, before the contract's origination, or when the block is not indexed. …/views/execute answers " +
          'where it ran in its headers x-simulated-level, x-head-level and x-changed-since; …/views/debug in `state`',
      }),
    ),
  },
  { title: 'ViewRequest' },
);
export type ViewRequest = Static<typeof ViewRequest>;
