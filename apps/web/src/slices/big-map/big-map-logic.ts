/** Pure rules of the big map pages (workspace spec §4 "Big map", §5, §9). */
import type { BigMapAction } from '../../api/bigmap-api';

export const KEY_FILTER_PLACEHOLDER = 'Start typing a key or paste a key hash';
export const KEY_FILTER_DEBOUNCE_MS = 100;
const KEY_SEARCH_MAX = 255;

/**
 * The search a key filter text gives: trimmed and cut at 255; '' (no filter) when empty; null when the
 * text is 1 or 2 characters (the filter does not change, nothing is re-queried).
 */
export function keySearch(text: string): string | null {
  const trimmed = text.trim().slice(0, KEY_SEARCH_MAX);
  if (trimmed === '') return '';
  return trimmed.length > 2 ? trimmed : null;
}

/** Removed if any history action is 'remove', else Allocated. */
export function bigMapStatus(actions: readonly BigMapAction[]): 'Removed' | 'Allocated' {
  return actions.some((a) => a.action === 'remove') ? 'Removed' : 'Allocated';
}

/** The other big map an action links to (copy from / to), or null. */
export function linkedPointer(action: BigMapAction, ptr: number): number | null {
  if (action.destination_ptr !== undefined && action.destination_ptr !== ptr) return action.destination_ptr;
  if (action.source_ptr !== undefined && action.source_ptr !== ptr) return action.source_ptr;
  return null;
}

export const isKeyHash = (value: string): boolean => /^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(value);
