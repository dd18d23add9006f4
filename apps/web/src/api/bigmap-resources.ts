/**
 * The registry's entries (./resources.ts) of a big map: the map, its key count and history, a page of
 * keys, a key's state and history, and the keys a contract's storage diff changed.
 */
import type {
  BigMapHistory,
  BigMapInfo,
  BigMapKeyChanges,
  BigMapKeyHistory,
  BigMapKeyItem,
  BigMapKeyState,
  KeyChangeKind,
} from '@michelscope/api-types';
import { enc, page, resource, type Page } from './resource-builders';

/** A big map: its keys, their states and histories, the keys changed between two levels. */
export const BIG_MAP_RESOURCES = {
  bigMap: resource<{ network: string; ptr: number | string }, BigMapInfo>(
    ({ network, ptr }) => `/bigmap/${enc(network)}/${enc(ptr)}`,
  ),
  /**
   * `partial`: the keys are not indexed (a contract read from the node when first asked for, issue 32). With
   * `level`: the count at the end of that block (a storage shown at an old level, issue 33).
   */
  bigMapCount: resource<
    { network: string; ptr: number; level?: number | undefined },
    { count: number; partial?: boolean }
  >((p) => `/bigmap/${enc(p.network)}/${p.ptr}/count${p.level !== undefined ? `?level=${p.level}` : ''}`),
  /** 204 (no actions): null. */
  bigMapHistory: resource<{ network: string; ptr: number }, BigMapHistory | null>(
    (p) => `/bigmap/${enc(p.network)}/${p.ptr}/history`,
  ),
  /**
   * A page of keys; `search` filters by key text or hash, `activeOnly` leaves out removed keys; `after` (the
   * previous page's last key hash) reads the page by keyset instead of `offset` (the same cost at any depth).
   */
  bigMapKeys: resource<
    {
      network: string;
      ptr: number;
      offset: number;
      size: number;
      search: string;
      activeOnly: boolean;
      after?: string;
    },
    BigMapKeyItem[] | null
  >((p) => {
    const q = new URLSearchParams(
      p.after === undefined
        ? { offset: String(p.offset), size: String(p.size) }
        : { after: p.after, size: String(p.size) },
    );
    if (p.search !== '') q.set('search', p.search);
    if (p.activeOnly) q.set('active_only', 'true');
    return `/bigmap/${enc(p.network)}/${p.ptr}/keys?${q.toString()}`;
  }),
  bigMapKeyState: resource<{ network: string; ptr: number; keyHash: string }, BigMapKeyState>(
    (p) => `/bigmap/${enc(p.network)}/${p.ptr}/keys/${enc(p.keyHash)}/state`,
  ),
  /** 204 (no diffs): null. */
  bigMapKeyHistory: resource<
    { network: string; ptr: number; keyHash: string; offset: number; size: number },
    BigMapKeyHistory | null
  >((p) => `/bigmap/${enc(p.network)}/${p.ptr}/keys/${enc(p.keyHash)}?offset=${p.offset}&size=${p.size}`),
  /** A page of the keys of big map `ptr` added, changed or removed between the ends of two levels. */
  bigMapKeyChanges: resource<
    {
      network: string;
      address: string;
      ptr: number;
      from: number;
      to: number;
      change: KeyChangeKind | null;
    } & Page,
    BigMapKeyChanges
  >(
    (p) =>
      `/contract/${enc(p.network)}/${enc(p.address)}/storage/diff/big_map/${p.ptr}` +
      `?from=${p.from}&to=${p.to}&${page(p)}${p.change ? `&change=${p.change}` : ''}`,
  ),
};
