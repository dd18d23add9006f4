import { sql } from 'kysely';
import type { Db } from '../schema';
import { toDate } from './contracts';
import { preparedQuery } from './prepared';

export interface BigMapRow {
  ptr: number;
  contract: string;
  key_type: unknown;
  value_type: unknown;
  name: string | null;
}

export async function getBigMap(db: Db, network: string, ptr: number): Promise<BigMapRow | undefined> {
  return db
    .selectFrom('big_maps')
    .select(['ptr', 'contract', 'key_type', 'value_type', 'name'])
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .executeTakeFirst();
}

/** Big maps of a contract (for storage/rich and typing). */
export async function bigMapsOfContract(db: Db, network: string, contract: string): Promise<BigMapRow[]> {
  return db
    .selectFrom('big_maps')
    .select(['ptr', 'contract', 'key_type', 'value_type', 'name'])
    .where('network', '=', network)
    .where('contract', '=', contract)
    .orderBy('ptr')
    .execute();
}

/**
 * A big map's keys: every key ever written (`total`, removed ones included) and those not removed (`active`), with
 * its contract. Read from the counts the table keeps with its keys (big_map_key_counts, migration 0380), not
 * counted: a map of millions of keys answers as fast as an empty one.
 */
export async function bigMapKeyCounts(
  db: Db,
  network: string,
  ptr: number,
): Promise<{ total: number; active: number; contract: string | null }> {
  const row = await db
    .selectFrom('big_map_key_counts')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('total'), sql<number>`0`).as('total'),
      eb.fn.coalesce(eb.fn.sum<number>('active'), sql<number>`0`).as('active'),
      eb.fn.max('contract').as('contract'),
    ])
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('total', '>', 0)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active), contract: row.contract ?? null };
}

/**
 * The number of keys a big map had at the end of block `level`, counted as `bigMapKeyCounts`' total counts now:
 * every key written at or before it (removed ones included), from the key updates (one range of the
 * (network, ptr, level) index).
 */
