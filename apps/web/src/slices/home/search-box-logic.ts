/**
 * Rules of the home search box (discovery spec §5): the text is trimmed and cut to 255 characters; Enter on
 * a contract address or an operation hash opens it where it exists (on sandboxnet in sandbox mode, else on the
 * network of the first suggestion that is it: the suggestions of that very text, awaited when they have not
 * come yet, list the networks that know it), and the search page when no network knows it; other text longer
 * than 2 characters opens the search page.
 */
import { itemAddress, itemHash, type SearchItem } from '../../api/search-items';
import { isAddress, isContractAddress, isOperationHash, isUnsignedId } from '../../shared/chain/patterns';
import { SANDBOX_NETWORK } from '../../shared/config/network-defaults';

export const MAX_QUERY_LENGTH = 255;
export const SUGGEST_DEBOUNCE_MS = 200;

export function normalizeQuery(text: string): string {
  return text.trim().slice(0, MAX_QUERY_LENGTH).trim();
}

export function searchPagePath(text: string): string {
  return `/search?${new URLSearchParams({ text }).toString()}`;
}

const NETWORK_RE = /^[a-z][a-z0-9_-]{0,31}$/;

/** The page a suggestion opens, or null when its fields do not make a valid link. */
export function suggestionPath(item: SearchItem): string | null {
  const network = item.body.Network;
  if (!NETWORK_RE.test(network)) return null;
  switch (item.type) {
    case 'account':
      return isAddress(item.body.Address) ? `/${network}/${item.body.Address}/operations` : null;
    case 'operation': {
      const opHash = item.body.Hash || item.value;
      return isOperationHash(opHash) ? `/${network}/opg/${opHash}/contents` : null;
    }
    case 'bigmapkey': {
      const { Address: address, BigMapID: ptr, KeyHash: keyHash } = item.body;
      if (!isContractAddress(address)) return null;
      return /^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(keyHash)
        ? `/${network}/${address}/storage/big_map/${ptr}/${keyHash}`
        : `/${network}/${address}/storage/big_map/${ptr}/keys`;
    }
    case 'token': {
      const { Address: address, TokenID: tokenId } = item.body;
      if (!isContractAddress(address)) return null;
      return isUnsignedId(tokenId)
        ? `/${network}/${address}/tokens?${new URLSearchParams({ search: tokenId }).toString()}`
        : `/${network}/${address}/tokens`;
    }
  }
}

export interface EnterContext {
  /** The suggestions of the text itself (none while they have not come). */
  suggestions: readonly SearchItem[];
  sandboxMode: boolean;
  networks: readonly string[];
}

/** The network where an address or operation hash `value` is: sandboxnet in sandbox mode, else its suggestion's. */
function exactHitNetwork(value: string, ctx: EnterContext): string | null {
  if (ctx.sandboxMode && ctx.networks.includes(SANDBOX_NETWORK)) return SANDBOX_NETWORK;
  const hit = ctx.suggestions.find(
    (s) =>
      ctx.networks.includes(s.body.Network) &&
      (s.value === value || itemAddress(s) === value || itemHash(s) === value),
  );
  return hit ? hit.body.Network : null;
}

const opensDirectly = (query: string) => isContractAddress(query) || isOperationHash(query);

/** Where Enter goes for the typed text, or null when it does nothing (2 characters or fewer). */
export function enterPath(text: string, ctx: EnterContext): string | null {
  const query = normalizeQuery(text);
  const network = opensDirectly(query) ? exactHitNetwork(query, ctx) : null;
  if (network) {
    return isOperationHash(query) ? `/${network}/opg/${query}/contents` : `/${network}/${query}/operations`;
  }
  // an address or operation hash no network knows: the search page says so (not a 404 on some network)
  return query.length > 2 ? searchPagePath(query) : null;
}

/**
 * Where Enter goes, asking `suggest` for the text's suggestions first when it is an address or an operation
 * hash that the suggestions at hand do not place (they had not come, or were of other text): Enter pressed
 * before the list shows opens the same page as the list's entry would. A failed ask counts as "nowhere".
 */
export async function resolveEnterPath(
  text: string,
  ctx: EnterContext,
  suggest: (query: string) => Promise<readonly SearchItem[]>,
): Promise<string | null> {
  const query = normalizeQuery(text);
  if (!opensDirectly(query) || exactHitNetwork(query, ctx) !== null) return enterPath(text, ctx);
  const suggestions = await suggest(query).catch(() => []);
  return enterPath(text, { ...ctx, suggestions });
}

/** A history entry's page: only same-site paths are followed. */
export function historyPath(shortcut: string | undefined, value: string): string {
  return shortcut && shortcut.startsWith('/') && !shortcut.startsWith('//')
    ? shortcut
    : searchPagePath(value);
}
