/**
 * The database's table types, one interface per table (see migrations/). Over ~400 lines because it is one
 * type listing that mirrors the migrations table by table, and the Database interface must name them all.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';

export interface ProtocolsTable {
  id: Generated<number>;
  network: string;
  hash: string;
  start_level: number;
  end_level: number | null;
  chain_id: string;
  cost_per_byte: number;
  hard_gas_limit_per_operation: number;
  hard_storage_limit_per_operation: number;
  time_between_blocks: number;
  constants: ColumnType<
    Record<string, unknown>,
    string | Record<string, unknown>,
    string | Record<string, unknown>
  >;
}

export interface BlocksTable {
  network: string;
  level: number;
  hash: string;
  predecessor: string;
  timestamp: ColumnType<Date, Date | string, Date | string>;
  protocol_id: number;
  chain_id: string;
}

export interface IndexerStateTable {
  network: string;
  level: number;
  hash: string;
  timestamp: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export const STATS_COUNTERS = [
  'contracts_count',
  'smart_rollups_count',
  'global_constants_count',
  'operations_count',
  'events_count',
  'tx_count',
  'originations_count',
  'sr_originations_count',
  'sr_executes_count',
  'register_global_constants_count',
  'transfer_tickets_count',
] as const;
export type StatsCounter = (typeof STATS_COUNTERS)[number];

export type StatsTable = { network: string } & {
  [K in StatsCounter]: ColumnType<number, number | undefined, number>;
};

// ---- chain data (migrations/0010_chain_data.sql; documented in README.md "Tables") ----

type Json = ColumnType<unknown, string, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
type Ts = ColumnType<Date, Date | string, Date | string>;
type Int8 = ColumnType<number, number | undefined, number>;
/** numeric columns come back as decimal strings (amounts can exceed 2^53). */
type Numeric = ColumnType<string, string | number | bigint, string | number | bigint>;

export type AccountType = 'account' | 'contract' | 'smart_rollup' | 'rollup' | 'ghost' | 'unknown';
export type OperationStatus = 'applied' | 'backtracked' | 'failed' | 'skipped';

export interface AccountsTable {
  id: Generated<number>;
  network: string;
  address: string;
  type: AccountType;
  level: number;
  last_action: Ts;
  operations_count: Int8;
  migrations_count: Int8;
  events_count: Int8;
  ticket_updates_count: Int8;
}

export interface OperationsTable {
  id: Generated<number>;
  network: string;
  level: number;
  timestamp: Ts;
  protocol_id: number;
  hash: string | null;
  counter: number | null;
  content_index: number;
  nonce: number | null;
  internal: boolean;
  kind: string;
  status: OperationStatus;
  source: string | null;
  destination: string | null;
  initiator: string | null;
  delegate: string | null;
  fee: Int8;
  gas_limit: Int8;
  storage_limit: Int8;
  amount: Numeric;
  consumed_gas: Int8;
  storage_size: Int8;
  paid_storage_size_diff: Int8;
  burned: Int8;
  allocated_destination_contract_burned: Int8;
  allocated_destination_contract: boolean;
  entrypoint: string | null;
  tag: string | null;
  tags: number;
  parameters: NullableJson;
  storage: NullableJson;
  payload: NullableJson;
  payload_type: NullableJson;
  errors: NullableJson;
  big_map_diffs_count: number;
  ticket_updates_count: number;
  /** The row's operation group's Σ fee + Σ burned (migration 0350); NULL on rows written before it. */
  group_cost: number | null;
  /** The row's operation group's internal rows (migration 0350); NULL on rows written before it. */
  group_internals: number | null;
}

export interface ScriptsTable {
  id: Generated<number>;
  network: string;
  hash: string;
  level: number;
  code: Json;
  parameter: Json;
  storage: Json;
  views: Json;
  entrypoints: string[];
  fail_strings: string[];
  annotations: string[];
  hardcoded: string[];
  constants: string[];
  tags: number;
}

export interface ContractsTable {
  id: Generated<number>;
  network: string;
  address: string;
  level: number;
  timestamp: Ts;
  manager: string | null;
  delegate: string | null;
  script_id: number;
  script_hash: string;
  tags: number;
  operation_id: number | null;
}

export interface GlobalConstantsTable {
  id: Generated<number>;
  network: string;
  address: string;
  value: Json;
  level: number;
  timestamp: Ts;
  operation_id: number | null;
}

export interface ScriptConstantsTable {
  network: string;
  script_id: number;
  constant_address: string;
}

