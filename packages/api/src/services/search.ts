/**
 * The search service (discovery spec §3, §7): accounts/contracts, tokens, operations and big-map keys of
 * every configured network, from the indexer's search documents (full text + pg_trgm) and direct lookups.
 */
import type { AccountSearchBody, SearchItem, TokenFileFormat, TokenSearchBody } from '@michelscope/api-types';
import {
  aliasesOf,
  bigMapKeysOf,
  ENTRYPOINT_QUERY_RE,
  getAccount,
  getBigMap,
  searchAccountOperations,
  searchBigMapKeys,
  searchDocuments,
  searchEntrypointCalls,
  searchOperations,
  SEARCH_TOTAL_CAP,
  suggestReads,
  tokenMetadataOf,
  type KeyHit,
  type KeyLookup,
  type OperationHit,
  type SearchDocHit,
  type TokenFilters,
} from '@michelscope/db/read';
import { bigMapKeyHash, type Micheline } from '@michelscope/michelson';
import { ensureAddress } from './address-requests';
import type { ApiContext } from '../context';
import { keyString, typesOf } from '../render/big-map-keys';
import { formatTime } from '../time';
import { ADDRESS_RE, EXPR_RE } from '../validate';

export const MAX_QUERY = 255;
/** Suggestions rank at most this many candidates per strategy: key prefix, each word (`DocSearch.rankWindow`). */
export const SUGGEST_RANK_WINDOW = 25;

type Index = 'accounts' | 'operations' | 'big-maps' | 'tokens' | 'global_constants';
const INDEX_ALIASES: Record<string, Index> = {
  accounts: 'accounts',
  account: 'accounts',
  contracts: 'accounts',
  contract: 'accounts',
  operations: 'operations',
  operation: 'operations',
  'big-maps': 'big-maps',
  big_maps: 'big-maps',
  bigmaps: 'big-maps',
  bigmapkey: 'big-maps',
  tokens: 'tokens',
  token: 'tokens',
  global_constants: 'global_constants',
};
const DOC_KINDS: Record<Index, string[]> = {
  accounts: ['contract', 'contract_metadata', 'smart_rollup'],
  tokens: ['token'],
  global_constants: ['global_constant'],
  operations: [],
  'big-maps': [],
};
const OPERATION_STATUSES = new Set(['applied', 'failed', 'backtracked', 'skipped']);

export interface SearchInput {
  query: string;
  size: number;
  offset: number;
  highlight: boolean;
  filters: unknown;
  /** false: no `total` needed (suggestions), the documents are not counted. */
  withTotal?: boolean;
}

interface Filters {
  networks?: string[];
  indices: Set<Index>;
  status?: string[];
  entrypoints?: string[];
  /**
   * One big map (`big_maps.big_map_id`, or `ptr`): the search lists its keys alone (on `big_maps.network`
   * when given, else the networks filter).
   */
  ptr?: number;
  /** With `ptr`: only keys currently present. */
  activeOnly?: boolean;
  /** The account whose operations are searched (operations tab). */
  address?: string;
  from?: Date;
  to?: Date;
  /** Tokens tab filters (tags, creators, minters, mime types); undefined when none is set. */
  tokens?: TokenFilters;
}

const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v)
    ? v
        .filter(
          (x): x is string => typeof x === 'string' && x.length > 0 && x.length <= 255 && !x.includes('\0'),
        )
        .slice(0, 50)
    : undefined;

/** Reads the filters of the reference client (`{search: {...}}` or `{tokens: {...}}`) and of this API. */
export function readFilters(ctx: ApiContext, raw: unknown): Filters {
  const top = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const inner = [top, top.search, top.tokens].filter(
    (x): x is Record<string, unknown> => !!x && typeof x === 'object',
  );
  const pick = (k: string) => inner.map((o) => strList(o[k])).find((v) => v?.length);
  const configured = new Set(ctx.networks.names);
  const nets = (pick('networks') ?? pick('network'))?.filter((n) => configured.has(n));
  const idx = pick('index')
    ?.map((i) => INDEX_ALIASES[i])
    .filter((i): i is Index => !!i);
  const ops = (top.operations && typeof top.operations === 'object' ? top.operations : {}) as Record<
    string,
    unknown
  >;
  const bms = (top.big_maps && typeof top.big_maps === 'object' ? top.big_maps : {}) as Record<
    string,
    unknown
  >;
  // the keys tab of the BCD frontend names its network in the big-map filter: only that one (none if unknown)
  const bmNetwork =
    typeof bms.network === 'string' ? [bms.network].filter((n) => configured.has(n)) : undefined;
  return {
    networks: bmNetwork ?? (nets && nets.length ? nets : ctx.networks.names),
    indices: new Set<Index>(idx?.length ? idx : ['accounts', 'operations', 'big-maps', 'tokens']),
    status: (strList(ops.status) ?? pick('status'))?.filter((s) => OPERATION_STATUSES.has(s)),
    entrypoints: strList(ops.entrypoints) ?? pick('entrypoints') ?? pick('entrypoint'),
    address: pick('address')?.find((a) => ADDRESS_RE.test(a)),
    ...timeRange(inner.map((o) => o.timestamp).find((t) => t && typeof t === 'object')),
    ptr: bigMapId(bms.big_map_id) ?? bigMapId(bms.ptr),
    activeOnly: bms.is_active === true,
    tokens: tokenFilters(pick),
  };
}

