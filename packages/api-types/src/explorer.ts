/**
 * Shapes of the explorer routes (reference bcd-api §3.0): operations, contracts, accounts, big maps,
 * tickets, global constants, smart rollups. `?` fields of the reference (Go `omitempty`) are Optional and
 * absent when empty or zero.
 *
 * Over ~400 lines because it is one listing: the schemas of the reference's explorer section, in its order,
 * each next to the shapes it nests (splitting them would scatter the one table a client reads against §3.0).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common';
/*
 * The Micheline core's types are michelson's own (one declaration; `import type`, so api-types still loads
 * nothing internal at run time): the schemas below stay open, their static types are what the server writes
 * with michelson.
 */
import type {
  DiffType,
  FormModel as MichelsonFormModel,
  JsonSchema,
  Micheline as MichelineCore,
  MichelinePrim,
  MiguelNode,
  Typedef,
} from '@michelscope/michelson';

/** How a node of a storage or big-map diff changed (michelson's `DiffType`). */
export type MiguelDiffType = DiffType;
export type { MiguelNode };

/**
 * The schema stays open (any JSON, serialised as it is) while the static type says what the API writes: the
 * server builds these trees with michelson's `toMiguel` only.
 */
export const Miguel = Type.Unsafe<MiguelNode>(
  Type.Unknown({ description: 'Miguel node (decoded Michelson value tree)' }),
);
export type { MichelinePrim };
/** Micheline JSON as the node RPC writes it: michelson's `Micheline` (the type and, below, its open schema). */
export type Micheline = MichelineCore;
/**
 * Raw Micheline JSON. The schema stays open (any JSON, serialised as it is) while the static type says what the
 * API writes: values the server read from the chain or built with michelson's core.
 */
export const Micheline = Type.Unsafe<Micheline>(Type.Unknown({ description: 'Micheline JSON' }));
export type { Typedef };
/** Type documentation entries (§5.1); the schema stays open, the static type says what the API writes. */
export const TypedefList = Type.Unsafe<Typedef[]>(Type.Array(Type.Unknown(), { description: 'Typedef[]' }));
export type { JsonSchema };
/** JSON schema of a form (§5.2), or null; the schema stays open, the static type says what the API writes. */
export const FormSchema = Type.Unsafe<JsonSchema | null>(
  Type.Unknown({ description: 'JSON schema of the form, or null' }),
);
/** A form's data (michelson's `FormModel`): the default model of an entrypoint, a view or the storage. */
export const FormModel = Type.Unsafe<MichelsonFormModel>(
  Type.Unknown({ description: 'form data of the schema' }),
);

const optInt = (description?: string) => Type.Optional(Type.Integer(description ? { description } : {}));
const optStr = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));

export const OperationError = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    title: optStr(),
    descr: optStr(),
    error_message: optStr('free text some nodes add to the error'),
    location: optInt(),
    with: optStr('FAILWITH value as Michelson text'),
    balance: optStr(),
    amount: optStr(),
    wrong_expression: optStr(),
    expected_form: optStr(),
  },
  { title: 'OperationError' },
);
export type OperationError = Static<typeof OperationError>;

/**
 * What the node reported for one simulated operation (`result` of trace/run_operation answers, the shape BCD's
 * `OperationResult` had): the original frontend sums `result.consumed_gas` into the gas limit it suggests.
 */
export const OperationResult = Type.Object(
  {
    consumed_gas: optInt('gas units (milligas / 1000, rounded up), what a gas limit needs'),
    storage_size: optInt(),
    paid_storage_size_diff: optInt(),
    allocated_destination_contract: Type.Optional(Type.Boolean()),
  },
  { title: 'OperationResult' },
);
export type OperationResult = Static<typeof OperationResult>;