export interface BigMapsTable {
  network: string;
  ptr: number;
  contract: string;
  key_type: Json;
  value_type: Json;
  level: number;
  timestamp: Ts;
  operation_id: number | null;
  /** Field annotation of the big map in the storage type (`ledger`, `metadata`, `token_metadata`…). */
  name: string | null;
}

export interface BigMapActionsTable {
  id: Generated<number>;
  network: string;
  operation_id: number;
  level: number;
  timestamp: Ts;
  action: 'alloc' | 'update' | 'copy' | 'remove';
  source_ptr: number | null;
  destination_ptr: number | null;
  address: string;
}

export interface BigMapDiffsTable {
  id: Generated<number>;
  network: string;
  operation_id: number;
  level: number;
  timestamp: Ts;
  protocol_id: number;
  ptr: number;
  contract: string;
  key: Json;
  key_hash: string;
  value: NullableJson;
}

/** A big map's key counts per contract, kept by big_map_states' own triggers (migration 0380). */
export interface BigMapKeyCountsTable {
  network: string;
  ptr: number;
  contract: string;
  total: number;
  active: number;
}

export interface BigMapStatesTable {
  id: Generated<number>;
  network: string;
  ptr: number;
  key_hash: string;
  contract: string;
  key: Json;
  value: NullableJson;
  removed: boolean;
  last_update_level: number;
  last_update_time: Ts;
  count: Int8;
  /** First level of the key (the row is deleted when that block is reverted). */
  level: number;
  /** Readable key text (`Pair "tz1…" 1`) for the keys filter; null when the key type was unknown. */
  key_text: string | null;
}

export interface TicketsTable {
  id: Generated<number>;
  network: string;
  hash: string;
  ticketer: string;
  content_type: Json;
  content: Json;
  level: number;
  updates_count: Int8;
}

export interface TicketUpdatesTable {
  id: Generated<number>;
  network: string;
  operation_id: number;
  level: number;
  timestamp: Ts;
  ticket_id: number;
  account: string;
  amount: Numeric;
}

export interface TicketBalancesTable {
  network: string;
  ticket_id: number;
  account: string;
  amount: Numeric;
  level: number;
}

export interface SmartRollupsTable {
  id: Generated<number>;
  network: string;
  address: string;
  level: number;
  timestamp: Ts;
  size: Int8;
  genesis_commitment_hash: string;
  pvm_kind: string;
  kernel: string;
  type: NullableJson;
  operation_id: number | null;
}

export interface MigrationsTable {
  id: Generated<number>;
  network: string;
  level: number;
  timestamp: Ts;
  protocol_id: number;
  prev_protocol_id: number | null;
  hash: string | null;
  kind: 'bootstrap' | 'lambda' | 'update';
  contract: string;
  operation_id: number | null;
  /** `update` migrations: the script before (0166); NULL otherwise and for rows written before 0166. */
  prev_script_id: Generated<number | null>;
}

export const DAILY_SERIES = [
  'blocks',
  'operations',
  'contract_calls',
  'originations',
  'new_contracts',
  'events',
  'global_constants',
  'smart_rollups',
  'ticket_updates',
  'fees',
  'burned',
  'consumed_gas',
] as const;
export type DailySeries = (typeof DAILY_SERIES)[number] | 'volume';

export type StatsDailyTable = {
  network: string;
  day: ColumnType<string, string, string>;
  level: number;
  volume: Numeric;
} & {
  [K in (typeof DAILY_SERIES)[number]]: Int8;
};

export interface SearchDocumentsTable {
  id: Generated<number>;
  network: string;
  kind: 'contract' | 'global_constant' | 'smart_rollup' | 'token' | 'contract_metadata';
  key: string;
  level: number;
  title: string;
  body: string;
  tsv: ColumnType<string, never, never>;
}

/** Metadata resolution status: 1 pending, 2 failed (gave up), 3 resolved. */
export type MetadataStatus = 1 | 2 | 3;

