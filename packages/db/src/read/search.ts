/**
 * Search over the index: documents (contracts, constants, rollups, tokens, contract metadata), big-map keys by
 * hash, a suggestion's reads of both, and one big map's keys for the big-map filter. Operations are searched in
 * search-operations.ts; a search page's names and token metadata are read in search-enrichment.ts.
 */
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../schema';
import { toDate } from './contracts';
import { likeEscape } from './export';
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
  /**
   * /search: when more than this many documents match, rank a bounded window of them instead of every match
   * (a broad word matched tens of thousands of token documents, each ranked: 75 ms of PostgreSQL per request
   * at 10,000,000 operations, issue 36). The window is `rankWindow`'s strategies with this many candidates per
   * strategy (or the page's end, if deeper; at most SEARCH_TOTAL_CAP) and as many of each word's newest
   * documents; the total is still counted. In such a window a contract's `contract` and `contract_metadata`
   * documents may both be hits (as in a suggestion): up to twice `size` hits are returned for the caller to
   * merge. A document matched only by a fragment inside a title word (`title ILIKE '%q%'`), which ranks last,
   * is then not listed. A window that holds fewer hits than the page should show is dropped for the full ranking.
   */
  rankBound?: number;
  /**
   * With `rankBound`: the count of this search, known from an earlier call (the caller keeps counts above the
   * bound for a while: counting a broad word's matches is most of its cost); not counted again.
   */
  knownTotal?: number;
  /** Token documents only, whose resolved metadata has one of each given list (Tokens tab filters). */
  tokens?: TokenFilters;
  /**
   * Contract documents only (`contract`, `contract_metadata`), of contracts whose script hash has a verified
   * source (issue 38; any network's submission: same-script contracts inherit it). An empty text lists them
   * all, newest first. Not ranked by `rankWindow` (a suggestion reads them as /search does).
   */
  verified?: boolean;
}