/** A big-map pointer (the BCD frontend sends the route's pointer as a number), -1 and up. */
function bigMapId(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= -1 ? v : undefined;
}

function tokenFilters(pick: (k: string) => string[] | undefined): TokenFilters | undefined {
  const f: TokenFilters = {
    tags: pick('tags'),
    creators: pick('creators'),
    minters: pick('minters'),
    mimeTypes: pick('mime_types'),
  };
  return Object.values(f).some((v) => v?.length) ? f : undefined;
}

/** A search hit for an operation (its group's hash and counter), found by its hash or its entrypoint. */
function operationItem(o: OperationHit, highlight: boolean, foundBy: 'Hash' | 'Entrypoint'): SearchItem {
  return {
    type: 'operation',
    value: o.hash,
    body: {
      Network: o.network,
      Hash: o.hash,
      Counter: o.counter,
      Level: o.level,
      '@timestamp': formatTime(o.timestamp),
      Status: o.status,
      Entrypoint: o.entrypoint ?? '',
      Destination: o.destination ?? '',
      Type: o.kind,
      mempool: false,
      // an account's operation search (the operations tab's filters): the group's figures the list shows
      ...(o.total_cost === undefined
        ? {}
        : { TotalCost: o.total_cost, Flow: o.flow ?? 0, Internals: o.internals ?? 0 }),
    },
    ...(highlight
      ? {
          highlights:
            foundBy === 'Entrypoint'
              ? { Entrypoint: highlights(o.entrypoint ?? '', o.entrypoint ?? '') }
              : { Hash: [`<em>${o.hash}</em>`] },
        }
      : {}),
    found_by: foundBy,
  };
}

