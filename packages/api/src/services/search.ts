/**
 * The search service (discovery spec §3, §7): accounts/contracts, tokens, operations and big-map keys of
 * every configured network, from the indexer's search documents (full text + pg_trgm) and direct lookups.
 */
import type { SearchItem } from '@michelscope/api-types';
import {
  bigMapKeysOf,
  ENTRYPOINT_QUERY_RE,
  getAccount,
  searchAccountOperations,
  searchBigMapKeys,
  searchDocuments,
  searchEntrypointCalls,
  searchOperations,
  SEARCH_TOTAL_CAP,
  suggestReads,
  type KeyHit,
  type KeyLookup,
  type SearchDocHit,
} from '@michelscope/db/read';
import { bigMapKeyHash, type Micheline } from '@michelscope/michelson';
import { ensureAddress } from './address-requests';
import type { ApiContext } from '../context';
import { ADDRESS_RE, EXPR_RE } from '../validate';
import { withAccountFields, withKeyNames, withTokenFields } from './search-enrichment';
import { DOC_KINDS, readFilters, type Filters } from './search-filters';
import { docItem, keyItem, operationItem } from './search-items';

export const MAX_QUERY = 255;
/** Suggestions rank at most this many candidates per strategy: key prefix, each word (`DocSearch.rankWindow`). */
export const SUGGEST_RANK_WINDOW = 25;
/** /search ranks every match up to this many, a bounded window of them above (`DocSearch.rankBound`). */
export const SEARCH_RANK_BOUND = 500;
/**
 * How long a count above SEARCH_RANK_BOUND is reused for the same text and filters (counting thousands of
 * matches is most of a broad search's cost; a total this old is good enough for "Found N documents").
 */
export const SEARCH_COUNT_TTL_MS = 60_000;

export interface SearchInput {
  query: string;
  size: number;
  offset: number;
  highlight: boolean;
  filters: unknown;
  /** false: no `total` needed (suggestions), the documents are not counted. */
  withTotal?: boolean;
}

/** Trimmed and cut to 255 characters; NUL characters (which PostgreSQL text cannot hold) read as spaces. */
export function cleanQuery(q: string): string {
  return q.replace(/\0/g, ' ').trim().slice(0, MAX_QUERY).trim();
}

export async function runSearch(
  ctx: ApiContext,
  input: SearchInput,
): Promise<{ items: SearchItem[]; total: number }> {
  // an address pasted whole that a public network's index lacks is read from its node first (issue 32)
  const pasted = input.offset === 0 ? input.query.trim() : '';
  if (/^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/.test(pasted))
    await Promise.all(ctx.networks.names.map((n) => ensureAddress(ctx, n, pasted)));
  const broad = broadAnswerKey(ctx, input);
  return broad === undefined
    ? answer(ctx, input)
    : ctx.cache.get(broad, SEARCH_BROAD_TTL_MS, () => answer(ctx, input));
}

async function answer(ctx: ApiContext, input: SearchInput): Promise<{ items: SearchItem[]; total: number }> {
  const r = await findItems(ctx, input);
  await Promise.all([
    withAccountFields(ctx, r.items),
    withKeyNames(ctx, r.items, cleanQuery(input.query)),
    withTokenFields(ctx, r.items),
  ]);
  return r;
}

/**
 * How long the answer of a broad search (its documents' count kept: more than SEARCH_RANK_BOUND match) is
 * reused for the same text, filters and page. Ranking a broad word's window (500 candidates, each one's rank and
 * title similarity) is the most a search costs (4.5 ms of CPU at 10× mainnet, issue 36), and a broad word is
 * what many visitors type at once: they share one ranking (concurrent requests wait for the same one), and a
 * document indexed meanwhile shows up at most this much later.
 */
export const SEARCH_BROAD_TTL_MS = 5_000;

/** The documents' count of a search, kept while above SEARCH_RANK_BOUND (findItems). */
const docsCountKey = (query: string, networks: readonly string[] | undefined, kinds: readonly string[]) =>
  `search-count\0${JSON.stringify([query, networks ?? null, kinds])}`;

