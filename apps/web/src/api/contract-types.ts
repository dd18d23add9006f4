/**
 * Response shapes of the account, contract, smart-rollup and storage endpoints (bcd-api.md §3.0), as the
 * workspace pages read them. Big integers stay strings; optional fields are null when absent.
 */
import type { Typedef } from '@michelscope/michelson';

export type { Typedef };

export type { MiguelDiffType as DiffType, MiguelNode } from '@michelscope/api-types';
export type {
  AccountInfo,
  Event as ContractEvent,
  Migration,
  SmartRollup,
  StorageLevel,
  TicketUpdate,
  ViewSchema,
} from '@michelscope/api-types';

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

/** GET …/same. */
export interface SameContracts {
  count: number;
  contracts: { address: string; network: string; last_action: string | null; alias: string | null }[];
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