export const Operation = Type.Object(
  {
    id: optInt('row id, for /operation/{network}/{id}/…'),
    level: optInt(),
    fee: optInt(),
    counter: optInt(),
    gas_limit: optInt(),
    storage_limit: optInt(),
    amount: optInt(),
    balance: optInt(),
    burned: optInt(),
    allocated_destination_contract_burned: optInt(),
    content_index: Type.Integer(),
    consumed_gas: optInt('milligas'),
    storage_size: optInt(),
    paid_storage_size_diff: optInt(),
    ticket_updates_count: Type.Integer(),
    big_map_diffs_count: Type.Integer(),
    errors: Type.Optional(Type.Array(OperationError)),
    result: Type.Optional(OperationResult),
    parameters: Type.Optional(Type.Array(Miguel)),
    storage_diff: Type.Optional(Miguel),
    payload: Type.Optional(Type.Array(Miguel)),
    timestamp: Timestamp,
    protocol: Type.String(),
    hash: optStr(),
    network: Type.String(),
    kind: Type.String(),
    source: optStr(),
    destination: optStr(),
    public_key: optStr(),
    manager_pubkey: optStr(),
    delegate: optStr(),
    status: Type.String(),
    entrypoint: optStr(),
    tag: optStr(),
    allocated_destination_contract: Type.Optional(Type.Boolean()),
    internal: Type.Boolean(),
    mempool: Type.Optional(Type.Boolean({ description: 'pending operation (mempool route)' })),
    rawMempool: Type.Optional(Type.Unknown()),
  },
  { title: 'Operation' },
);
export type Operation = Static<typeof Operation>;

export const OPGResponse = Type.Object(
  {
    last_id: Type.Integer(),
    content_index: Type.Integer(),
    counter: Type.Integer(),
    level: Type.Integer(),
    total_cost: Type.Integer(),
    flow: Type.Integer(),
    internals: Type.Integer(),
    hash: Type.String(),
    entrypoint: Type.String(),
    timestamp: Timestamp,
    status: Type.String(),
    kind: Type.String(),
  },
  { title: 'OPGResponse' },
);
export type OPGResponse = Static<typeof OPGResponse>;

