/** Pure rules of the search page (discovery spec §2, §4, §9). */
import type { SearchFilters, SearchResponse } from '@michelscope/api-types';
import type { ItemOf } from '../../api/search-items';
import { SEARCH_PAGE_SIZE } from '../../api/services';

export const SEARCH_DEBOUNCE_MS = 500;
export const MIN_QUERY_LENGTH = 1;
export const TOTAL_CAP = 10_000;

export const SEARCH_TABS = [
  { id: 'everywhere', label: 'Everywhere', index: ['accounts', 'operations', 'big-maps', 'tokens'] },
  { id: 'accounts', label: 'Accounts', index: ['accounts'] },
  { id: 'operations', label: 'Operations', index: ['operations'] },
  { id: 'big_maps', label: 'Big Maps', index: ['big-maps'] },
  { id: 'tokens', label: 'Tokens', index: ['tokens'] },
] as const;
export type SearchTabId = (typeof SEARCH_TABS)[number]['id'];

export interface TokenFilterValues {
  tags: string[];
  creators: string[];
  minters: string[];
  mime_types: string[];
}

export const EMPTY_TOKEN_FILTERS: TokenFilterValues = { tags: [], creators: [], minters: [], mime_types: [] };

export function hasTokenFilters(f: TokenFilterValues): boolean {
  return f.tags.length > 0 || f.creators.length > 0 || f.minters.length > 0 || f.mime_types.length > 0;
}

export function sameTokenFilters(a: TokenFilterValues, b: TokenFilterValues): boolean {
  return (['tags', 'creators', 'minters', 'mime_types'] as const).every(
    (k) => a[k].length === b[k].length && a[k].every((v, i) => v === b[k][i]),
  );
}

/** The tabs that list contracts, where 'Verified source only' applies (issue 38). */
export const verifiedFilterApplies = (tab: SearchTabId): boolean =>
  tab === 'everywhere' || tab === 'accounts';

/**
 * `filters` of the request: `tokens` when a token filter is set, else `search`; `verified: true` (issue 38:
 * only contracts whose script has a verified source) when asked for on a tab that lists contracts.
 */
export function requestFilters(
  tab: SearchTabId,
  networks: string[],
  tokens: TokenFilterValues,
  verified = false,
): SearchFilters {
  const index = [...(SEARCH_TABS.find((t) => t.id === tab)?.index ?? SEARCH_TABS[0].index)];
  const set = { ...tokens, network: networks, index };
  if (hasTokenFilters(tokens)) return { tokens: set };
  return { search: verified && verifiedFilterApplies(tab) ? { ...set, verified: true } : set };
}

/** The list is complete when a page comes back short, or with a single mempool operation. */
export function isComplete(page: SearchResponse, loaded: number): boolean {
  if (page.items.length < SEARCH_PAGE_SIZE) return true;
  const first = page.items[0];
  return page.total === 1 && loaded === 1 && first?.type === 'operation' && first.body.mempool;
}

/** "Found N documents" label: the service caps totals at 10000. */
export function totalLabel(total: number): string {
  return total >= TOTAL_CAP ? `more than ${TOTAL_CAP}` : String(total);
}

/** Apply filters is enabled only after a change, and never when filters and search are both empty. */
export function canApplyFilters(draft: TokenFilterValues, applied: TokenFilterValues, text: string): boolean {
  if (sameTokenFilters(draft, applied)) return false;
  return hasTokenFilters(draft) || text.trim() !== '';
}

/**
 * The status shown for an operation (discovery spec §4): applied, mempool (not applied and in the mempool) or
 * failed. Every other result (backtracked, skipped, refused, lost…) shows as failed; an operation the service
 * gives no status for and that is not in the mempool was included in a block, so it shows as applied.
 */
export type ShownStatus = 'applied' | 'mempool' | 'failed';

export function operationStatus(item: ItemOf<'operation'>): ShownStatus {
  const status = item.body.Status;
  if (status === 'applied') return 'applied';
  if (item.body.mempool) return 'mempool';
  return status === '' ? 'applied' : 'failed';
}
