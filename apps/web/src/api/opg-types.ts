/** Operation shapes (bcd-api.md §3.0 Operation, OPGResponse, GetErrorLocationResponse). */
import type { MiguelNode } from './contract-types';

/** A Tezos error of an operation (bcd-api.md §6.13). */
export interface OperationError {
  id: string;
  kind: string;
  title: string;
  descr: string;
  /** FAILWITH value as Michelson text. */
  with: string | null;
  /** balance_too_low. */
  balance: string | null;
  amount: string | null;
  /** invalidSyntacticConstantError. */
  wrong_expression: string | null;
  expected_form: string | null;
  location: number | null;
}

/** One operation of a group (top-level content or internal). */
export interface Operation {
  id: number | null;
  level: number;
  fee: number;
  counter: number | null;
  gas_limit: number;
  storage_limit: number;
  amount: number;
  burned: number;
  allocated_destination_contract_burned: number;
  content_index: number;
  /** Milligas. */
  consumed_gas: number;
  storage_size: number;
  paid_storage_size_diff: number;
  ticket_updates_count: number;
  big_map_diffs_count: number;
  errors: OperationError[];
  parameters: MiguelNode[];
  storage_diff: MiguelNode | null;
  payload: MiguelNode[];
  timestamp: string;
  protocol: string;
  hash: string;
  network: string;
  kind: string;
  source: string | null;
  destination: string | null;
  delegate: string | null;
  status: string;
  entrypoint: string | null;
  tag: string | null;
  internal: boolean;
  /** Pending operation from the mempool (historical field). */
  mempool: boolean;
}

/** GET /v1/contract/{network}/{address}/opg item (bcd-api.md §6.9). */
export interface OpgRow {
  last_id: number;
  content_index: number;
  counter: number;
  level: number;
  total_cost: number;
  /** Positive: locked on the account; negative: withdrawn. */
  flow: number;
  internals: number;
  hash: string;
  /** Comma-joined entrypoints of the group. */
  entrypoint: string;
  timestamp: string;
  status: string;
  kind: string;
  mempool: boolean;
}

export interface ErrorLocation {
  text: string;
  failed_row: number;
  first_row: number;
  start_col: number;
  end_col: number;
}
