/**
 * What the indexer parsed from one block, ready to store (`applyBlock`'s 4th argument). Field names are
 * the column names; `op` is the index of the operation (in `operations`) a row belongs to; the writer adds
 * network, level, timestamp, protocol and ids. JSON values are Micheline / node JSON as parsed.
 */

/** The block a write belongs to. */
export interface BlockContext {
  network: string;
  level: number;
  timestamp: Date;
  protocolId: number;
}

export interface OperationRow {
  hash: string | null;
  counter: number | null;
  content_index: number;
  nonce: number | null;
  internal: boolean;
  kind: string;
  status: 'applied' | 'backtracked' | 'failed' | 'skipped';
  source: string | null;
  destination: string | null;
  initiator: string | null;
  delegate: string | null;
  fee: number;
  gas_limit: number;
  storage_limit: number;
  /** Decimal string (mutez, or ticket amount for transfer_ticket). */
  amount: string;
  /** Milligas. */
  consumed_gas: number;
  storage_size: number;
  paid_storage_size_diff: number;
  burned: number;
  allocated_destination_contract_burned: number;
  allocated_destination_contract: boolean;
  entrypoint: string | null;
  tag: string | null;
  tags: number;
  parameters: unknown;
  storage: unknown;
  payload: unknown;
  payload_type: unknown;
  errors: unknown;
  big_map_diffs_count: number;
  ticket_updates_count: number;
  /** Σ fee + Σ burned of the row's operation group (its counted rows); set by the writer (write/group-totals.ts). */
  group_cost?: number;
  /** Internal rows of the row's operation group (its counted rows); set by the writer. */
  group_internals?: number;
}

export interface BigMapRow {
  op: number;
  ptr: number;
  contract: string;
  /** null for a copy of a stored big map: the writer copies the source's types. */
  key_type: unknown;
  value_type: unknown;
  name: string | null;
}

export interface BigMapActionRow {
  op: number;
  action: 'alloc' | 'update' | 'copy' | 'remove';
  source_ptr: number | null;
  destination_ptr: number | null;
  address: string;
}

export interface BigMapDiffRow {
  op: number;
  ptr: number;
  contract: string;
  key: unknown;
  key_hash: string;
  /** null = removal. */
  value: unknown;
  /** The key in readable Michelson (`Pair "tz1…" 1`) when its type is known: what the keys filter matches. */
  key_text?: string | null;
}

export interface ScriptRow {
  hash: string;
  code: unknown;
  parameter: unknown;
  storage: unknown;
  views: unknown[];
  entrypoints: string[];
  fail_strings: string[];
  annotations: string[];
  hardcoded: string[];
  constants: string[];
  tags: number;
}

export interface ContractRow {
  op: number | null;
  address: string;
  manager: string | null;
  delegate: string | null;
  script_hash: string;
  tags: number;
}

export interface GlobalConstantRow {
  op: number;
  address: string;
  value: unknown;
}

export interface TicketRow {
  hash: string;
  ticketer: string;
  content_type: unknown;
  content: unknown;
}

export interface TicketUpdateRow {
  op: number;
  ticket_hash: string;
  account: string;
  /** Signed decimal string. */
  amount: string;
}

export interface SmartRollupRow {
  op: number;
  address: string;
  size: number;
  genesis_commitment_hash: string;
  pvm_kind: string;
  kernel: string;
  type: unknown;
}

export interface MigrationRow {
  op: number | null;
  kind: 'bootstrap' | 'lambda' | 'update';
  contract: string;
  hash: string | null;
}

export interface AccountDelta {
  address: string;
  type: 'account' | 'contract' | 'smart_rollup' | 'rollup' | 'ghost' | 'unknown';
  operations_count: number;
  events_count: number;
  migrations_count: number;
  ticket_updates_count: number;
}

export interface SearchDocumentRow {
  kind: 'contract' | 'global_constant' | 'smart_rollup' | 'token' | 'contract_metadata';
  key: string;
  title: string;
  body: string;
}

/** A contract whose script a protocol migration changed: it points to `script_hash` from then on. */
export interface ContractScriptUpdate {
  address: string;
  script_hash: string;
  /** The contract's tags under the new script. */
  tags: number;
  /** The body of the contract's search document under the new script. */
  search_body: string;
}

/** A big map found in a contract's storage when Babylon gave pre-Babylon big maps real pointers. */
export interface MigrationBigMap {
  contract: string;
  ptr: number;
  key_type: unknown;
  value_type: unknown;
  name: string | null;
}

/**
 * What a protocol migration that changes the script generation does at the first block of the new protocol
 * (§6.12 `update`): stores the new scripts, points the contracts whose script changed to them with one
 * `update` migration each, and (Babylon) moves the pointer -1 rows of pre-Babylon big maps to their pointer.
 */
export interface ScriptMigration {
  /** Hash of the protocol before the change (the `prev_protocol` of the migration rows). */
  prevProtocol: string;
  scripts: ScriptRow[];
  contracts: ContractScriptUpdate[];
  bigMaps: MigrationBigMap[];
  /** contract -> the pointer its pre-Babylon big map (rows with pointer -1) gets. */
  legacyPointers: Array<{ contract: string; ptr: number }>;
}

export interface BlockData {
  operations: OperationRow[];
  accounts: AccountDelta[];
  scripts: ScriptRow[];
  contracts: ContractRow[];
  bigMaps: BigMapRow[];
  bigMapActions: BigMapActionRow[];
  bigMapDiffs: BigMapDiffRow[];
  globalConstants: GlobalConstantRow[];
  tickets: TicketRow[];
  ticketUpdates: TicketUpdateRow[];
  smartRollups: SmartRollupRow[];
  migrations: MigrationRow[];
  searchDocuments: SearchDocumentRow[];
  /** Set on the first block of a protocol that migrates contract scripts. */
  scriptMigration?: ScriptMigration;
}

export const emptyBlockData = (): BlockData => ({
  operations: [],
  accounts: [],
  scripts: [],
  contracts: [],
  bigMaps: [],
  bigMapActions: [],
  bigMapDiffs: [],
  globalConstants: [],
  tickets: [],
  ticketUpdates: [],
  smartRollups: [],
  migrations: [],
  searchDocuments: [],
});