export interface ContractMetadataTable {
  network: string;
  address: string;
  level: number;
  link: string | null;
  status: MetadataStatus;
  error: string | null;
  retry_count: number;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  metadata: NullableJson;
  name: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface TokenMetadataTable {
  network: string;
  contract: string;
  token_id: Numeric;
  level: number;
  link: string | null;
  status: MetadataStatus;
  error: string | null;
  retry_count: number;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The on-chain token_info map (key -> hex bytes). */
  token_info: NullableJson;
  metadata: NullableJson;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UndoLogTable {
  id: Generated<number>;
  network: string;
  level: number;
  tbl: string;
  rows: Json;
}

/**
 * Simulations shared by a stored id (migrations/0220_shared_simulations.sql, 0250_…): written by the API only.
 */
export interface SharedSimulationsTable {
  id: string;
  network: string;
  address: string;
  entrypoint: string;
  state: ColumnType<unknown, string, never>;
  /** The state's JSON text, in bytes. */
  bytes: number;
  /** What the database stores for the row (db/shares STORED_BYTES), which the store's bound counts. */
  stored_bytes: number;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  /** Set at creation, renewed by a read (at most every ten minutes): the eviction's order. */
  last_opened_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Stored bytes of new shared simulations per client and clock hour (migrations/0250_…): the API's quota. */
export interface SharedSimulationQuotaTable {
  client: string;
  hour: ColumnType<Date, Date | string, Date | string>;
  bytes: ColumnType<string | number, number, number>;
}

/** Addresses asked for that the index did not hold (migrations/0230_address_requests.sql). */
export interface AddressRequestsTable {
  network: string;
  address: string;
  /** pending | adopted | unknown | failed */
  state: ColumnType<string, string | undefined, string>;
  level: number | null;
  message: string | null;
  requested_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The history of an adopted address being stored (migrations/0270_history_backfills.sql). */
export interface HistoryBackfillsTable {
  network: string;
  address: string;
  /** pending | running | done | failed */
  state: ColumnType<string, string | undefined, string>;
  source: string | null;
  cursor: string | null;
  to_level: number;
  from_level: number | null;
  covered: ColumnType<number, number | undefined, number>;
  blocks: ColumnType<number, number | undefined, number>;
  levels_found: ColumnType<number, number | undefined, number>;
  message: string | null;
  retry_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The lowest level of a network's forward range, fixed at its first backfill (0270). */
export interface HistoryFloorTable {
  network: string;
  floor_level: number;
  slot: ColumnType<number, number | undefined, number>;
}

/** Watch rules (migrations/0310_watch_rules.sql): written by the API only (issue 39). */
export interface WatchRulesTable {
  id: string;
  network: string;
  address: string;
  condition: ColumnType<unknown, string, string>;
  url: string;
  secret: string;
  token_hash: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A webhook delivery of a watch rule (0310): pending | delivered | failed. */
export interface WatchDeliveriesTable {
  id: Generated<string>;
  rule_id: string;
  idempotency_key: string;
  level: number;
  operation_hash: string | null;
  body: ColumnType<unknown, string, string>;
  status: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_status_code: number | null;
  last_error: string | null;
  latency_ms: number | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  delivered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Verified source code (migrations/0320_verified_sources.sql): written by the API only (issue 38). */
export interface VerifiedSourcesTable {
  id: string;
  script_hash: string;
  network: string;
  address: string;
  status: string;
  compiler: string;
  version: string;
  options: ColumnType<unknown, string, string>;
  main: string;
  files: ColumnType<unknown, string, string>;
  contents: ColumnType<unknown, string, string>;
  source_map: ColumnType<unknown, string | null, string | null>;
  difference: ColumnType<unknown, string | null, string | null>;
  compiled: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface Database {
  protocols: ProtocolsTable;
  blocks: BlocksTable;
  indexer_state: IndexerStateTable;
  stats: StatsTable;
  accounts: AccountsTable;
  operations: OperationsTable;
  scripts: ScriptsTable;
  contracts: ContractsTable;
  global_constants: GlobalConstantsTable;
  script_constants: ScriptConstantsTable;
  big_maps: BigMapsTable;
  big_map_actions: BigMapActionsTable;
  big_map_diffs: BigMapDiffsTable;
  big_map_states: BigMapStatesTable;
  big_map_key_counts: BigMapKeyCountsTable;
  tickets: TicketsTable;
  ticket_updates: TicketUpdatesTable;
  ticket_balances: TicketBalancesTable;
  smart_rollups: SmartRollupsTable;
  migrations: MigrationsTable;
  stats_daily: StatsDailyTable;
  search_documents: SearchDocumentsTable;
  contract_metadata: ContractMetadataTable;
  token_metadata: TokenMetadataTable;
  undo_log: UndoLogTable;
  shared_simulations: SharedSimulationsTable;
  shared_simulation_quota: SharedSimulationQuotaTable;
  address_requests: AddressRequestsTable;
  history_backfills: HistoryBackfillsTable;
  history_floor: HistoryFloorTable;
  history_redo: { network: string; level: number };
  watch_rules: WatchRulesTable;
  watch_deliveries: WatchDeliveriesTable;
  verified_sources: VerifiedSourcesTable;
}

export type Db = Kysely<Database>;
