/** Big-map queries (/v1/bigmap/{network}/{ptr}/…), built on the resource registry. 204 is an empty result. */
import type { BigMapHistory, BigMapKeyItem } from '@michelscope/api-types';
import { queryOptions } from '@tanstack/react-query';
import { BIG_MAP_PAGE_SIZE } from './page-sizes';
import { fetchResource, resourceKey, resourceQuery } from './resources';

/** Keys and key history: 10 per page (./page-sizes, which the server's fetch preloads read too). */
export { BIG_MAP_PAGE_SIZE };

/** One action of a big map's history (alloc, copy, remove). */
export type BigMapAction = NonNullable<BigMapHistory['items']>[number];
/** A key of the keys list: the API's `data` with its number of updates. */
export type BigMapKeyRow = BigMapKeyItem['data'] & { count: number };

export const bigMapDetailsQuery = (network: string, ptr: number) =>
  queryOptions({ ...resourceQuery('bigMap', { network, ptr }), staleTime: 30_000 });

/** The number of keys, now or (`level`) at the end of that block. */
export const bigMapCountQuery = (network: string, ptr: number, level?: number | null) =>
  queryOptions({
    ...resourceQuery('bigMapCount', level == null ? { network, ptr } : { network, ptr, level }),
    select: (answer: { count: number; partial?: boolean }) => answer,
    staleTime: 30_000,
    meta: { silent: true },
  });

export const bigMapHistoryQuery = (network: string, ptr: number) =>
  queryOptions({
    queryKey: resourceKey('bigMapHistory', { network, ptr }),
    queryFn: async ({ signal }): Promise<BigMapAction[]> =>
      (await fetchResource('bigMapHistory', { network, ptr }, { signal }))?.items ?? [],
    staleTime: 30_000,
  });

/**
 * A page of keys; `search` (already trimmed, 3..255 characters) filters by key text or key hash, and
 * `activeOnly` keeps the active keys only (query `search`, `active_only`). `after`: the last key hash of the
 * page before (the page at `offset` read by keyset: deep pages of a big map with millions of keys).
 */
export const bigMapKeysQuery = (
  network: string,
  ptr: number,
  offset: number,
  search: string,
  activeOnly = false,
  after?: string,
) => {
  const params = {
    network,
    ptr,
    offset,
    size: BIG_MAP_PAGE_SIZE,
    search,
    activeOnly,
    ...(after === undefined ? {} : { after }),
  };
  return queryOptions({
    queryKey: resourceKey('bigMapKeys', params),
    queryFn: async ({ signal }): Promise<BigMapKeyRow[]> =>
      ((await fetchResource('bigMapKeys', params, { signal })) ?? []).map((k) => ({
        ...k.data,
        count: k.count,
      })),
  });
};

export const bigMapKeyStateQuery = (network: string, ptr: number, keyHash: string) =>
  resourceQuery('bigMapKeyState', { network, ptr, keyHash });

export const bigMapKeyHistoryQuery = (network: string, ptr: number, keyHash: string, offset: number) =>
  resourceQuery('bigMapKeyHistory', { network, ptr, keyHash, offset, size: BIG_MAP_PAGE_SIZE });
