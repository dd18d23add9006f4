/** Big-map endpoints (/v1/bigmap/{network}/{ptr}/…) with their query factories. 204 is a silent empty result. */
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './client';
import {
  parseBigMapDetails,
  parseBigMapHistory,
  parseBigMapKeyHistory,
  parseBigMapKeys,
  parseBigMapKeyState,
} from './bigmap-parse';
import { isObject } from './parse';
import { num } from './json-fields';

/** Keys and key history: 10 per page (workspace spec §9). */
export const BIG_MAP_PAGE_SIZE = 10;

const base = (network: string, ptr: number | string) => `/bigmap/${encodeURIComponent(network)}/${ptr}`;

export const bigMapDetailsQuery = (network: string, ptr: number) =>
  queryOptions({
    queryKey: ['bigmap_details', network, ptr] as const,
    queryFn: ({ signal }) => getJson(base(network, ptr), { signal }).then(parseBigMapDetails),
    staleTime: 30_000,
  });

export const bigMapCountQuery = (network: string, ptr: number) =>
  queryOptions({
    queryKey: ['bigmap_count', network, ptr] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, ptr)}/count`, { signal }).then((b) => (isObject(b) ? num(b, 'count') : 0)),
    staleTime: 30_000,
    meta: { silent: true },
  });

export const bigMapHistoryQuery = (network: string, ptr: number) =>
  queryOptions({
    queryKey: ['bigmap_history', network, ptr] as const,
    queryFn: ({ signal }) => getJson(`${base(network, ptr)}/history`, { signal }).then(parseBigMapHistory),
    staleTime: 30_000,
  });

/**
 * A page of keys; `search` (already trimmed, 3..255 characters) filters by key text or key hash, and
 * `activeOnly` keeps the active keys only (query `search`, `active_only`).
 */
export const bigMapKeysQuery = (
  network: string,
  ptr: number,
  offset: number,
  search: string,
  activeOnly = false,
) =>
  queryOptions({
    queryKey: ['bigmap_keys', network, ptr, offset, search, activeOnly] as const,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ offset: String(offset), size: String(BIG_MAP_PAGE_SIZE) });
      if (search !== '') params.set('search', search);
      if (activeOnly) params.set('active_only', 'true');
      return getJson(`${base(network, ptr)}/keys?${params.toString()}`, { signal }).then(parseBigMapKeys);
    },
  });

export const bigMapKeyStateQuery = (network: string, ptr: number, keyHash: string) =>
  queryOptions({
    queryKey: ['bigmap_key_state', network, ptr, keyHash] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, ptr)}/keys/${encodeURIComponent(keyHash)}/state`, { signal }).then(
        parseBigMapKeyState,
      ),
  });

export const bigMapKeyHistoryQuery = (network: string, ptr: number, keyHash: string, offset: number) =>
  queryOptions({
    queryKey: ['bigmap_key_history', network, ptr, keyHash, offset] as const,
    queryFn: ({ signal }) =>
      getJson(
        `${base(network, ptr)}/keys/${encodeURIComponent(keyHash)}?offset=${offset}&size=${BIG_MAP_PAGE_SIZE}`,
        { signal },
      ).then(parseBigMapKeyHistory),
  });