export async function bigMapKeyCountAt(db: Db, network: string, ptr: number, level: number): Promise<number> {
  const row = await db
    .selectFrom('big_map_diffs')
    .select((eb) => eb.fn.count<number>('key_hash').distinct().as('total'))
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('level', '<=', level)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export interface BigMapActionRow {
  id: number;
  action: string;
  source_ptr: number | null;
  destination_ptr: number | null;
  address: string;
  level: number;
  timestamp: Date;
}

/** Actions on a big map (its own alloc/update/remove and the copies made into it), newest first. */
export async function bigMapActions(
  db: Db,
  network: string,
  ptr: number,
  limit = 1000,
): Promise<BigMapActionRow[]> {
  const rows = await db
    .selectFrom('big_map_actions')
    .select(['id', 'action', 'source_ptr', 'destination_ptr', 'address', 'level', 'timestamp'])
    .where('network', '=', network)
    .where((eb) =>
      eb.or([
        eb.and([eb('source_ptr', '=', ptr), eb('action', '!=', 'copy')]),
        eb.and([eb('destination_ptr', '=', ptr), eb('action', '=', 'copy')]),
        eb.and([eb('source_ptr', '=', ptr), eb('action', '=', 'copy')]),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, timestamp: toDate(r.timestamp) }));
}

export interface BigMapStateRow {
  id: number;
  ptr: number;
  key_hash: string;
  contract: string;
  key: unknown;
  value: unknown;
  removed: boolean;
  last_update_level: number;
  last_update_time: Date;
  count: number;
}

export interface KeysFilter {
  size: number;
  offset: number;
  minLevel?: number;
  maxLevel?: number;
  /** Only keys not removed. */
  activeOnly?: boolean;
  /** Key hash, or text contained in the readable key text (`Pair "tz1…" 1`) or the key JSON. */
  search?: string;
  /**
   * Keyset paging: the keys after this one (its key hash) in the list's order, whatever its depth (`offset` is
   * then not used). A hash that is no key of the big map gives no rows.
   */
  after?: string;
}

/** The keys after key `after` of big map `ptr` in chain order (`level DESC, id DESC`): an index range. */
const afterKey = (network: string, ptr: number, after: string) =>
  sql<boolean>`(level, id) < (SELECT a.level, a.id FROM big_map_states a
    WHERE a.network = ${network} AND a.ptr = ${ptr} AND a.key_hash = ${after})`;

/**
 * A whole key hash (`expr…`, 54 characters): a keys filter that is one is looked up as the key it names (the
 * unique index), not also as text inside other keys (its 52 trigrams cost 2 ms a request at 2,000,000 keys).
 */
export const isKeyHash = (s: string) => /^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(s);

/** Characters of the key text's trigram index a long base58 filter is looked up by ({@link keyTextProbe}). */
export const KEY_TEXT_PROBE = 5;

/**
 * The part of a keys filter the trigram index of the key text (`big_map_states_key_text_trgm`) is read for: a
 * filter of base58 only (a piece of an address, a hash, a signature) of eight characters or more is looked up by
 * its last {@link KEY_TEXT_PROBE} (undefined: by the whole text; a shorter one has few more trigrams than them). Each trigram of the filter is a list
 * of the index to read and intersect (pg_trgm lowers the case, so base58's trigrams fall on ~39,000 lists,
 * about 9,000 keys each at 10,000,000 keys); five characters of random base58 are three of them and match about
 * ten keys anywhere, which the whole text is then checked on: 12 characters of an address at 10× mainnet, 2.7 →
 * 1.2 ms of execution (issue 36; bench/RESULTS.md). The end of the text, as a piece of an address starts with
 * `tz1`/`KT1`, the most common trigrams of the index.
 */
export function keyTextProbe(search: string): string | undefined {
  return search.length > KEY_TEXT_PROBE + 2 && /^[1-9A-HJ-NP-Za-km-z]+$/.test(search)
    ? search.slice(-KEY_TEXT_PROBE)
    : undefined;
}

export async function bigMapKeys(
  db: Db,
  network: string,
  ptr: number,
  f: KeysFilter,
): Promise<BigMapStateRow[]> {
  let q = db.selectFrom('big_map_states').selectAll().where('network', '=', network).where('ptr', '=', ptr);
  if (f.minLevel !== undefined) q = q.where('last_update_level', '>=', f.minLevel);
  if (f.maxLevel !== undefined) q = q.where('last_update_level', '<', f.maxLevel);
  if (f.activeOnly) q = q.where('removed', '=', false);
  if (f.search && isKeyHash(f.search)) q = q.where('key_hash', '=', f.search);
  else if (f.search) {
    const s = f.search;
    const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const probe = keyTextProbe(s);
    // the key JSON only where the readable text is unknown (as the search's key listing, read/search.ts):
    // each arm is an index (key_hash; trigrams of key_text; of the key JSON where key_text is null, migration
    // 0330), where matching every key's JSON text was a walk of the whole big map for a rare match (2,000,000
    // keys: seconds, issue 36)
    q = q.where((eb) =>
      eb.or([
        eb('key_hash', '=', s),
        probe === undefined
          ? eb('key_text', 'ilike', like)
          : // the probe's trigrams find the candidates; the whole text is checked on them (`|| ''`: not an index
            // condition, so the index is not also read for its trigrams)
            eb.and([eb('key_text', 'ilike', `%${probe}%`), eb(sql<string>`key_text || ''`, 'ilike', like)]),
        eb.and([eb('key_text', 'is', null), eb(sql<string>`key::text`, 'ilike', like)]),
      ]),
    );
  }
  if (f.after !== undefined) q = q.where(afterKey(network, ptr, f.after));
  // chain order: the level the key first appeared at, then the order the keys of that level were stored
  const rows = await q
    .orderBy('level', 'desc')
    .orderBy('id', 'desc')
    .limit(f.size)
    .offset(f.after === undefined ? f.offset : 0)
    .execute();
  return rows.map(toState);
}

/** A key of {@link bigMapKeysPage}: the columns `GET /bigmap/…/keys` shows (not the value). */
export interface BigMapKeyRow {
  id: number;
  key_hash: string;
  key: unknown;
  removed: boolean;
  last_update_level: number;
  last_update_time: Date;
  count: number;
}

type KeysPageRow = Omit<BigMapKeyRow, 'id'> & {
  id: number | null;
  /** the level the key first appeared at (the list's order), not shown */
  first_level: number | null;
  key_type: string;
  value_type: string;
};

/**
 * A page of keys (newest update first, no filter, $3 rows from offset $4) and, in one more row (id null),
 * the big map's key and value types as JSON text, or no such row for an unknown pointer.
 */
const keysPageQuery = preparedQuery<KeysPageRow>(`
  (SELECT id, key_hash, key, removed, last_update_level, last_update_time, count, level AS first_level,
      NULL::text AS key_type, NULL::text AS value_type
    FROM big_map_states WHERE network = $1 AND ptr = $2 ORDER BY level DESC, id DESC LIMIT $3 OFFSET $4)
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, key_type::text, value_type::text
  FROM big_maps WHERE network = $1 AND ptr = $2`);

/**
 * {@link keysPageQuery} for a deep page (offset ≥ {@link DEEP_OFFSET}): the rows skipped are walked in the
 * index `(network, ptr, level DESC, id DESC)` alone (an index-only scan: ids), and only the page's rows are
 * read from the table. The plain query reads every skipped row from the table too (2,000,000-key big map,
 * issue 36: 0.1–2 s for a page deep in the map).
 */
const deepKeysPageQuery = preparedQuery<KeysPageRow>(`
  (SELECT id, key_hash, key, removed, last_update_level, last_update_time, count, level AS first_level,
      NULL::text AS key_type, NULL::text AS value_type
    FROM big_map_states WHERE id IN (
      SELECT id FROM big_map_states WHERE network = $1 AND ptr = $2 ORDER BY level DESC, id DESC LIMIT $3 OFFSET $4))
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, key_type::text, value_type::text
  FROM big_maps WHERE network = $1 AND ptr = $2`);

/**
 * {@link keysPageQuery} after a key ($4: its hash; keyset paging): the index range of the keys after it, the same
 * cost at any depth.
 */
const keysAfterQuery = preparedQuery<KeysPageRow>(`
  (SELECT id, key_hash, key, removed, last_update_level, last_update_time, count, level AS first_level,
      NULL::text AS key_type, NULL::text AS value_type
    FROM big_map_states WHERE network = $1 AND ptr = $2
      AND (level, id) < (SELECT a.level, a.id FROM big_map_states a WHERE a.network = $1 AND a.ptr = $2 AND a.key_hash = $4)
    ORDER BY level DESC, id DESC LIMIT $3)
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, key_type::text, value_type::text
  FROM big_maps WHERE network = $1 AND ptr = $2`);

/** From this offset on, pages skip rows in the index alone (deferred join; the first pages keep one scan). */
export const DEEP_OFFSET = 1000;

/**
 * {@link bigMapKeys} without filters (the keys shown, not their values) and the big map's types as JSON text
 * (the text can key a cache of what is built from it), in one statement. `from`: an offset, or the hash of the
 * key the page starts after (keyset paging, {@link KeysFilter.after}).
 */
export async function bigMapKeysPage(
  db: Db,
  network: string,
  ptr: number,
  size: number,
  from: number | { after: string },
): Promise<{ rows: BigMapKeyRow[]; types?: { key_type: string; value_type: string } }> {
  let types: { key_type: string; value_type: string } | undefined;
  const rows: Array<BigMapKeyRow & { first_level: number }> = [];
  const [query, at] =
    typeof from === 'object'
      ? [keysAfterQuery, from.after]
      : [from >= DEEP_OFFSET ? deepKeysPageQuery : keysPageQuery, from];
  for (const r of await query(db, [network, ptr, size, at])) {
    if (r.id === null) types = { key_type: r.key_type, value_type: r.value_type };
    else
      rows.push({
        first_level: Number(r.first_level),
        id: Number(r.id),
        key_hash: r.key_hash,
        key: r.key,
        removed: r.removed,
        last_update_level: r.last_update_level,
        last_update_time: toDate(r.last_update_time),
        count: Number(r.count),
      });
  }
  // UNION ALL keeps no order: the query's, again (chain order, as bigMapKeys)
  rows.sort((a, b) => b.first_level - a.first_level || b.id - a.id);
  return { rows: rows.map(({ first_level: _, ...r }) => r), types };
}

export async function bigMapKeyState(
  db: Db,
  network: string,
  ptr: number,
  keyHash: string,
): Promise<BigMapStateRow | undefined> {
  const row = await db
    .selectFrom('big_map_states')
    .selectAll()
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return row ? toState(row) : undefined;
}

function toState(r: Record<string, unknown>): BigMapStateRow {
  return {
    ...(r as unknown as BigMapStateRow),
    count: Number(r.count),
    last_update_time: toDate(r.last_update_time),
  };
}

export interface BigMapDiffRow {
  id: number;
  key: unknown;
  value: unknown;
  level: number;
  timestamp: Date;
  operation_id: number;
}

/** Updates of one key, newest first, and their total. */
export async function bigMapKeyDiffs(
  db: Db,
  network: string,
  ptr: number,
  keyHash: string,
  size: number,
  offset: number,
): Promise<{ total: number; rows: BigMapDiffRow[] }> {
  const base = db
    .selectFrom('big_map_diffs')
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('key_hash', '=', keyHash);
  const [countRow, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(['id', 'key', 'value', 'level', 'timestamp', 'operation_id'])
      .orderBy('level', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset(offset)
      .execute(),
  ]);
  return { total: Number(countRow.n), rows: rows.map((r) => ({ ...r, timestamp: toDate(r.timestamp) })) };
}

/** Current key states of the given pointers (storage/rich). */
export async function bigMapStatesOf(
  db: Db,
  network: string,
  ptrs: readonly number[],
  limit = 10_000,
): Promise<BigMapStateRow[]> {
  if (ptrs.length === 0) return [];
  const rows = await db
    .selectFrom('big_map_states')
    .selectAll()
    .where('network', '=', network)
    .where('ptr', 'in', [...ptrs])
    .where('removed', '=', false)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toState);
}

