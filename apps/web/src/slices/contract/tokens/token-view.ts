/** Pure helpers of the Tokens tab (workspace spec §2, §6 "Tokens", §9 limits). */

import { isObject } from '../../../api/parse';

/** Token search: trimmed, cut to 255 characters; '' resets to the plain list. */
export const TOKEN_SEARCH_MAX = 255;
/** Debounce of the search box in the tab list. */
export const TOKEN_SEARCH_DEBOUNCE_MS = 500;

export function normaliseTokenSearch(text: string): string {
  return text.trim().slice(0, TOKEN_SEARCH_MAX).trim();
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.slice(0, 500) : null;

/** The panel title: metadata name, else symbol, else 'Token {id}'. */
export function tokenTitle(metadata: unknown, tokenId: string): string {
  const m = isObject(metadata) ? metadata : {};
  return str(m.name) ?? str(m.symbol) ?? `Token ${tokenId}`;
}

/** The thumbnail URI (thumbnailUri, then displayUri, then artifactUri), or null. */
export function tokenThumbnail(metadata: unknown): string | null {
  const m = isObject(metadata) ? metadata : {};
  return str(m.thumbnailUri) ?? str(m.displayUri) ?? str(m.artifactUri);
}

/** Resolution state (status 1 in progress, 2 error, anything else applied). */
export function tokenState(status: number): 'pending' | 'error' | 'applied' {
  return status === 1 ? 'pending' : status === 2 ? 'error' : 'applied';
}
