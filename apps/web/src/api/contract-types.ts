/**
 * Response shapes of the account, contract, smart-rollup and storage endpoints (bcd-api.md §3.0), as the
 * workspace pages read them. Big integers stay strings; optional fields are null when absent.
 */
import type { Typedef } from '@michelscope/michelson';

export type { Typedef };

export type { MiguelDiffType as DiffType, MiguelNode } from '@michelscope/api-types';
import type { MiguelNode } from '@michelscope/api-types';

/** GET /v1/account/{network}/{address} (AccountInfo). */
export interface AccountInfo {
  address: string;
  /** Not in the reference shape; kept when a server sends it. */
  alias: string | null;
  balance: number;
  operations_count: number;
  migrations_count: number;
  events_count: number;
  ticket_updates_count: number;
  last_action: string;
  /** contract, account, rollup, smart_rollup, ghost, unknown. */
  account_type: string;
}

/** GET /v1/contract/{network}/{address} (ContractWithStats). */
export interface ContractInfo {
  address: string;
  network: string;
  alias: string | null;
  level: number;
  timestamp: string;
  hash: string | null;
  tags: string[];
  entrypoints: string[];
  manager: string | null;
  delegate: string | null;
  last_action: string | null;
  same_count: number;
}

/** GET /v1/smart_rollups/{network}/{address}. */
export interface SmartRollup {
  address: string;
  level: number;
  timestamp: string;
  size: number;
  genesis_commitment_hash: string;
  pvm_kind: string;
  /** Hex. */
  kernel: string;
  type: Typedef[];
}

/** GET …/migrations item. */
export interface Migration {
  level: number;
  timestamp: string;
  hash: string | null;
  protocol: string;
  prev_protocol: string;
  kind: string;
}

/** GET …/storage/levels item: a level at which the storage changed. */
export interface StorageLevel {
  level: number;
  timestamp: string;
}

/** GET …/same. */
export interface SameContracts {
  count: number;
  contracts: { address: string; network: string; last_action: string | null; alias: string | null }[];
}

/** GET …/events item. */
export interface ContractEvent {
  hash: string;
  status: string;
  timestamp: string;
  level: number;
  tag: string;
  payload: MiguelNode[];
}

/** GET …/ticket_updates item and GET /operation/{network}/{id}/ticket_updates item. */
export interface TicketUpdate {
  id: number;
  level: number;
  timestamp: string;
  ticket_id: number;
  ticketer: string;
  address: string;
  /** Signed decimal string (balance delta). */
  amount: string;
  operation_hash: string;
  content_type: Typedef[];
  content: MiguelNode | null;
}

/** GET …/storage/schema (only the type docs are used by the read-only pages). */
export interface StorageSchema {
  name: string;
  typedef: Typedef[];
}

/** GET …/global_constants item. */
export interface ContractConstant {
  address: string;
  timestamp: string;
  level: number;
}

/** GET …/views/schema item. */
export interface ViewSchema {
  name: string;
  kind: string;
  description: string;
  implementation: number;
  typedef: Typedef[];
  error: string | null;
}
