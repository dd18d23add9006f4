/** Contract endpoints (/v1/contract/{network}/{address}/…) with their query factories. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { RequestOptions } from './client';
import { OPG_PAGE_SIZE } from './page-sizes';
import { fetchResource, resourceQuery } from './resources';

export { OPG_PAGE_SIZE };

/** Same contracts, events, ticket updates: 10 per page. */
export const LIST_PAGE_SIZE = 10;
/** USING CONSTANTS dialog: 7 per page. */
export const CONSTANTS_PAGE_SIZE = 7;

type Opts = RequestOptions | undefined;

/** The contract, or null when the server answers 204 (unknown contract). */
export const contractQuery = (network: string, address: string) =>
  queryOptions({ ...resourceQuery('contract', { network, address }), staleTime: 10_000 });

export const opgPage = async (network: string, address: string, lastId: number | null, options?: Opts) =>
  (await fetchResource('opgList', { network, address, size: OPG_PAGE_SIZE, lastId }, options)) ?? [];

/**
 * The operations tab's unfiltered list: pages of OPG_PAGE_SIZE groups, each after the smallest `last_id` of
 * the previous one; a short page ends it. Shared by the route loader (started with the screen's code) and
 * the tab, so that the tab finds the first page loading or loaded.
 */
export const opgListQuery = (network: string, address: string) =>
  infiniteQueryOptions({
    // the registry's name with the list's params (the page cursor is the infinite query's own)
    queryKey: ['opgList', { network, address }] as const,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => opgPage(network, address, pageParam, { signal }),
    getNextPageParam: nextOpgCursor,
  });

/** The `last_id` of the page after `last`, or undefined when `last` is short (the end of the list). */
export function nextOpgCursor(last: readonly { last_id: number }[]): number | undefined {
  return last.length < OPG_PAGE_SIZE ? undefined : Math.min(...last.map((r) => r.last_id));
}

export const codeQuery = (network: string, address: string, protocol: string | null) =>
  queryOptions({ ...resourceQuery('code', { network, address, protocol }), staleTime: Infinity });

export const storageQuery = (network: string, address: string, level: number | null) =>
  resourceQuery('storage', { network, address, level });

export const storageRawQuery = (network: string, address: string, level: number | null) =>
  resourceQuery('storageRaw', { network, address, level });

/** Raw snapshot with every big map's data (Micheline JSON, shown as is). */
export const storageRichQuery = (network: string, address: string, level: number | null) =>
  resourceQuery('storageRich', { network, address, level });

export const storageSchemaQuery = (network: string, address: string) =>
  queryOptions({
    ...resourceQuery('storageSchema', { network, address, fillType: null }),
    staleTime: Infinity,
  });

export const migrationsQuery = (network: string, address: string) =>
  resourceQuery('migrations', { network, address });

/**
 * The permission and upgrade-risk summary (issue 37): the Security tab's data and the frame's headline, which
 * asks for it only once the contract has answered. Its failure is the caller's to show quietly.
 */
export const securityQuery = (network: string, address: string) =>
  queryOptions({
    ...resourceQuery('security', { network, address }),
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });

/** The levels at which the storage changed, newest first (the storage tab's versions; the newest 100). */
export const storageLevelsQuery = (network: string, address: string) =>
  resourceQuery('storageLevels', { network, address });

export const sameContractsQuery = (network: string, address: string, offset: number) =>
  resourceQuery('sameContracts', { network, address, offset, size: LIST_PAGE_SIZE });

export const eventsQuery = (network: string, address: string, offset: number) =>
  resourceQuery('events', { network, address, offset, size: LIST_PAGE_SIZE });

/** Updates the account holds or issued: as many as its `ticket_updates_count` (contracts and implicit accounts). */
export const ticketUpdatesQuery = (network: string, address: string, offset: number) =>
  resourceQuery('accountTicketUpdates', { network, address, offset, size: LIST_PAGE_SIZE });

export const contractConstantsQuery = (network: string, address: string, offset: number) =>
  resourceQuery('contractConstants', { network, address, offset, size: CONSTANTS_PAGE_SIZE });

/** On-chain views; a failure only hides the Views tab. */
export const viewsQuery = (network: string, address: string) =>
  queryOptions({
    ...resourceQuery('views', { network, address }),
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });
