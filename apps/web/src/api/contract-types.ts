/**
 * Response shapes of the account, contract, smart-rollup and storage endpoints (bcd-api.md §3.0), as the
 * workspace pages read them. Big integers stay strings; optional fields are null when absent.
 */
import type { Typedef } from '@michelscope/michelson';

export type { Typedef };

export type { MiguelDiffType as DiffType, MiguelNode } from '@michelscope/api-types';
export type {
  AccountInfo,
  ContractWithStats as ContractInfo,
  EntrypointSchema as StorageSchema,
  GlobalConstant as ContractConstant,
  SameContractsResponse as SameContracts,
  Event as ContractEvent,
  Migration,
  SmartRollup,
  StorageLevel,
  TicketUpdate,
  ViewSchema,
} from '@michelscope/api-types';