/** `d` (a search document) is a contract whose script has a verified source (`verified_sources`, issue 38). */
const verifiedSql = sql`AND d.kind IN ('contract', 'contract_metadata') AND EXISTS (SELECT 1 FROM contracts c
    WHERE c.network = d.network AND c.address = d.key
      AND EXISTS (SELECT 1 FROM verified_sources v WHERE v.script_hash = c.script_hash AND v.status = 'verified'))`;

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
  const contains = `%${likeEscape(q.query)}%`;
  // the key as a prefix: a range of `search_documents_key_lower` (as suggestions read it), not ILIKE, which
  // reads the key's trigrams: an address prefix's "KT1" trigrams are in every contract's key (issue 36)
  const keyPrefix = (
    t: 'd' | 'm',
  ) => sql`(lower(${sql.ref(`${t}.key`)}) COLLATE "C" >= lower(${q.query}) COLLATE "C"
      AND lower(${sql.ref(`${t}.key`)}) COLLATE "C" < (lower(${q.query}) || chr(1114111)) COLLATE "C")`;
  const matches = (t: 'd' | 'm') => sql`(
      ${keyPrefix(t)}
      OR ${sql.ref(`${t}.title`)} ILIKE ${contains}
      ${tsq ? sql`OR ${sql.ref(`${t}.tsv`)} @@ to_tsquery('simple', ${tsq})` : sql``}
    )`;
  // with token filters an empty text lists every token that passes them; with `verified` every verified contract
  const text = q.query === '' && (q.tokens || q.verified) ? sql`TRUE` : matches('d');
  // One hit per contract: its `contract` document gives way to its `contract_metadata` twin when both match.
  const twinsApply =
    !q.tokens &&
    (!q.kinds?.length || (q.kinds.includes('contract') && q.kinds.includes('contract_metadata')));
  const twins = twinsApply
    ? sql`AND NOT (d.kind = 'contract' AND EXISTS (SELECT 1 FROM search_documents m
          WHERE m.network = d.network AND m.kind = 'contract_metadata' AND m.key = d.key AND ${matches('m')}))`
    : sql``;
  const where = sql`${text}
    ${q.networks?.length ? sql`AND d.network = ANY(${[...q.networks]}::text[])` : sql``}
    ${q.kinds?.length ? sql`AND d.kind = ANY(${[...q.kinds]}::text[])` : sql``}
    ${q.tokens ? tokenFilterSql(q.tokens) : sql``}
    ${q.verified ? verifiedSql : sql``}
    ${twins}`;
  // planned at each call, not prepared: a generic plan, fitted to the first calls' texts, read a broad word's
  // matches as it read an address prefix's (1-connection p50 4 → 26 ms at 10×, issue 36)
  const counted = async () =>
    Number(
      (
        await sql<{
          n: number;
        }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_documents d WHERE ${where} LIMIT ${SEARCH_TOTAL_CAP}) x`.execute(
          db,
        )
      ).rows[0]?.n ?? 0,
    );
  // the ranking of `search_suggest`: bounded index ranges (`rankWindow` candidates per strategy)
  const windowed = (w: DocSearch & { rankWindow: number }, andWindow?: number) =>
    db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${PREPARED} SELECT * FROM ${SUGGEST_CALL}`, suggestParams(w, andWindow)),
    );
  const ranked = () =>
    q.rankWindow && !q.tokens && !q.verified
      ? windowed({ ...q, rankWindow: q.rankWindow })
      : sql<Record<string, unknown>>`
      SELECT d.network, d.kind, d.key, d.title, left(d.body, 2000) AS body, d.level,
        CASE WHEN ${keyPrefix('d')} THEN 'key' WHEN d.title ILIKE ${contains} THEN 'title' ELSE 'body' END AS matched
      FROM search_documents d
      WHERE ${where}
      ORDER BY (lower(d.key) = lower(${q.query})) DESC,
        ${tsq ? sql`ts_rank(d.tsv, to_tsquery('simple', ${tsq})) DESC,` : sql``}
        similarity(d.title, ${q.query}) DESC, d.level DESC, d.id DESC
      LIMIT ${q.size} OFFSET ${q.offset}`.execute(db);
  // the matches up to `bound` + 1, counted, and ranked when there are no more: one statement where a count and a
  // ranking were two (issue 36: most searches match a few documents); the page is ranked by ids and sort keys
  // first and its texts read after, for its rows alone (as `search_bounded`, migration 0400)
  // (the matches' ids only: a broad prefix reads 501 of them to learn that it is broad, not their texts)
  //
  // A named prepared statement (one text per shape of query: with or without words, filters; values are
  // parameters): planning it was 1.2 of its 1.4 ms (1 connection, an address prefix, 10m data). It runs for the
  // narrow searches (a broad one's count is kept: `knownTotal`), and PostgreSQL keeps a generic plan only when it
  // costs no more than the custom ones.
  const boundedRanked = (bound: number) =>
    sql<Record<string, unknown>>`${sql.raw(PREPARED)}
      WITH m AS MATERIALIZED (SELECT d.id FROM search_documents d WHERE ${where} LIMIT ${bound + 1})
      SELECT c.n, p.* FROM (SELECT count(*) AS n FROM m) c
      LEFT JOIN LATERAL (
        SELECT d.network, d.kind, d.key, d.title, left(d.body, 2000) AS body, d.level,
          CASE WHEN ${keyPrefix('d')} THEN 'key' WHEN d.title ILIKE ${contains} THEN 'title' ELSE 'body' END AS matched
        FROM (SELECT x.id, lower(x.key) = lower(${q.query}) AS exact,
            ${tsq ? sql`ts_rank(x.tsv, to_tsquery('simple', ${tsq}))` : sql`0::real`} AS rnk,
            similarity(x.title, ${q.query}) AS sim, x.level AS lvl
          FROM search_documents x JOIN m ON m.id = x.id
          WHERE c.n <= ${bound}
          ORDER BY 2 DESC, 3 DESC, 4 DESC, 5 DESC, 1 DESC
          LIMIT ${q.size} OFFSET ${q.offset}) top
        JOIN search_documents d ON d.id = top.id
        ORDER BY top.exact DESC, top.rnk DESC, top.sim DESC, top.lvl DESC, top.id DESC) p ON TRUE`.execute(
      db,
    );
  if (q.rankBound !== undefined && !q.rankWindow && !q.tokens && !q.verified && q.count !== false) {
    // the count decides between ranking every match and a window of them
    let total: number;
    if (q.knownTotal !== undefined && q.knownTotal > q.rankBound) total = q.knownTotal;
    else {
      const r = ADDRESS_SHAPED.test(q.query)
        ? await db.executeQuery<Record<string, unknown>>(
            CompiledQuery.raw(SEARCH_BOUNDED, [
              q.query,
              contains,
              tsq,
              list(q.networks),
              list(q.kinds),
              twinsApply,
              q.rankBound,
              q.size,
              q.offset,
            ]),
          )
        : await boundedRanked(q.rankBound);
      total = Number(r.rows[0]?.n ?? 0);
      if (total <= q.rankBound)
        return { total, hits: r.rows.filter((x) => x.key !== null && x.key !== undefined).map(docHit) };
      total = await counted();
    }
    const window = Math.min(SEARCH_TOTAL_CAP, Math.max(q.rankBound, q.offset + q.size));
    const rows = await windowed({ ...q, size: q.size * 2, rankWindow: window }, window);
    // the window can miss a page's matches (words that are each common but rarely together, 'ghost dragon': no
    // document of either word's newest holds both): a page short of what the count promises ranks every match
    if (rows.rows.length < Math.min(q.size, total - q.offset))
      return { total, hits: (await ranked()).rows.map(docHit) };
    return { total, hits: rows.rows.map(docHit) };
  }
  const [total, rows] = await Promise.all([q.count === false ? 0 : counted(), ranked()]);
  return { total, hits: rows.rows.map(docHit) };
}

/**
 * A query shaped as an address or its prefix (at least three characters after `tz1`, `KT1`…): narrow by its
 * shape, so /search's bounded ranking of it runs as the function `search_bounded` (migration 0400, a generic plan)
 * instead of a statement planned at every call (1.0 of its 1.2 ms at 10× mainnet, issue 36).
 */
const ADDRESS_SHAPED = /^(tz[1-4]|kt1|sr1|txr1)[0-9a-z]{3,33}$/i;

const SEARCH_BOUNDED = `${PREPARED} SELECT * FROM search_bounded($1, $2, $3, $4::text[], $5::text[], $6, $7::integer,
  $8::integer, $9::integer)`;

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
function suggestParams(q: DocSearch & { rankWindow: number }, andWindow = SUGGEST_AND_WINDOW): unknown[] {
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
    andWindow,
    q.size,
    q.offset,
  ];
}

const SUGGEST_CALL = `search_suggest($1, $2, $3, $4, $5::text[], $6, $7::text[], $8::text[], $9::integer,
  $10::integer, $11::integer, $12::integer)`;

const list = (v: readonly string[] | undefined) => (v?.length ? [...v] : null);

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
  const r =
    await sql<KeyRow>`${sql.raw(PREPARED)} SELECT * FROM ${keysCall({ keyHashes, networks, limit, ...f })}`.execute(
      db,
    );
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
