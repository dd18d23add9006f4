import type { Db } from '../schema';
import { toDate } from './contracts';
import { preparedQuery } from './prepared';

/** How a big-map key differs between two levels. */
export type KeyChange = 'added' | 'changed' | 'removed';

/** A key whose value differs between two levels: its value at the end of each (null: absent or removed). */
export interface KeyChangeRow {
  key_hash: string;
  key: unknown;
  change: KeyChange;
  /** Value at the end of the older level (null when the key was absent or removed then). */
  from_value: unknown;
  /** Value at the end of the newer level (null when absent or removed). */
  to_value: unknown;
  /** Level of the key's last write at or before the newer level. */
  level: number;
  timestamp: Date;
}

export interface KeyChangeCounts {
  added: number;
  changed: number;
  removed: number;
}

export interface KeyChangesPage {
  counts: KeyChangeCounts;
  rows: KeyChangeRow[];
}

/**
 * Keys written in (from, to], with the first and last diff id of each; the value at `from` is the key's last
 * diff before the first (big_map_diffs_ptr_key, one index probe), the value at `to` its last diff in the range
 * (primary key). Keys whose value is the same at both ends (set back, or added then removed) are left out.
 * Rows are classified, counted per class (window) and paged in SQL: the work grows with the number of keys
 * written in the range, never with the big map's size or history. Before Babylon every contract's big map has
 * pointer -1: the `contract` condition ($6) keeps the contract's own keys (NULL for a real pointer).
 */
const keyChangesQuery = preparedQuery<{
  key_hash: string;
  key: unknown;
  change: KeyChange;
  from_value: unknown;
  to_value: unknown;
  level: number;
  timestamp: unknown;
  added: string | number;
  changed: string | number;
  removed: string | number;
}>(`
  WITH written AS (
    SELECT key_hash, min(id) AS first_id, max(id) AS last_id
    FROM big_map_diffs
    WHERE network = $1 AND ptr = $2 AND level > $3 AND level <= $4 AND ($5::text IS NULL OR contract = $5)
    GROUP BY key_hash
  ), ends AS (
    SELECT w.key_hash, n.key, n.value AS to_value, n.level, n.timestamp, o.found, o.value AS from_value
    FROM written w
    JOIN big_map_diffs n ON n.id = w.last_id
    LEFT JOIN LATERAL (
      SELECT true AS found, d.value FROM big_map_diffs d
      WHERE d.network = $1 AND d.ptr = $2 AND d.key_hash = w.key_hash AND d.id < w.first_id
        AND ($5::text IS NULL OR d.contract = $5)
      ORDER BY d.id DESC LIMIT 1
    ) o ON true
  ), classified AS (
    SELECT key_hash, key, from_value, to_value, level, timestamp,
      CASE
        WHEN from_value IS NULL AND to_value IS NULL THEN NULL
        WHEN from_value IS NULL THEN 'added'
        WHEN to_value IS NULL THEN 'removed'
        WHEN from_value = to_value THEN NULL
        ELSE 'changed'
      END AS change
    FROM ends
  ), counted AS (
    SELECT *,
      count(*) FILTER (WHERE change = 'added') OVER () AS added,
      count(*) FILTER (WHERE change = 'changed') OVER () AS changed,
      count(*) FILTER (WHERE change = 'removed') OVER () AS removed
    FROM classified WHERE change IS NOT NULL
  )
  SELECT * FROM counted
  WHERE $6::text IS NULL OR change = $6
  ORDER BY level DESC, key_hash
  LIMIT $7 OFFSET $8`);