/**
 * Live (not removed) keys and values of a big map, oldest first; with `match`, only the keys whose JSON has the
 * text `equals` at `path` (e.g. the token id of a ledger key `Pair owner token_id`: path `['args', '1', 'int']`).
 */
export async function liveBigMapEntries(
  db: Db,
  network: string,
  ptr: number,
  limit: number,
  match?: { path: readonly string[]; equals: string },
): Promise<Array<{ key: unknown; value: unknown }>> {
  let q = db
    .selectFrom('big_map_states')
    .select(['key', 'value'])
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('removed', '=', false);
  if (match) q = q.where(sql<string>`key #>> ${sql.val([...match.path])}::text[]`, '=', match.equals);
  return q.orderBy('id').limit(limit).execute();
}

/**
 * The key and value types of a big map whose contract was read from the node by an address request (adopted:
 * its keys are not indexed), else undefined.
 */
export async function adoptedBigMapTypes(
  db: Db,
  network: string,
  ptr: number,
): Promise<{ key_type: unknown; value_type: unknown } | undefined> {
  const { rows } = await sql<{ key_type: unknown; value_type: unknown }>`
    SELECT m.key_type, m.value_type FROM big_maps m
    JOIN address_requests r ON r.network = m.network AND r.address = m.contract AND r.state = 'adopted' AND r.level = m.level
    WHERE m.network = ${network} AND m.ptr = ${ptr} AND m.operation_id IS NULL`.execute(db);
  return rows[0];
}