/** `{gte, gt, lt, lte}` as ISO dates (the reference client's range filter) → [from, to). */
function timeRange(raw: unknown): { from?: Date; to?: Date } {
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const date = (v: unknown) => {
    const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
    return d && !Number.isNaN(d.getTime()) ? d : undefined;
  };
  const from = date(r.gte) ?? (date(r.gt) && new Date(date(r.gt)!.getTime() + 1));
  const to = date(r.lt) ?? (date(r.lte) && new Date(date(r.lte)!.getTime() + 1));
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
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
  const r = await findItems(ctx, input);
  await Promise.all([
    withAliases(ctx, r.items),
    withKeyNames(ctx, r.items, cleanQuery(input.query)),
    withTokenFields(ctx, r.items),
  ]);
  return r;
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
    const ops = await searchAccountOperations(ctx.db, {
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
    const docs = await searchDocuments(ctx.db, {
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
  if (!query) return { items: [], total: 0 };
  const items: SearchItem[] = [];
  let total = 0;

  // exact identifiers first: an implicit account (it has no search document), operation hashes, key hashes
  if (f.indices.has('accounts') && input.offset === 0 && /^tz[1-4]/.test(query) && ADDRESS_RE.test(query)) {
    for (const network of f.networks ?? ctx.networks.names) {
      if (!(await getAccount(ctx.db, network, query))) continue;
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
    const ops = await searchOperations(ctx.db, query, f.networks, input.size, {
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
    const r = await suggestReads(ctx.db, keys, {
      ...docSearch,
      size: suggestSize,
      count: false,
      rankWindow: SUGGEST_RANK_WINDOW,
    });
    pushKeys(r.keys);
    pushDocs(r.docs);
    return { items, total: Math.min(total, SEARCH_TOTAL_CAP) };
  }
  if (keyLookup) pushKeys(await searchBigMapKeys(ctx.db, keys.keyHashes, keys.networks, keys.limit, keys));
  let docsTotal = 0;
  if (kinds.length && items.length < input.size) {
    const docs = await searchDocuments(ctx.db, {
      ...docSearch,
      size: input.withTotal === false ? (input.size - items.length) * 2 : input.size - items.length,
      count: input.withTotal !== false,
      // suggestions rank bounded index ranges (key prefix, each word's newest documents); /search ranks every match
      rankWindow: input.withTotal === false ? SUGGEST_RANK_WINDOW : undefined,
    });
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
    const calls = await searchEntrypointCalls(ctx.db, {
      entrypoint: query,
      networks: f.networks ?? ctx.networks.names,
      status: f.status,
      offset: Math.max(0, input.offset - docsTotal),
      limit: input.size - items.length,
      count: input.withTotal !== false,
    });
    for (const o of calls.hits) items.push(operationItem(o, input.highlight, 'Entrypoint'));
    total += calls.total;
  }
  return { items, total: Math.min(total, SEARCH_TOTAL_CAP) };
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
  const r = await bigMapKeysOf(ctx.db, {
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

function keyItem(
  k: KeyHit,
  query: string,
  highlight: boolean,
  foundBy: 'KeyHash' | 'Key' = EXPR_RE.test(query) ? 'KeyHash' : 'Key',
): SearchItem {
  return {
    type: 'bigmapkey',
    value: k.key_hash,
    body: {
      Network: k.network,
      BigMapID: k.ptr,
      KeyHash: k.key_hash,
      Key: k.key as Micheline,
      // the readable key: filled by withKeyNames from the big map's key type
      Name: '',
      Address: k.contract,
      IsActive: !k.removed,
      '@timestamp': formatTime(k.last_update_time),
    },
    ...(highlight ? { highlights: { KeyHash: [`<em>${k.key_hash}</em>`] } } : {}),
    ...(query ? { found_by: foundBy } : {}),
  };
}

const KEY_TYPE_TTL_MS = 30_000;

/**
 * `Name` of each `bigmapkey` item: the readable key (`key_string` of `GET /bigmap/…/keys`: the string, the
 * decimal, else inline Michelson), from its big map's key type; a highlight of it when the text matched.
 */
async function withKeyNames(ctx: ApiContext, items: SearchItem[], query: string): Promise<void> {
  const keys = items.flatMap((i) => (i.type === 'bigmapkey' ? [i] : []));
  if (keys.length === 0) return;
  const types = new Map<string, Promise<ReturnType<typeof typesOf>>>();
  const typeOf = (network: string, ptr: number) => {
    const k = `${network}\0${ptr}`;
    let t = types.get(k);
    if (!t) {
      t = ctx.cache
        .get(`search:bigmap:${network}:${ptr}`, KEY_TYPE_TTL_MS, () => getBigMap(ctx.db, network, ptr))
        .then(typesOf);
      types.set(k, t);
    }
    return t;
  };
  await Promise.all(
    keys.map(async (item) => {
      const b = item.body;
      const t = await typeOf(b.Network, b.BigMapID);
      const name = keyString(t?.key, b.Key);
      b.Name = name;
      if (item.found_by === 'Key' && item.highlights) item.highlights = { Key: highlights(name, query) };
    }),
  );
}

function docItem(d: SearchDocHit, query: string, highlight: boolean): SearchItem {
  const [address = d.key, tokenId] = d.kind === 'token' ? d.key.split(':') : [d.key];
  const foundBy = d.matched === 'key' ? 'Address' : d.matched === 'title' ? 'Name' : 'Body';
  const highlighted = (): Pick<SearchItem, 'highlights'> => {
    if (!highlight) return {};
    const text = d.matched === 'key' ? address : d.matched === 'title' ? d.title : d.body;
    return { highlights: { [foundBy]: highlights(text, query) } };
  };
  if (d.kind === 'token') {
    const body = { Network: d.network, Address: address, TokenID: tokenId ?? '0', Name: d.title };
    return { type: 'token', value: address, body, found_by: foundBy, ...highlighted() };
  }
  const body: AccountSearchBody = { Network: d.network, Address: address };
  if (d.kind === 'contract' || d.kind === 'contract_metadata') body.IsContract = true;
  if (d.kind === 'smart_rollup') body.IsContract = false;
  if (d.kind === 'global_constant') body.Hash = d.key;
  return { type: 'account', value: address, body, found_by: foundBy, ...highlighted() };
}

/**
 * The names of the contracts among `account` items, in the reference shape the BCD frontend reads
 * (`getAccountAlias`: `TzKT.Name`, then `TZIP.Name`, `Profiles.Name`, `Domains.Name`), as
 * `GET /search/v1/account/{network}/{address}` answers: `TZIP` the contract's TZIP-16 metadata name. No
 * `TzKT` (this server keeps no TzKT alias list) and no token's name (a token is not its contract, issue 33).
 */
async function withAliases(ctx: ApiContext, items: SearchItem[]): Promise<void> {
  const accounts = items.flatMap((i) => (i.type === 'account' && i.body.IsContract === true ? [i] : []));
  if (accounts.length === 0) return;
  const rows = await aliasesOf(
    ctx.db,
    accounts.map((i) => ({ network: i.body.Network, address: i.value })),
  );
  const byKey = new Map(rows.map((r) => [`${r.network}\0${r.address}`, r]));
  for (const item of accounts) {
    const a = byKey.get(`${item.body.Network}\0${item.value}`);
    if (a?.metadata) item.body.TZIP = { Name: a.metadata };
  }
}

/** Longest text and list taken from a token's metadata into a search item (the metadata is untrusted). */
const TOKEN_TEXT_MAX = 2000;
const TOKEN_LIST_MAX = 20;

const metaText = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.slice(0, TOKEN_TEXT_MAX) : undefined;
const metaTexts = (v: unknown): string[] | undefined => {
  const out = Array.isArray(v) ? v.flatMap((x) => metaText(x) ?? []).slice(0, TOKEN_LIST_MAX) : [];
  return out.length ? out : undefined;
};
function fileFormats(v: unknown): TokenFileFormat[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: TokenFileFormat[] = [];
  for (const f of v.slice(0, TOKEN_LIST_MAX)) {
    if (!f || typeof f !== 'object') continue;
    const o = f as Record<string, unknown>;
    const uri = metaText(o.uri);
    if (!uri) continue;
    const size = typeof o.fileSize === 'string' ? Number(o.fileSize) : o.fileSize;
    out.push({
      uri,
      ...(metaText(o.fileName) ? { fileName: metaText(o.fileName) } : {}),
      ...(typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? { fileSize: size } : {}),
      ...(metaText(o.mimeType) ? { mimeType: metaText(o.mimeType) } : {}),
    });
  }
  return out.length ? out : undefined;
}

/** The fields of a token's resolved metadata (TZIP-12/21) its search card shows; absent when not given. */
export function tokenFields(metadata: unknown): Partial<TokenSearchBody> {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const m = metadata as Record<string, unknown>;
  const fields: Partial<TokenSearchBody> = {
    Symbol: metaText(m.symbol),
    Description: metaText(m.description),
    Minter: metaText(m.minter),
    Creators: metaTexts(m.creators),
    Tags: metaTexts(m.tags),
    Formats: fileFormats(m.formats),
    ThumbnailURI: metaText(m.thumbnailUri),
    Homepage: metaText(m.homepage),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** The metadata fields of each `token` item (one statement for the page). */
async function withTokenFields(ctx: ApiContext, items: SearchItem[]): Promise<void> {
  const tokens = items.flatMap((i) => (i.type === 'token' ? [i] : []));
  if (tokens.length === 0) return;
  const rows = await tokenMetadataOf(
    ctx.db,
    tokens.map((t) => ({ network: t.body.Network, contract: t.body.Address, tokenId: t.body.TokenID })),
  );
  const byKey = new Map(rows.map((r) => [`${r.network}\0${r.contract}\0${r.tokenId}`, r.metadata]));
  for (const t of tokens) {
    const metadata = byKey.get(`${t.body.Network}\0${t.body.Address}\0${t.body.TokenID}`);
    if (metadata !== undefined) Object.assign(t.body, tokenFields(metadata));
  }
}

/** Fragments of `text` around the query words, each word wrapped in `<em>` (other markup escaped). */
export function highlights(text: string, query: string, max = 3): string[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .slice(0, 8);
  const out: string[] = [];
  const lower = text.toLowerCase();
  for (const w of words) {
    const at = lower.indexOf(w);
    if (at < 0) continue;
    const start = Math.max(0, at - 40);
    const end = Math.min(text.length, at + w.length + 40);
    out.push(
      escapeHtml(text.slice(start, at)) +
        '<em>' +
        escapeHtml(text.slice(at, at + w.length)) +
        '</em>' +
        escapeHtml(text.slice(at + w.length, end)),
    );
    if (out.length >= max) break;
  }
  return out.length ? out : [escapeHtml(text.slice(0, 80))];
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
