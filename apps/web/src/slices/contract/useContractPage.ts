import { useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { accountInfoQuery } from '../../api/account-api';
import { contractQuery, viewsQuery } from '../../api/contract-api';
import { contractMetadataQuery } from '../../api/contract-metadata-api';
import type { AccountInfo, ContractInfo, ViewSchema } from '../../api/contract-types';
import type { MetadataEntry } from '../../api/contract-metadata-api';
import { isContractAddress } from '../../shared/chain/patterns';

export interface ContractPageData {
  network: string;
  address: string;
  isContract: boolean;
  account: AccountInfo | undefined;
  /** undefined while loading; null when the server answered 204 (unknown contract). */
  contract: ContractInfo | null | undefined;
  metadata: MetadataEntry | null | undefined;
  views: ViewSchema[];
  /** The views request has answered (or failed: no views). */
  viewsSettled: boolean;
  /** Off-chain views declared in the metadata (TZIP-16 `views`). */
  offChainViews: number;
}

function offChainViewCount(metadata: MetadataEntry | null | undefined): number {
  const doc = metadata?.metadata;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return 0;
  const views = (doc as Record<string, unknown>).views;
  return Array.isArray(views) ? views.length : 0;
}

/**
 * Everything the page frame needs for one address. The queries are keyed by network and address: when
 * the address changes, the previous requests lose their observers and TanStack Query aborts them
 * (their `signal` is passed to fetch); views are fetched only for contracts.
 */
export function useContractPage(): ContractPageData {
  const { network = '', address = '' } = useParams();
  const isContract = isContractAddress(address);
  const account = useQuery(accountInfoQuery(network, address));
  const contract = useQuery({
    ...contractQuery(network, address),
    enabled: isContract,
    // while its history is backfilled (issue 32), the contract is read again every few seconds: its progress,
    // and the answer that is no longer partial (the first answer can come before the backfill is queued, with
    // no progress yet: read sooner then, as a short history is often backfilled within a second or two)
    refetchInterval: (q) => (!q.state.data?.partial ? false : q.state.data.history ? 5000 : 2000),
  });
  useHistoryRefresh(network, address, contract.data);
  const metadata = useQuery({ ...contractMetadataQuery(network, address), enabled: isContract });
  const views = useQuery({ ...viewsQuery(network, address), enabled: isContract });
  return {
    network,
    address,
    isContract,
    account: account.data,
    contract: isContract ? contract.data : null,
    // A failed metadata lookup counts as no metadata (the tab shows its empty state, not a spinner).
    metadata: metadata.isError ? null : metadata.data,
    views: views.data ?? [],
    viewsSettled: !isContract || views.isSuccess || views.isError,
    offChainViews: offChainViewCount(metadata.data),
  };
}

/**
 * Whether a cached query holds something of `address` on `network` that a backfilled block can change: a
 * query keyed by its params (`[name, { network, address, … }]`) or by position (`[name, network, address,
 * …]`: its metadata, alias and storage size), and every big map's keys and counts of the network (their keys
 * name the pointer, not the contract).
 */
export function readsAddress(query: Pick<Query, 'queryKey'>, network: string, address: string): boolean {
  const [name, params, third] = query.queryKey as readonly [unknown, unknown, unknown];
  if (name === 'contract') return false;
  // keys by position (`[name, network, address, …]`: the metadata service's, the alias, the storage size)
  if (typeof params === 'string') return params === network && third === address;
  if (typeof params !== 'object' || params === null || !('network' in params) || params.network !== network)
    return false;
  if (name === 'bigMapKeys' || name === 'bigMapCount' || name === 'bigMap') return true;
  return 'address' in params && params.address === address;
}

/**
 * While a contract's history is backfilled (issue 32), what the page already shows of it (its operations,
 * the tabs' counts, storage versions, big maps) was read before the older blocks were stored: each time the
 * levels read grow, and once the contract is no longer partial, those queries are read again. `contract`:
 * the contract's answer (undefined while it loads).
 */
export function useHistoryRefresh(
  network: string,
  address: string,
  contract:
    | { partial?: boolean | undefined; history?: { state: string; done: number } | undefined }
    | null
    | undefined,
): void {
  const client = useQueryClient();
  const seen = useRef<string | undefined>(undefined);
  const history = contract?.history;
  // the state of this address's history: a change of it (not of the address) reads the queries again
  const mark = !contract
    ? undefined
    : `${network}/${address} ${
        !contract.partial ? 'complete' : `partial:${history ? `${history.state}:${history.done}` : 'queued'}`
      }`;
  useEffect(() => {
    if (mark === undefined) return;
    const before = seen.current;
    seen.current = mark;
    if (before === undefined || mark === before || !before.startsWith(`${network}/${address} `)) return;
    void client.invalidateQueries({ predicate: (query) => readsAddress(query, network, address) });
  }, [client, network, address, mark]);
}
