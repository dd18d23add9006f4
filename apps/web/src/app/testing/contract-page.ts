/**
 * Test helper: typed payloads and routes of a contract page's frame (its account, the contract with its
 * stats, its off-chain views and its TZIP-16 metadata), for `mockFetch` (issue 23). Each builder gives a
 * whole answer of the API's type; a test overrides only the fields it asserts on.
 */
import type { AccountInfo, ContractMetadataRow, ContractWithStats, Operation } from '@michelscope/api-types';
import { resourceRoute, type Payload, type Route } from './mock-fetch';

const WHEN = '2021-01-01T00:00:00Z';

/** GET /v1/account/{network}/{address} of a contract. */
export const contractAccount = (address: string, fields: Partial<AccountInfo> = {}): AccountInfo => ({
  address,
  account_type: 'contract',
  balance: 0,
  operations_count: 3,
  migrations_count: 0,
  events_count: 0,
  ticket_updates_count: 0,
  last_action: WHEN,
  ...fields,
});

/** GET /v1/contract/{network}/{address}?stats=true. */
export const contractWithStats = (
  network: string,
  address: string,
  fields: Partial<ContractWithStats> = {},
): ContractWithStats => ({
  id: 1,
  network,
  address,
  level: 1,
  timestamp: WHEN,
  tags: [],
  same_count: 0,
  ...fields,
});

/** One content of an operation (a run_operation or opg answer), applied at level 1 unless `fields` say. */
export const operation = (network: string, fields: Partial<Operation> = {}): Operation => ({
  network,
  kind: 'transaction',
  status: 'applied',
  level: 1,
  timestamp: WHEN,
  protocol: 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ',
  content_index: 0,
  ticket_updates_count: 0,
  big_map_diffs_count: 0,
  internal: false,
  ...fields,
});

export interface ContractFrame {
  account?: Partial<AccountInfo>;
  contract?: Partial<ContractWithStats>;
  /** The contract's TZIP-16 metadata rows (none: no metadata). */
  metadata?: ContractMetadataRow[];
  /** The whole answer of the metadata GraphQL service instead (e.g. a function of the query). */
  graphql?: Payload<'metadataGraphql'>;
}

/** The routes every contract page asks: account, contract, views schema (none) and metadata (none). */
export function contractFrame(network: string, address: string, frame: ContractFrame = {}): Route[] {
  const at = { network, address };
  return [
    resourceRoute('account', at, contractAccount(address, frame.account)),
    resourceRoute('contract', at, contractWithStats(network, address, frame.contract)),
    resourceRoute('views', at, []),
    resourceRoute('metadataGraphql', frame.graphql ?? { data: { contract_metadata: frame.metadata ?? [] } }),
  ];
}