/** Counts only (no rows): the same classification as {@link keyChangesQuery}. */
const keyChangeCountsQuery = preparedQuery<{ change: KeyChange; n: string | number }>(`
  WITH written AS (
    SELECT key_hash, min(id) AS first_id, max(id) AS last_id
    FROM big_map_diffs
    WHERE network = $1 AND ptr = $2 AND level > $3 AND level <= $4 AND ($5::text IS NULL OR contract = $5)
    GROUP BY key_hash
  ), ends AS (
    SELECT n.value AS to_value, o.value AS from_value
    FROM written w
    JOIN big_map_diffs n ON n.id = w.last_id
    LEFT JOIN LATERAL (
      SELECT d.value FROM big_map_diffs d
      WHERE d.network = $1 AND d.ptr = $2 AND d.key_hash = w.key_hash AND d.id < w.first_id
        AND ($5::text IS NULL OR d.contract = $5)
      ORDER BY d.id DESC LIMIT 1
    ) o ON true
  )
  SELECT change, count(*) AS n FROM (
    SELECT CASE
        WHEN from_value IS NULL AND to_value IS NULL THEN NULL
        WHEN from_value IS NULL THEN 'added'
        WHEN to_value IS NULL THEN 'removed'
        WHEN from_value = to_value THEN NULL
        ELSE 'changed'
      END AS change
    FROM ends
  ) c WHERE change IS NOT NULL GROUP BY change`);

export interface KeyChangesOptions {
  /** Older level (exclusive: the state at its end). */
  from: number;
  /** Newer level (inclusive). */
  to: number;
  size: number;
  offset: number;
  /** Only keys of this class (the counts stay those of every class). */
  change?: KeyChange;
}

/**
 * The keys of big map `ptr` whose value at the end of level `to` differs from the one at the end of level
 * `from` (`from` < `to`), newest write first, with the number of keys added, changed and removed.
 */
export async function bigMapKeyChanges(
  db: Db,
  network: string,
  ptr: number,
  contract: string,
  o: KeyChangesOptions,
): Promise<KeyChangesPage> {
  const owner = ptr < 0 ? contract : null;
  const rows = await keyChangesQuery(db, [
    network,
    ptr,
    o.from,
    o.to,
    owner,
    o.change ?? null,
    o.size,
    o.offset,
  ]);
  let counts: KeyChangeCounts;
  if (rows[0]) {
    counts = {
      added: Number(rows[0].added),
      changed: Number(rows[0].changed),
      removed: Number(rows[0].removed),
    };
  } else {
    // an empty page (past the end, or a class without keys): the counts come from their own statement
    counts = await bigMapKeyChangeCounts(db, network, ptr, contract, o.from, o.to);
  }
  return {
    counts,
    rows: rows.map((r) => ({
      key_hash: r.key_hash,
      key: r.key,
      change: r.change,
      from_value: r.from_value,
      to_value: r.to_value,
      level: Number(r.level),
      timestamp: toDate(r.timestamp),
    })),
  };
}

/** The number of keys of big map `ptr` added, changed and removed between the ends of two levels. */
export async function bigMapKeyChangeCounts(
  db: Db,
  network: string,
  ptr: number,
  contract: string,
  from: number,
  to: number,
): Promise<KeyChangeCounts> {
  const counts: KeyChangeCounts = { added: 0, changed: 0, removed: 0 };
  for (const r of await keyChangeCountsQuery(db, [network, ptr, from, to, ptr < 0 ? contract : null]))
    counts[r.change] = Number(r.n);
  return counts;
}

const storageAsOfQuery = preparedQuery<{ level: number; storage: unknown }>(`
  SELECT level, storage FROM operations
  WHERE network = $1 AND destination = $2 AND status = 'applied' AND storage IS NOT NULL
    AND id < COALESCE(
      (SELECT id FROM operations WHERE network = $1 AND level > $3 ORDER BY level, id LIMIT 1),
      9223372036854775807)
  ORDER BY id DESC LIMIT 1`);

/**
 * The contract's stored storage at the end of block `level`: that of its last applied operation with a stored
 * storage at or before the level (undefined before its origination, or when none is stored). Operation ids
 * grow with the level (a reverted block's rows are deleted, its replacement's get new ids), so "at or before
 * the level" is "below the first id of the next level" (the lowest id of that level: any other of its rows would
 * let its earlier calls in): one probe of operations_level, then the
 * first row of operations_destination_applied backwards, however many calls came after the level.
 */
export async function storageAsOf(
  db: Db,
  network: string,
  address: string,
  level: number,
): Promise<{ level: number; storage: unknown } | undefined> {
  const [row] = await storageAsOfQuery(db, [network, address, level]);
  return row ? { level: Number(row.level), storage: row.storage } : undefined;
}
