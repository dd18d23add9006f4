import { CompiledQuery, sql } from 'kysely';
import type { Db, OperationStatus } from '../schema';
import { toDate } from './contracts';
import { PREPARED } from './prepared';

/** Totals are counted up to this many hits (the search service reports "more than 10000"). */
export const SEARCH_TOTAL_CAP = 10_000;

export interface SearchDocHit {
  network: string;
  kind: string;
  key: string;
  title: string;
  /** For a suggestion (`rankWindow`), only when the body matched (its highlight); '' otherwise. */
  body: string;
  level: number;
  /** Which part matched: `key`, `title` or `body`. */
  matched: 'key' | 'title' | 'body';
}

export interface DocSearch {
  query: string;
  networks?: readonly string[];
  kinds?: readonly string[];
  size: number;
  offset: number;
  /** Count the hits (up to SEARCH_TOTAL_CAP); false skips the count (suggestions) and `total` is 0. */
  count?: boolean;
  /**
   * Suggestions: rank at most `rankWindow` candidates per strategy, each strategy an index range cut by a LIMIT
   * (no query reads every match of a broad word or a short prefix; /search, without this option, ranks every
   * match): keys by prefix (the first in byte order: an exact key first), the last word as a prefix (its
   * first terms in byte order, each term newest first, from `search_terms`) and, with several words, the
   * documents holding every word among each word's newest `SUGGEST_AND_WINDOW` (instead of each
   * word alone). The candidates that match the query as /search would are ranked as /search ranks; a word
   * found only inside a title (`title ILIKE '%q%'` without a word starting with it) is not suggested.
   * PostgreSQL function `search_suggest` (migration 0100: one generic plan per connection).
   */
  rankWindow?: number;
  /** Token documents only, whose resolved metadata has one of each given list (Tokens tab filters). */
  tokens?: TokenFilters;
}

/** Token filters of the search service: a token matches when it has one of the values of every given list. */
export interface TokenFilters {
  tags?: readonly string[];
  creators?: readonly string[];
  minters?: readonly string[];
  mimeTypes?: readonly string[];
}

const nonEmpty = (v: readonly string[] | undefined) => (v?.length ? [...v] : null);

/** `d` (a search document) is a token whose metadata passes `f`. */
function tokenFilterSql(f: TokenFilters) {
  const [tags, creators, minters, mimes] = [
    nonEmpty(f.tags),
    nonEmpty(f.creators),
    nonEmpty(f.minters),
    nonEmpty(f.mimeTypes),
  ];
  return sql`AND d.kind = 'token' AND EXISTS (SELECT 1 FROM token_metadata tm
      WHERE tm.network = d.network AND tm.contract = split_part(d.key, ':', 1)
        AND tm.token_id = (CASE WHEN split_part(d.key, ':', 2) ~ '^[0-9]{1,78}$' THEN split_part(d.key, ':', 2) ELSE '-1' END)::numeric
        ${tags ? sql`AND jsonb_typeof(tm.metadata->'tags') = 'array' AND (tm.metadata->'tags') ?| ${tags}::text[]` : sql``}
        ${creators ? sql`AND jsonb_typeof(tm.metadata->'creators') = 'array' AND (tm.metadata->'creators') ?| ${creators}::text[]` : sql``}
        ${minters ? sql`AND tm.metadata->>'minter' = ANY(${minters}::text[])` : sql``}
        ${
          mimes
            ? sql`AND jsonb_typeof(tm.metadata->'formats') = 'array' AND EXISTS (SELECT 1 FROM jsonb_array_elements(tm.metadata->'formats') fm
                WHERE jsonb_typeof(fm) = 'object' AND fm->>'mimeType' = ANY(${mimes}::text[]))`
            : sql``
        })`;
}

/** Per word, how many of its newest documents a suggestion of several words checks for the other words. */
export const SUGGEST_AND_WINDOW = 200;
/** Words of a query used for suggestion candidates (the last ones; all words still have to match). */
const SUGGEST_WORDS = 6;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The to_tsquery text of a query: its words (at most 16), all required, the last one as a prefix. */
function tsQuery(query: string): string | null {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)
    .slice(0, 16);
  return words.length ? words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ') : null;
}