const contractFields = {
  id: Type.Integer(),
  network: Type.String(),
  level: Type.Integer(),
  timestamp: Timestamp,
  hash: optStr('sha-256 hex of the script code'),
  tags: Type.Optional(Type.Array(Type.String())),
  hardcoded: Type.Optional(Type.Array(Type.String())),
  fail_strings: Type.Optional(Type.Array(Type.String())),
  annotations: Type.Optional(Type.Array(Type.String())),
  entrypoints: Type.Optional(Type.Array(Type.String())),
  address: Type.String(),
  manager: optStr(),
  delegate: optStr(),
  found_by: optStr(),
  last_action: Type.Optional(Timestamp),
  tx_count: optInt(),
  migrations_count: optInt(),
  slug: optStr(),
  partial: Type.Optional(
    Type.Boolean({
      description:
        "true when the index holds the contract from `indexed_from` on only: it was read from the node when first asked for (its origination and earlier operations are not indexed); `level` and `timestamp` are then that level's",
    }),
  ),
  indexed_from: optInt(
    'with `partial`: the earliest level from which the index holds the whole history of the contract (every block naming it): the level its forward index starts at, lowered as its backfill goes down through older levels',
  ),
  history: Type.Optional(
    Type.Object(
      {
        state: Type.Union(
          [Type.Literal('pending'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')],
          {
            description:
              'failed: the source or the node failed; retried later, the levels not read are a gap',
          },
        ),
        done: Type.Integer({ description: 'levels of the history the backfill has gone through' }),
        total: Type.Union([Type.Integer(), Type.Null()], {
          description:
            'levels from the origination to the one below the forward index (null until the source says where it starts)',
        }),
        message: optStr('why it failed, or which source it fell back from'),
      },
      {
        title: 'HistoryProgress',
        description:
          'the backfill of an address read from the node (issue 32): its operations below the forward index are read from the node block by block and indexed; `partial` stays true until it is done',
      },
    ),
  ),
};
export const Contract = Type.Object(contractFields, { title: 'Contract' });
/**
 * The `partial` marker of a contract's routes whose answer cannot carry it (a list, a holders map in the
 * reference's shape): while the contract's history is not all indexed (read from the node when first asked for,
 * its backfill not done; issue 32), these headers say so, as `partial` and `indexed_from` do on `GET /v1/contract`.
 */
export const PartialHistoryHeaders = {
  'x-partial': Type.Boolean({
    description:
      "present (true) while the contract's history is not all indexed (its backfill runs): the answer holds what was written from x-indexed-from on, a lower bound",
  }),
  'x-indexed-from': Type.Integer({
    description: 'with x-partial: the earliest level from which the contract’s whole history is indexed',
  }),
};

/** `GET /v1/contract/{network}/{address}/tokens/count`. */
export const TokensCount = Type.Object(
  {
    count: Type.Integer(),
    partial: Type.Optional(
      Type.Boolean({
        description:
          "Michelscope extension: true while the contract's history is not all indexed (its backfill runs): `count` is then a lower bound",
      }),
    ),
    indexed_from: optInt(
      'with `partial`: the earliest level from which the contract’s whole history is indexed',
    ),
  },
  { title: 'TokensCount' },
);
export type TokensCount = Static<typeof TokensCount>;

export type Contract = Static<typeof Contract>;
export const ContractWithStats = Type.Object(
  { ...contractFields, same_count: Type.Integer() },
  { title: 'ContractWithStats' },
);
export type ContractWithStats = Static<typeof ContractWithStats>;

export const SameContractsResponse = Type.Object(
  { count: Type.Integer(), contracts: Type.Array(ContractWithStats) },
  { title: 'SameContractsResponse' },
);
export type SameContractsResponse = Static<typeof SameContractsResponse>;

export const AccountInfo = Type.Object(
  {
    address: Type.String(),
    balance: Type.Integer(),
    operations_count: Type.Integer(),
    migrations_count: Type.Integer(),
    events_count: Type.Integer(),
    ticket_updates_count: Type.Integer(),
    last_action: Timestamp,
    account_type: Type.String({ description: 'contract, account, rollup, smart_rollup, ghost, unknown' }),
  },
  { title: 'AccountInfo' },
);
export type AccountInfo = Static<typeof AccountInfo>;

export const RecentlyCalledContract = Type.Object(
  { id: Type.Integer(), address: Type.String(), last_action: Timestamp, operations_count: Type.Integer() },
  { title: 'RecentlyCalledContract' },
);
export type RecentlyCalledContract = Static<typeof RecentlyCalledContract>;

export const Migration = Type.Object(
  {
    level: Type.Integer(),
    timestamp: Timestamp,
    hash: optStr(),
    protocol: Type.String(),
    prev_protocol: Type.String(),
    kind: Type.String(),
  },
  { title: 'Migration' },
);
export type Migration = Static<typeof Migration>;

/** A level at which a contract's storage changed: a version of the storage tab (`?level=`). */
export const StorageLevel = Type.Object(
  {
    level: Type.Integer(),
    timestamp: Timestamp,
  },
  { title: 'StorageLevel' },
);
export type StorageLevel = Static<typeof StorageLevel>;

export const EntrypointSchema = Type.Object(
  {
    name: Type.String(),
    typedef: TypedefList,
    schema: FormSchema,
    default_model: Type.Optional(FormModel),
    big_maps_filled: Type.Optional(
      Type.Array(
        Type.Object({
          ptr: Type.Integer(),
          filled: Type.Integer({ description: 'keys put in the model (at most 100 per big map)' }),
          total: Type.Integer({ description: 'the big map’s active keys' }),
        }),
        {
          description:
            'fill_type current: the big maps of the storage, each filled with its current keys up to a bound',
        },
      ),
    ),
  },
  { title: 'EntrypointSchema' },
);
export type EntrypointSchema = Static<typeof EntrypointSchema>;

/** An on-chain view (the script's `view`s) or a TZIP-16 off-chain view (the contract metadata's). */
export const ViewKind = Type.Union([Type.Literal('on-chain'), Type.Literal('off-chain')], {
  title: 'ViewKind',
});
export type ViewKind = Static<typeof ViewKind>;

export const ViewSchema = Type.Object(
  {
    typedef: TypedefList,
    name: Type.String(),
    implementation: Type.Integer(),
    description: optStr(),
    schema: FormSchema,
    default_model: Type.Optional(FormModel),
    error: optStr(),
    kind: ViewKind,
  },
  { title: 'ViewSchema' },
);
export type ViewSchema = Static<typeof ViewSchema>;

export const ErrorLocation = Type.Object(
  {
    text: Type.String(),
    failed_row: Type.Integer(),
    first_row: Type.Integer(),
    start_col: Type.Integer(),
    end_col: Type.Integer(),
  },
  { title: 'GetErrorLocationResponse' },
);
export type ErrorLocation = Static<typeof ErrorLocation>;

export const Event = Type.Object(
  {
    hash: Type.String(),
    status: Type.String(),
    timestamp: Timestamp,
    level: Type.Integer(),
    tag: Type.String(),
    payload: Type.Optional(Type.Array(Miguel)),
  },
  { title: 'Event' },
);
export type Event = Static<typeof Event>;

export const TicketUpdate = Type.Object(
  {
    id: Type.Integer(),
    level: Type.Integer(),
    timestamp: Timestamp,
    ticket_id: Type.Integer(),
    ticketer: Type.String(),
    address: Type.String(),
    amount: Type.String({ description: 'signed decimal (balance delta)' }),
    operation_hash: Type.String(),
    content_type: TypedefList,
    content: Type.Optional(Miguel),
  },
  { title: 'TicketUpdate' },
);
export type TicketUpdate = Static<typeof TicketUpdate>;

export const Ticket = Type.Object(
  {
    ticketer: Type.String(),
    content_type: TypedefList,
    content: Type.Optional(Miguel),
    updates_count: Type.Integer(),
    first_level: Type.Integer(),
  },
  { title: 'Ticket' },
);
export type Ticket = Static<typeof Ticket>;

export const TicketBalance = Type.Object(
  {
    ticketer: Type.String(),
    amount: Type.String(),
    content_type: TypedefList,
    content: Type.Optional(Miguel),
    ticket_id: Type.Integer(),
  },
  { title: 'TicketBalance' },
);
export type TicketBalance = Static<typeof TicketBalance>;

export const GlobalConstant = Type.Object(
  {
    timestamp: Timestamp,
    level: Type.Integer(),
    address: Type.String(),
    value: Type.Optional(Micheline),
    code: optStr('Michelson text'),
  },
  { title: 'GlobalConstant' },
);
export type GlobalConstant = Static<typeof GlobalConstant>;

export const GlobalConstantItem = Type.Object(
  { timestamp: Timestamp, level: Type.Integer(), address: Type.String(), links_count: Type.Integer() },
  { title: 'GlobalConstantItem' },
);
export type GlobalConstantItem = Static<typeof GlobalConstantItem>;

export const SmartRollup = Type.Object(
  {
    id: Type.Integer(),
    level: Type.Integer(),
    timestamp: Timestamp,
    size: Type.Integer(),
    address: Type.String(),
    genesis_commitment_hash: Type.String(),
    pvm_kind: Type.String(),
    kernel: Type.String({ description: 'hex' }),
    type: TypedefList,
  },
  { title: 'SmartRollup' },
);
export type SmartRollup = Static<typeof SmartRollup>;

export const BigMapInfo = Type.Object(
  {
    address: Type.String(),
    network: Type.String(),
    ptr: Type.Integer(),
    active_keys: Type.Integer(),
    total_keys: Type.Integer(),
    typedef: Type.Optional(TypedefList),
  },
  { title: 'GetBigMapResponse' },
);
export type BigMapInfo = Static<typeof BigMapInfo>;

export const BigMapKeyItem = Type.Object(
  {
    data: Type.Object({
      key: Miguel,
      key_hash: Type.String(),
      key_string: Type.String(),
      level: Type.Integer(),
      timestamp: Timestamp,
      is_active: Type.Boolean(),
    }),
    count: Type.Integer(),
  },
  { title: 'BigMapResponseItem' },
);
export type BigMapKeyItem = Static<typeof BigMapKeyItem>;

export const BigMapKeyHistory = Type.Object(
  {
    key: Type.Optional(Miguel),
    key_hash: Type.String(),
    values: Type.Optional(
      Type.Array(
        Type.Object({
          value: Type.Unsafe<MiguelNode | null>(Type.Unknown()),
          level: Type.Integer(),
          timestamp: Timestamp,
        }),
      ),
    ),
    total: Type.Integer(),
  },
  { title: 'BigMapDiffByKeyResponse' },
);
export type BigMapKeyHistory = Static<typeof BigMapKeyHistory>;

export const BigMapKeyState = Type.Object(
  {
    key: Type.Optional(Miguel),
    key_hash: Type.String(),
    key_string: Type.String(),
    value: Type.Unsafe<MiguelNode | null>(Type.Unknown({ description: 'Miguel node or null' })),
    last_update_level: Type.Integer(),
    last_update_time: Timestamp,
    removed: Type.Boolean(),
    updates_count: Type.Integer(),
  },
  { title: 'BigMapKeyStateResponse' },
);
export type BigMapKeyState = Static<typeof BigMapKeyState>;

export const BigMapHistory = Type.Object(
  {
    address: Type.String(),
    ptr: Type.Integer(),
    items: Type.Optional(
      Type.Array(
        Type.Object({
          action: Type.String(),
          source_ptr: optInt(),
          destination_ptr: optInt(),
          timestamp: Timestamp,
          level: Type.Integer(),
        }),
      ),
    ),
  },
  { title: 'BigMapHistoryResponse' },
);
export type BigMapHistory = Static<typeof BigMapHistory>;
