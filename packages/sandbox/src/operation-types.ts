// JSON shapes of manager operations as the node serves them.

export interface BalanceUpdate {
  kind: 'contract' | 'accumulator' | 'burned' | 'minted' | 'freezer';
  category?: string;
  contract?: string;
  change: string;
  origin: 'block' | 'simulation';
}

export interface OperationResult {
  status: 'applied' | 'failed' | 'skipped' | 'backtracked';
  storage?: unknown;
  balance_updates?: BalanceUpdate[];
  ticket_updates?: unknown[];
  ticket_receipt?: unknown[];
  originated_contracts?: string[];
  consumed_milligas?: string;
  storage_size?: string;
  paid_storage_size_diff?: string;
  allocated_destination_contract?: boolean;
  lazy_storage_diff?: unknown[];
  /** Tallinn: address-registry entries added by the call (INDEX_ADDRESS). */
  address_registry_diff?: Array<{ address: string; index: string }>;
  global_address?: string;
  /** smart_rollup_originate: the rollup, its genesis commitment and the bytes burned. */
  address?: string;
  genesis_commitment_hash?: string;
  size?: string;
  errors?: NodeError[];
}

/** One entry of `internal_operation_results` (an operation emitted by a contract). */
export interface InternalResult {
  kind: 'transaction' | 'origination' | 'delegation' | 'event';
  source: string;
  nonce: number;
  amount?: string;
  destination?: string;
  parameters?: { entrypoint: string; value: unknown };
  balance?: string;
  delegate?: string;
  script?: { code: unknown; storage: unknown };
  type?: unknown;
  tag?: string;
  payload?: unknown;
  result: OperationResult;
}

export type ManagerKind =
  | 'transaction'
  | 'reveal'
  | 'origination'
  | 'delegation'
  | 'register_global_constant'
  | 'transfer_ticket'
  | 'smart_rollup_originate';

export interface ManagerContent {
  kind: ManagerKind;
  source: string;
  fee: string;
  counter: string;
  gas_limit: string;
  storage_limit: string;
  amount?: string;
  destination?: string;
  parameters?: { entrypoint: string; value: unknown };
  public_key?: string;
  proof?: string;
  balance?: string;
  delegate?: string;
  script?: { code: unknown; storage: unknown };
  value?: unknown;
  ticket_contents?: unknown;
  ticket_ty?: unknown;
  ticket_ticketer?: string;
  ticket_amount?: string;
  entrypoint?: string;
  pvm_kind?: string;
  kernel?: string;
  parameters_ty?: unknown;
  whitelist?: string[];
  metadata?: {
    balance_updates: BalanceUpdate[];
    operation_result: OperationResult;
    internal_operation_results?: InternalResult[];
  };
}

export interface OperationEntry {
  protocol: string;
  chain_id: string;
  hash: string;
  branch: string;
  contents: ManagerContent[];
  signature: string;
}

/** One error of a node error body: `[{kind, id, ...fields}]`. */
export interface NodeError {
  kind: 'permanent' | 'temporary' | 'branch';
  id: string;
  [field: string]: unknown;
}

/** An error answered to an RPC client with the node's JSON error body. */
export class RpcError extends Error {
  constructor(
    readonly status: number,
    readonly errors: NodeError[],
  ) {
    super(errors.map((e) => (typeof e.msg === 'string' ? `${e.id}: ${e.msg}` : e.id)).join('; '));
  }
}