/**
 * The response-cache key of a search whose documents' count is kept (a broad one), or undefined: suggestions,
 * the tabs that read no ranked documents (a big map's keys, an account's operations, token filters, verified
 * contracts) and a key that would be long (many filter values) are answered afresh.
 */
function broadAnswerKey(ctx: ApiContext, input: SearchInput): string | undefined {
  if (input.withTotal === false) return undefined;
  const query = cleanQuery(input.query);
  if (!query) return undefined;
  const f = readFilters(ctx, input.filters);
  if (f.ptr !== undefined || f.address || f.tokens || f.verified) return undefined;
  const kinds = [...f.indices].flatMap((i) => DOC_KINDS[i]);
  if (ctx.cache.peek(docsCountKey(query, f.networks, kinds)) === undefined) return undefined;
  const key = `search-broad\0${JSON.stringify([query, input.size, input.offset, input.highlight, { ...f, indices: [...f.indices] }])}`;
  return key.length <= 2_000 ? key : undefined;
}

async function findItems(
  ctx: ApiContext,
  input: SearchInput,
): Promise<{ items: SearchItem[]; total: number }> {
  const query = cleanQuery(input.query);
  const f = readFilters(ctx, input.filters);
  if (f.ptr !== undefined) return bigMapKeyItems(ctx, f, f.ptr, query, input);
  // The operations tab of an account: its operation groups, by text and/or filters (an empty text lists them).
  if (f.address && f.indices.size === 1 && f.indices.has('operations')) {
    const ops = await searchAccountOperations(ctx.readDb, {
      address: f.address,
      networks: f.networks,
      text: query,
      status: f.status,
      entrypoints: f.entrypoints,
      from: f.from,
      to: f.to,
      offset: input.offset,
      limit: input.size,
    });
    const items = ops.map((o) => operationItem(o, input.highlight && query !== '', 'Hash'));
    return { items, total: items.length < input.size ? input.offset + items.length : SEARCH_TOTAL_CAP };
  }
  if (f.tokens) {
    // the Tokens tab with filters: token documents whose metadata passes them (an empty text lists them all)
    const docs = await searchDocuments(ctx.readDb, {
      query,
      networks: f.networks,
      kinds: ['token'],
      offset: input.offset,
      size: input.size,
      count: input.withTotal !== false,
      tokens: f.tokens,
    });
    return {
      items: docs.hits.map((d) => docItem(d, query, input.highlight && query !== '')),
      total: Math.min(docs.total, SEARCH_TOTAL_CAP),
    };
  }
  if (f.verified) return verifiedItems(ctx, f, query, input);
  if (!query) return { items: [], total: 0 };
  const items: SearchItem[] = [];
  let total = 0;

  // exact identifiers first: an implicit account (it has no search document), operation hashes, key hashes
  if (f.indices.has('accounts') && input.offset === 0 && /^tz[1-4]/.test(query) && ADDRESS_RE.test(query)) {
    for (const network of f.networks ?? ctx.networks.names) {
      if (!(await getAccount(ctx.readDb, network, query))) continue;
      items.push({
        type: 'account',
        value: query,
        body: { Network: network, Address: query, IsContract: false },
        ...(input.highlight ? { highlights: { Address: [`<em>${query}</em>`] } } : {}),
        found_by: 'Address',
      });
      total += 1;
    }
  }
  if (f.indices.has('operations') && /^o[1-9A-HJ-NP-Za-km-z]{4,50}$/.test(query) && input.offset === 0) {
    const ops = await searchOperations(ctx.readDb, query, f.networks, input.size, {
      status: f.status,
      entrypoints: f.entrypoints,
    });
    for (const o of ops) items.push(operationItem(o, input.highlight, 'Hash'));
    total += ops.length;
  }
  const kinds = [...f.indices].flatMap((i) => DOC_KINDS[i]);
  const keyLookup = f.indices.has('big-maps') && input.offset === 0;
  const keys: KeyLookup = {
    keyHashes: keyLookup ? keyHashCandidates(query) : [],
    networks: f.networks,
    limit: input.size,
    ptr: f.ptr,
    activeOnly: f.activeOnly,
  };
  const docSearch = { query, networks: f.networks, kinds, offset: input.offset };
  const pushKeys = (hits: KeyHit[]) => {
    for (const k of hits) items.push(keyItem(k, query, input.highlight));
    total += hits.length;
  };
  // one item per account: a contract's `contract` and `contract_metadata` documents are one account (/search
  // leaves out the first when both match; a suggestion, ranked from bounded candidates, merges them here)
  const accounts = new Set<string>();
  const pushDocs = (hits: SearchDocHit[]) => {
    for (const d of hits) {
      if (items.length >= input.size) break;
      const item = docItem(d, query, input.highlight);
      if (item.type === 'account') {
        const k = `${d.network}\0${item.value}`;
        if (accounts.has(k)) continue;
        accounts.add(k);
      }
      items.push(item);
    }
  };
  // twice the page: at most two documents per account, so the merged page is still full
  const suggestSize = (input.size - items.length) * 2;
  if (input.withTotal === false && keyLookup && kinds.length && items.length < input.size) {
    // a suggestion: keys and documents in one statement; documents fill what the keys leave of the page
    const r = await suggestReads(ctx.readDb, keys, {
      ...docSearch,
      size: suggestSize,
      count: false,
      rankWindow: SUGGEST_RANK_WINDOW,
    });
    pushKeys(r.keys);
    pushDocs(r.docs);
    return { items, total: Math.min(total, SEARCH_TOTAL_CAP) };
  }
  if (keyLookup)
    pushKeys(await searchBigMapKeys(ctx.readDb, keys.keyHashes, keys.networks, keys.limit, keys));
  let docsTotal = 0;
  if (kinds.length && items.length < input.size) {
    const countKey = input.withTotal === false ? undefined : docsCountKey(query, f.networks, kinds);
    const knownTotal = countKey === undefined ? undefined : await ctx.cache.peek<number>(countKey);
    const docs = await searchDocuments(ctx.readDb, {
      ...docSearch,
      size: input.withTotal === false ? (input.size - items.length) * 2 : input.size - items.length,
      count: input.withTotal !== false,
      // suggestions rank bounded index ranges (key prefix, each word's newest documents); /search ranks every
      // match, or such a window of them when more match (merged by account in pushDocs)
      rankWindow: input.withTotal === false ? SUGGEST_RANK_WINDOW : undefined,
      rankBound: SEARCH_RANK_BOUND,
      knownTotal,
    });
    if (countKey !== undefined && knownTotal === undefined && docs.total > SEARCH_RANK_BOUND)
      ctx.cache.set(countKey, docs.total, SEARCH_COUNT_TTL_MS);
    total += docs.total;
    docsTotal = docs.total;
    pushDocs(docs.hits);
  }
  // the calls of an entrypoint of that name (the Operations tab; on Everywhere, after the documents: their
  // pages continue past the documents' count), newest first, bounded and counted up to the cap
  if (
    f.indices.has('operations') &&
    ENTRYPOINT_QUERY_RE.test(query) &&
    (!f.entrypoints?.length || f.entrypoints.includes(query))
  ) {
    const networks = f.networks ?? ctx.networks.names;
    // a count that reached the cap stays there (calls are only added): kept as the documents' count is, so a
    // common name ("transfer": 10,000 index entries a count) is not counted again at every search
    const countKey =
      input.withTotal === false
        ? undefined
        : `search-calls-count\0${JSON.stringify([query, networks, f.status ?? null])}`;
    const knownTotal = countKey === undefined ? undefined : await ctx.cache.peek<number>(countKey);
    const limit = input.size - items.length;
    const count = input.withTotal !== false && knownTotal === undefined;
    // nothing to read when the documents filled the page and the count is known or not asked for
    const calls =
      limit > 0 || count
        ? await searchEntrypointCalls(ctx.readDb, {
            entrypoint: query,
            networks,
            status: f.status,
            offset: Math.max(0, input.offset - docsTotal),
            limit,
            count,
          })
        : { total: 0, hits: [] };
    for (const o of calls.hits) items.push(operationItem(o, input.highlight, 'Entrypoint'));
    if (countKey !== undefined && knownTotal === undefined && calls.total >= SEARCH_TOTAL_CAP)
      ctx.cache.set(countKey, calls.total, SEARCH_COUNT_TTL_MS);
    total += knownTotal ?? calls.total;
  }
  return { items, total: Math.min(total, SEARCH_TOTAL_CAP) };
}

