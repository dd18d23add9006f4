/**
 * Query-option factories shared by route loaders and components (`useQuery(headQuery())`,
 * `queryClient.ensureQueryData(configQuery())`).
 */
import type { CodeLeg, KeyChangeKind } from '@michelscope/api-types';
import { queryOptions } from '@tanstack/react-query';
import { actionQuery, resourceQuery } from './resources';

/** Network sync state is polled every 30 s (discovery spec §4). */
export const HEAD_POLL_MS = 30_000;

export function configQuery() {
  return queryOptions({ ...resourceQuery('config'), staleTime: Infinity });
}

export function headQuery() {
  return queryOptions({
    ...resourceQuery('head'),
    refetchInterval: HEAD_POLL_MS,
    // An unreachable network is normal (offline testnets): never show its failure to the user.
    meta: { silent: true },
  });
}

export function recentlyCalledQuery(network: string, size: number, offset: number) {
  return queryOptions({ ...resourceQuery('recentlyCalled', { network, size, offset }), staleTime: 10_000 });
}

export function networkStatesQuery() {
  return queryOptions({ ...resourceQuery('stats'), staleTime: 30_000 });
}

export function globalConstantsQuery(network: string, size: number, offset: number) {
  return resourceQuery('globalConstants', { network, size, offset });
}

export function globalConstantQuery(network: string, address: string) {
  return queryOptions({ ...resourceQuery('globalConstant', { network, address }), staleTime: Infinity });
}

export function constantContractsQuery(network: string, address: string, size: number, offset: number) {
  return resourceQuery('constantContracts', { network, address, size, offset });
}
/** Storage diff between the ends of two levels: past levels do not change (but for a reorg, rare). */
export function storageDiffQuery(network: string, address: string, from: number, to: number) {
  return queryOptions({ ...resourceQuery('storageDiff', { network, address, from, to }), staleTime: 60_000 });
}

/** Page size of the changed keys of a big map in the storage comparison. */
export const KEY_CHANGES_PAGE_SIZE = 20;

export function bigMapKeyChangesQuery(
  network: string,
  address: string,
  ptr: number,
  q: { from: number; to: number; page: number; change: KeyChangeKind | null },
) {
  return queryOptions({
    ...resourceQuery('bigMapKeyChanges', {
      network,
      address,
      ptr,
      from: q.from,
      to: q.to,
      change: q.change,
      size: KEY_CHANGES_PAGE_SIZE,
      offset: q.page * KEY_CHANGES_PAGE_SIZE,
    }),
    staleTime: 60_000,
  });
}

/** The code diff of two contracts (POST, but a read: cached like a GET under its two legs). */
export function codeDiffQuery(left: CodeLeg, right: CodeLeg) {
  return queryOptions({
    ...actionQuery('codeDiff', undefined, { left, right }),
    staleTime: 60_000,
    retry: false,
  });
}