/**
 * Search documents (contracts, constants, rollups, tokens, contract metadata) over every network:
 * key prefix (addresses), title/body words (full text, `simple` config, prefix match on the last word)
 * and title similarity (pg_trgm). Exact keys first, then full-text rank, then similarity, then newest.
 */
export async function searchDocuments(
  db: Db,
  q: DocSearch,
): Promise<{ total: number; hits: SearchDocHit[] }> {
  const tsq = tsQuery(q.query);
  const prefix = `${likeEscape(q.query)}%`;
  const contains = `%${likeEscape(q.query)}%`;
  // with token filters an empty text lists every token that passes them
  const matches = (t: 'd' | 'm') => sql`(
      ${sql.ref(`${t}.key`)} ILIKE ${prefix}
      OR ${sql.ref(`${t}.title`)} ILIKE ${contains}
      ${tsq ? sql`OR ${sql.ref(`${t}.tsv`)} @@ to_tsquery('simple', ${tsq})` : sql``}
    )`;
  const text = q.query === '' && q.tokens ? sql`TRUE` : matches('d');
  // One hit per contract: its `contract` document gives way to its `contract_metadata` twin when both match.
  const twins =
    !q.tokens && (!q.kinds?.length || (q.kinds.includes('contract') && q.kinds.includes('contract_metadata')))
      ? sql`AND NOT (d.kind = 'contract' AND EXISTS (SELECT 1 FROM search_documents m
          WHERE m.network = d.network AND m.kind = 'contract_metadata' AND m.key = d.key AND ${matches('m')}))`
      : sql``;
  const where = sql`${text}
    ${q.networks?.length ? sql`AND d.network IN (${sql.join(q.networks)})` : sql``}
    ${q.kinds?.length ? sql`AND d.kind IN (${sql.join(q.kinds)})` : sql``}
    ${q.tokens ? tokenFilterSql(q.tokens) : sql``}
    ${twins}`;
  const [count, rows] = await Promise.all([
    q.count === false
      ? { rows: [] }
      : sql<{
          n: number;
        }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_documents d WHERE ${where} LIMIT ${SEARCH_TOTAL_CAP}) x`.execute(
          db,
        ),
    q.rankWindow && !q.tokens
      ? db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(
            `${PREPARED} SELECT * FROM ${SUGGEST_CALL}`,
            suggestParams({ ...q, rankWindow: q.rankWindow }),
          ),
        )
      : sql<Record<string, unknown>>`
      SELECT d.network, d.kind, d.key, d.title, left(d.body, 2000) AS body, d.level,
        CASE WHEN d.key ILIKE ${prefix} THEN 'key' WHEN d.title ILIKE ${contains} THEN 'title' ELSE 'body' END AS matched
      FROM search_documents d
      WHERE ${where}
      ORDER BY (lower(d.key) = lower(${q.query})) DESC,
        ${tsq ? sql`ts_rank(d.tsv, to_tsquery('simple', ${tsq})) DESC,` : sql``}
        similarity(d.title, ${q.query}) DESC, d.level DESC, d.id DESC
      LIMIT ${q.size} OFFSET ${q.offset}`.execute(db),
  ]);
  return { total: Number(count.rows[0]?.n ?? 0), hits: rows.rows.map(docHit) };
}

const docHit = (r: Record<string, unknown>): SearchDocHit => ({
  network: String(r.network),
  kind: String(r.kind),
  key: String(r.key),
  title: String(r.title),
  body: String(r.body),
  level: Number(r.level),
  matched: r.matched as SearchDocHit['matched'],
});

/**
 * A suggestion page (see `DocSearch.rankWindow`) from the function `search_suggest` (migration 0100):
 * one statement, planned once per connection. Words are split as the `simple` parser splits plain words
 * (letters and digits); a word the parser reads otherwise (`fa1-2`, `x.y`) finds no term of its own, and
 * the other words or the key prefix still do.
 */
function suggestParams(q: DocSearch & { rankWindow: number }): unknown[] {
  const words = q.query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(-SUGGEST_WORDS);
  return [
    q.query,
    `${likeEscape(q.query)}%`,
    `%${likeEscape(q.query)}%`,
    tsQuery(q.query),
    words.slice(0, -1),
    words.at(-1) ?? null,
    list(q.networks),
    list(q.kinds),
    q.rankWindow,
    SUGGEST_AND_WINDOW,
    q.size,
    q.offset,
  ];
}

const SUGGEST_CALL = `search_suggest($1, $2, $3, $4, $5::text[], $6, $7::text[], $8::text[], $9::integer,
  $10::integer, $11::integer, $12::integer)`;

const list = (v: readonly string[] | undefined) => (v?.length ? [...v] : null);

export interface OperationHit {
  network: string;
  id: number;
  hash: string;
  counter: number | null;
  level: number;
  timestamp: Date;
  kind: string;
  status: string;
  destination: string | null;
  entrypoint: string | null;
  /** For an account's search ({@link searchAccountOperations}): the group's Σ fee + Σ burned (mutez), as the
   * operations tab's unfiltered list counts it. */
  total_cost?: number;
  /** …the group's flow for the account: its balance change over the applied rows (+credited, −paid). */
  flow?: number;
  /** …the group's internal operations. */
  internals?: number;
}

/** Top-level operations whose group hash starts with `prefix` (at least 5 characters). */
export async function searchOperations(
  db: Db,
  prefix: string,
  networks: readonly string[] | undefined,
  limit: number,
  f: { status?: readonly string[]; entrypoints?: readonly string[] } = {},
): Promise<OperationHit[]> {
  let q = db
    .selectFrom('operations')
    .select([
      'network',
      'id',
      'hash',
      'counter',
      'level',
      'timestamp',
      'kind',
      'status',
      'destination',
      'entrypoint',
    ])
    .where('hash', 'like', `${likeEscape(prefix)}%`)
    .where('internal', '=', false);
  if (networks?.length) q = q.where('network', 'in', [...networks]);
  if (f.status?.length) {
    // Only the statuses the column holds; a filter of none of them matches nothing (`IN ()` is not SQL).
    const statuses = f.status.filter(isStatus);
    q = statuses.length ? q.where('status', 'in', statuses) : q.where(sql<boolean>`false`);
  }
  if (f.entrypoints?.length) q = q.where('entrypoint', 'in', [...f.entrypoints]);
  const rows = await q.orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, hash: r.hash ?? '', timestamp: toDate(r.timestamp) }));
}

/** An entrypoint name as the search reads one in a query (a Michelson field annotation, without its `%`). */
export const ENTRYPOINT_QUERY_RE = /^[A-Za-z0-9_.@]{1,31}$/;

export interface EntrypointCallSearch {
  /** The entrypoint's name, exactly (names are case-sensitive). */
  entrypoint: string;
  networks: readonly string[];
  /** Only these statuses (none: any). */
  status?: readonly string[];
  offset: number;
  limit: number;
  /** Count the calls (up to SEARCH_TOTAL_CAP); false: `total` is 0. */
  count: boolean;
}

/**
 * Operations (top-level and internal) that call an entrypoint of that name, newest first over the given
 * networks, paged, and how many there are (up to SEARCH_TOTAL_CAP). Bounded, from the index
 * `operations_entrypoint_search` alone until the page's rows are read: each network's calls newest first cut at
 * offset + limit (with a status filter: those among its newest SEARCH_TOTAL_CAP calls), the page's ids, then
 * its rows by primary key; the count reads at most SEARCH_TOTAL_CAP index entries per network.
 */
export async function searchEntrypointCalls(
  db: Db,
  s: EntrypointCallSearch,
): Promise<{ total: number; hits: OperationHit[] }> {
  if (s.networks.length === 0 || !ENTRYPOINT_QUERY_RE.test(s.entrypoint)) return { total: 0, hits: [] };
  const statuses = s.status?.length ? s.status.filter(isStatus) : null;
  if (statuses && statuses.length === 0) return { total: 0, hits: [] };
  const ep = s.entrypoint;
  // One network's newest calls. The entrypoint is a range of one value and the order names it: with `=` the
  // planner drops the column from the order and may walk the primary key backwards filtering every operation
  // (seconds for a name that network has few calls of, measured on PostgreSQL); this order only the index has.
  const newest = (limit: number) => sql`
    SELECT o.id, o.status FROM operations o
    WHERE o.network = n.network AND o.entrypoint >= ${ep} AND o.entrypoint <= ${ep} AND o.hash IS NOT NULL
    ORDER BY o.entrypoint DESC, o.id DESC LIMIT ${limit}`;
  const ids = (limit: number) =>
    statuses
      ? sql`unnest(${[...s.networks]}::text[]) AS n(network) CROSS JOIN LATERAL (
          SELECT w.id FROM (${newest(SEARCH_TOTAL_CAP)}) w WHERE w.status IN (${sql.join(statuses)})
          ORDER BY w.id DESC LIMIT ${limit}) c`
      : sql`unnest(${[...s.networks]}::text[]) AS n(network) CROSS JOIN LATERAL (${newest(limit)}) c`;
  const [count, rows] = await Promise.all([
    s.count
      ? sql<{ n: number | string }>`SELECT count(*) AS n FROM ${ids(SEARCH_TOTAL_CAP)}`.execute(db)
      : { rows: [] },
    s.limit > 0
      ? sql<Omit<OperationHit, 'timestamp'> & { timestamp: Date | string }>`
          SELECT o.network, o.id, o.hash, o.counter, o.level, o.timestamp, o.kind, o.status, o.destination,
            o.entrypoint
          FROM (SELECT c.id FROM ${ids(s.offset + s.limit)} ORDER BY c.id DESC OFFSET ${s.offset} LIMIT ${s.limit}) p
          JOIN operations o ON o.id = p.id
          ORDER BY o.id DESC`.execute(db)
      : { rows: [] },
  ]);
  return {
    total: Math.min(Number(count.rows[0]?.n ?? 0), SEARCH_TOTAL_CAP),
    hits: rows.rows.map((r) => ({
      ...r,
      id: Number(r.id),
      counter: r.counter === null ? null : Number(r.counter),
      hash: r.hash ?? '',
      timestamp: toDate(r.timestamp),
    })),
  };
}

const STATUSES: ReadonlySet<string> = new Set<OperationStatus>([
  'applied',
  'backtracked',
  'failed',
  'skipped',
]);
const isStatus = (s: string): s is OperationStatus => STATUSES.has(s);

export interface AccountOperationSearch {
  address: string;
  networks?: readonly string[];
  /** Text of the operations tab: an address (source or destination) or the start of an operation hash. */
  text: string;
  status?: readonly string[];
  entrypoints?: readonly string[];
  /** Time range, `from` inclusive, `to` exclusive. */
  from?: Date;
  to?: Date;
  offset: number;
  limit: number;
}

/**
 * Operation groups of one account for the operations tab's search and filters: operations the account sent or
 * received (internal ones included), one hit per group (its first matching operation, top-level first),
 * newest first.
 */
export async function searchAccountOperations(db: Db, s: AccountOperationSearch): Promise<OperationHit[]> {
  const conds = [sql`(o.source = ${s.address} OR o.destination = ${s.address})`];
  if (s.networks?.length) conds.push(sql`o.network IN (${sql.join([...s.networks])})`);
  const text = s.text.trim();
  if (text) {
    conds.push(
      /^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)
        ? sql`(o.source = ${text} OR o.destination = ${text})`
        : sql`o.hash LIKE ${`${likeEscape(text)}%`}`,
    );
  }
  if (s.status?.length) conds.push(sql`o.status::text IN (${sql.join([...s.status])})`);
  if (s.entrypoints?.length) conds.push(sql`o.entrypoint IN (${sql.join([...s.entrypoints])})`);
  if (s.from) conds.push(sql`o.timestamp >= ${s.from.toISOString()}::timestamptz`);
  if (s.to) conds.push(sql`o.timestamp < ${s.to.toISOString()}::timestamptz`);
  // the page's groups, then their totals over every operation of the group (not only the matching ones), as
  // the unfiltered list (read/opg.ts) counts them: consensus operations aside
  const rows = await sql<
    Omit<OperationHit, 'timestamp' | 'total_cost' | 'flow' | 'internals'> & {
      timestamp: Date | string;
      total_cost: string | number | null;
      flow: string | number | null;
      internals: string | number | null;
    }
  >`
    SELECT p.network, p.id, p.hash, p.counter, p.level, p.timestamp, p.kind, p.status, p.destination, p.entrypoint,
      t.total_cost, t.flow, t.internals
    FROM (
      SELECT * FROM (
        SELECT DISTINCT ON (o.network, o.hash, o.counter) o.network, o.id, o.hash, o.counter, o.level, o.timestamp,
          o.kind, o.status, o.destination, o.entrypoint
        FROM operations o WHERE ${sql.join(conds, sql` AND `)} AND o.hash IS NOT NULL
        ORDER BY o.network, o.hash, o.counter, o.internal, o.id
      ) g ORDER BY id DESC OFFSET ${s.offset} LIMIT ${s.limit}
    ) p
    LEFT JOIN LATERAL (
      SELECT sum(a.fee) + sum(a.burned) AS total_cost,
        sum(CASE WHEN a.status <> 'applied' THEN 0
          WHEN a.source = ${s.address} AND a.destination = ${s.address} THEN 0
          WHEN a.source = ${s.address} THEN -a.amount
          WHEN a.destination = ${s.address} THEN a.amount ELSE 0 END) AS flow,
        count(*) FILTER (WHERE a.internal) AS internals
      FROM operations a
      WHERE a.network = p.network AND a.hash = p.hash AND a.counter IS NOT DISTINCT FROM p.counter
        AND a.kind NOT IN ('endorsement', 'attestation', 'preendorsement', 'preattestation')
    ) t ON true
    ORDER BY p.id DESC`.execute(db);
  return rows.rows.map((r) => ({
    ...r,
    hash: r.hash ?? '',
    timestamp: toDate(r.timestamp),
    total_cost: Number(r.total_cost ?? 0),
    flow: Number(r.flow ?? 0),
    internals: Number(r.internals ?? 0),
  }));
}

export interface KeyHit {
  network: string;
  ptr: number;
  key_hash: string;
  key: unknown;
  removed: boolean;
  last_update_time: Date;
  contract: string;
}

/**
 * Big-map keys whose key hash is one of `keyHashes` (the query itself when it is a key hash, or the hashes of
 * the query packed as the key types it can be: string, address, int…), newest first.
 */
export async function searchBigMapKeys(
  db: Db,
  keyHashes: readonly string[],
  networks: readonly string[] | undefined,
  limit: number,
  f: { ptr?: number; activeOnly?: boolean } = {},
): Promise<KeyHit[]> {
  if (keyHashes.length === 0) return [];
  const r = await sql<KeyRow>`SELECT * FROM ${keysCall({ keyHashes, networks, limit, ...f })}`.execute(db);
  return r.rows.map(keyHit);
}

export interface KeyLookup {
  keyHashes: readonly string[];
  networks: readonly string[] | undefined;
  limit: number;
  ptr?: number;
  activeOnly?: boolean;
}

type KeyRow = Omit<KeyHit, 'last_update_time'> & { last_update_time: Date | string };
const keyHit = (r: KeyRow): KeyHit => ({
  network: r.network,
  ptr: Number(r.ptr),
  key_hash: r.key_hash,
  key: r.key,
  removed: r.removed,
  last_update_time: toDate(r.last_update_time),
  contract: r.contract,
});

/** The function `search_big_map_keys` (migration 0100): newest first, one generic plan per connection. */
const keysCall = (k: KeyLookup) =>
  sql`search_big_map_keys(${[...k.keyHashes]}::text[], ${list(k.networks)}::text[], ${k.ptr ?? null}::bigint,
    ${k.activeOnly === true}, ${k.limit}::integer)`;

/**
 * The function `search_suggest_page` (migration 0100): documents (src 0), then big-map keys (src 1); a named
 * prepared statement on PostgreSQL (read/prepared.ts: parsed once per connection).
 */
const SUGGEST_READS = `${PREPARED} SELECT * FROM search_suggest_page($1, $2, $3, $4, $5::text[], $6, $7::text[], $8::text[],
  $9::integer, $10::integer, $11::integer, $12::integer, $13::text[], $14::bigint, $15, $16::integer)`;

/**
 * A suggestion's big-map keys (searchBigMapKeys) and documents (searchDocuments with `rankWindow`) in one
 * statement: one round trip instead of two.
 */
export async function suggestReads(
  db: Db,
  keys: KeyLookup,
  docs: DocSearch & { rankWindow: number },
): Promise<{ keys: KeyHit[]; docs: SearchDocHit[] }> {
  // a fixed text (no query builder: compiling one cost more Node CPU than the rest of the call)
  const r = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(SUGGEST_READS, [
      ...suggestParams(docs),
      [...keys.keyHashes],
      keys.ptr ?? null,
      keys.activeOnly === true,
      keys.limit,
    ]),
  );
  const out = { keys: [] as KeyHit[], docs: [] as SearchDocHit[] };
  for (const x of r.rows) {
    if (Number(x.src) === 0) out.docs.push(docHit(x));
    else
      out.keys.push(
        keyHit({
          network: x.network as string,
          ptr: x.ptr as number,
          key_hash: x.key_hash as string,
          key: x.bkey,
          removed: x.removed as boolean,
          last_update_time: x.updated as Date | string,
          contract: x.contract as string,
        }),
      );
  }
  return out;
}

export interface AccountAliases {
  network: string;
  address: string;
  /** The contract's own name: its TZIP-16 contract metadata `name` (a token's name is not the contract's). */
  metadata?: string;
}

/** {@link aliasOf} for several accounts in one statement (the accounts of a search page). */
export async function aliasesOf(
  db: Db,
  accounts: ReadonlyArray<{ network: string; address: string }>,
): Promise<AccountAliases[]> {
  if (accounts.length === 0) return [];
  const r = await sql<{ network: string; address: string; metadata: string | null }>`
    SELECT a.network, a.address,
      (SELECT c.name FROM contract_metadata c
        WHERE c.network = a.network AND c.address = a.address AND c.name IS NOT NULL) AS metadata
    FROM unnest(${accounts.map((a) => a.network)}::text[], ${accounts.map((a) => a.address)}::text[])
      AS a(network, address)`.execute(db);
  return r.rows.map((x) => ({
    network: x.network,
    address: x.address,
    ...(x.metadata !== null ? { metadata: x.metadata } : {}),
  }));
}

/** The keys of one big map for the search service's big-map filter (the keys tab of the BCD frontend). */
export interface BigMapKeyListing {
  networks: readonly string[];
  ptr: number;
  /** Only keys currently present (not removed). */
  activeOnly: boolean;
  /**
   * '' lists every key; otherwise the keys whose hash is one of `keyHashes` or whose readable text (`key_text`,
   * or the key JSON when that is unknown) contains `text`.
   */
  text: string;
  keyHashes: readonly string[];
  size: number;
  offset: number;
  /** Count the matches (up to SEARCH_TOTAL_CAP); false: `total` is 0. */
  count: boolean;
}

/** Keys of one big map, newest first (as `GET /bigmap/{network}/{ptr}/keys`), and how many match. */
export async function bigMapKeysOf(
  db: Db,
  q: BigMapKeyListing,
): Promise<{ total: number; hits: Array<KeyHit & { matched: 'key_hash' | 'text' | null }> }> {
  if (q.networks.length === 0) return { total: 0, hits: [] };
  const like = `%${likeEscape(q.text)}%`;
  const hashes = [...q.keyHashes];
  const matched =
    q.text === ''
      ? sql`NULL::text`
      : sql`CASE WHEN s.key_hash = ANY (${hashes}::text[]) THEN 'key_hash' ELSE 'text' END`;
  const where = sql`s.network IN (${sql.join([...q.networks])}) AND s.ptr = ${q.ptr}
    ${q.activeOnly ? sql`AND NOT s.removed` : sql``}
    ${
      q.text === ''
        ? sql``
        : sql`AND (s.key_hash = ANY (${hashes}::text[]) OR s.key_text ILIKE ${like}
            OR (s.key_text IS NULL AND s.key::text ILIKE ${like}))`
    }`;
  const [count, rows] = await Promise.all([
    q.count
      ? sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM big_map_states s WHERE ${where}
          LIMIT ${SEARCH_TOTAL_CAP}) x`.execute(db)
      : { rows: [] },
    sql<KeyRow & { matched: 'key_hash' | 'text' | null }>`
      SELECT s.network, s.ptr, s.key_hash, s.key, s.removed, s.last_update_time, s.contract, ${matched} AS matched
      FROM big_map_states s WHERE ${where}
      ORDER BY s.level DESC, s.id DESC, s.network LIMIT ${q.size} OFFSET ${q.offset}`.execute(db),
  ]);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    hits: rows.rows.map((r) => ({ ...keyHit(r), matched: r.matched })),
  };
}