/**
 * The `verified` filter (issue 38): only contracts whose script has a verified source (same-script contracts of
 * any network inherit it), found by their documents as /search finds contracts (an empty text lists them all,
 * newest first), filtered, paged and counted in the statement. Nothing else is searched (implicit accounts,
 * operations and keys have no script); no result when the indices leave out accounts.
 */
async function verifiedItems(
  ctx: ApiContext,
  f: Filters,
  query: string,
  input: SearchInput,
): Promise<{ items: SearchItem[]; total: number }> {
  if (!f.indices.has('accounts')) return { items: [], total: 0 };
  const docs = await searchDocuments(ctx.readDb, {
    query,
    networks: f.networks,
    kinds: ['contract', 'contract_metadata'],
    offset: input.offset,
    size: input.size,
    count: input.withTotal !== false,
    verified: true,
  });
  const items = docs.hits.map((d) => {
    const item = docItem(d, query, input.highlight && query !== '');
    // a listing (no text) matched nothing
    if (!query) delete item.found_by;
    return item;
  });
  return { items, total: Math.min(docs.total, SEARCH_TOTAL_CAP) };
}

/**
 * The key hashes a query can stand for: itself when it is a key hash, else the hash of the query packed as a
 * string, and as an address / key_hash or an int when it reads as one.
 */
