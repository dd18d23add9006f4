/** Typed selectors over the search service's items (api-types `SearchItem`, a union by `type`). */
import type { SearchItem } from '@michelscope/api-types';

export type { SearchItem, SearchItemType, SearchResponse } from '@michelscope/api-types';

/** The items of one type. */
export type ItemOf<T extends SearchItem['type']> = Extract<SearchItem, { type: T }>;

/** The name an item shows: a contract's alias (its TZIP-16 name, from the alias sources), a token's or key's name. */
export function itemName(item: SearchItem): string {
  switch (item.type) {
    case 'account':
      return item.body.TzKT?.Name || item.body.TZIP?.Name || '';
    case 'token':
    case 'bigmapkey':
      return item.body.Name;
    case 'operation':
      return '';
  }
}

const KIND: Record<SearchItem['type'], string> = {
  account: 'Account',
  operation: 'Operation',
  bigmapkey: 'Big map key',
  token: 'Token',
};

/** What an item is, as a person names it: a KT1 account is a 'Contract'. */
export const itemKind = (item: SearchItem): string =>
  item.type === 'account' && item.body.IsContract ? 'Contract' : KIND[item.type];

/** The address of an item (an operation has none: its hash). */
export const itemAddress = (item: SearchItem): string => (item.type === 'operation' ? '' : item.body.Address);

/** An operation's or global constant's hash, else ''. */
export const itemHash = (item: SearchItem): string =>
  item.type === 'operation' ? item.body.Hash : item.type === 'account' ? (item.body.Hash ?? '') : '';

/** The fragment of the field that matched (or of any field), or null. */
export function itemFragment(item: SearchItem): string | null {
  const highlights = item.highlights ?? {};
  return (
    (item.found_by ? highlights[item.found_by]?.[0] : undefined) ?? Object.values(highlights)[0]?.[0] ?? null
  );
}

/**
 * A contract whose script has a verified source (issue 38): the search service marks its body `verified: true`
 * (absent otherwise).
 */
export const itemVerified = (item: SearchItem): boolean =>
  item.type === 'account' && (item.body as { verified?: boolean }).verified === true;