/**
 * The name of an address: its TZIP-16 contract metadata `name`. The names of its tokens (TZIP-12/21) are
 * theirs, not the contract's: a token's name never names the contract (issue 33).
 */
export async function aliasOf(db: Db, network: string, address: string): Promise<{ metadata?: string }> {
  const meta = await db
    .selectFrom('contract_metadata')
    .select('name')
    .where('network', '=', network)
    .where('address', '=', address)
    .where('name', 'is not', null)
    .executeTakeFirst();
  return meta?.name ? { metadata: meta.name } : {};
}

/** Mime types seen in resolved token metadata (`formats[].mimeType`). */
export async function tokenMimeTypes(db: Db, limit = 500): Promise<string[]> {
  const r = await sql<{ m: string }>`
    SELECT DISTINCT f->>'mimeType' AS m
    FROM token_metadata t, jsonb_array_elements(CASE WHEN jsonb_typeof(t.metadata->'formats') = 'array' THEN t.metadata->'formats' ELSE '[]'::jsonb END) f
    WHERE t.status = 3 AND f->>'mimeType' IS NOT NULL
    ORDER BY 1 LIMIT ${limit}`.execute(db);
  return r.rows.map((x) => x.m);
}

/** A token of a search page: its network, contract and decimal id. */
export interface TokenRef {
  network: string;
  contract: string;
  tokenId: string;
}

/** The resolved metadata (TZIP-12/21 JSON, untrusted) of the tokens of a search page, in one statement. */
export async function tokenMetadataOf(
  db: Db,
  tokens: readonly TokenRef[],
): Promise<Array<TokenRef & { metadata: unknown }>> {
  const refs = tokens.filter((t) => /^\d{1,78}$/.test(t.tokenId));
  if (refs.length === 0) return [];
  const r = await sql<{ network: string; contract: string; token_id: string; metadata: unknown }>`
    SELECT t.network, t.contract, t.token_id::text AS token_id, t.metadata
    FROM token_metadata t
    JOIN unnest(${refs.map((x) => x.network)}::text[], ${refs.map((x) => x.contract)}::text[],
      ${refs.map((x) => x.tokenId)}::numeric[]) AS q(network, contract, token_id)
      ON t.network = q.network AND t.contract = q.contract AND t.token_id = q.token_id
    WHERE t.status = 3 AND t.metadata IS NOT NULL`.execute(db);
  return r.rows.map((x) => ({
    network: x.network,
    contract: x.contract,
    tokenId: x.token_id,
    metadata: x.metadata,
  }));
}