export function keyHashCandidates(query: string): string[] {
  if (EXPR_RE.test(query)) return [query];
  const forms: Array<[Micheline, Micheline]> = [[{ string: query }, { prim: 'string' }]];
  if (ADDRESS_RE.test(query)) forms.push([{ string: query }, { prim: 'address' }]);
  if (/^tz[1-4]/.test(query) && ADDRESS_RE.test(query)) forms.push([{ string: query }, { prim: 'key_hash' }]);
  if (/^-?\d{1,80}$/.test(query)) forms.push([{ int: query }, { prim: 'int' }]);
  const out: string[] = [];
  for (const [value, type] of forms) {
    try {
      out.push(bigMapKeyHash(value, type));
    } catch {
      /* not packable as this type (e.g. a bad address checksum) */
    }
  }
  return out;
}

/**
 * The keys of one big map (the big-map filter `{network, big_map_id, is_active}` of the BCD frontend's keys
 * tab): every key for an empty query, else the keys the query names (key hash, or the key packed as a string,
 * address, int…) or whose readable text contains it; newest first, paged, counted.
 */
async function bigMapKeyItems(
  ctx: ApiContext,
  f: Filters,
  ptr: number,
  query: string,
  input: SearchInput,
): Promise<{ items: SearchItem[]; total: number }> {
  const r = await bigMapKeysOf(ctx.readDb, {
    networks: f.networks ?? ctx.networks.names,
    ptr,
    activeOnly: f.activeOnly === true,
    text: query,
    keyHashes: query ? keyHashCandidates(query) : [],
    size: input.size,
    offset: input.offset,
    count: input.withTotal !== false,
  });
  const items = r.hits.map((k) =>
    keyItem(k, query, input.highlight && query !== '', k.matched === 'key_hash' ? 'KeyHash' : 'Key'),
  );
  return { items, total: Math.min(r.total, SEARCH_TOTAL_CAP) };
}
