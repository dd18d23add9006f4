/**
 * What live subscribers are told about a range of levels (db/src/live.ts): each query is restricted to the
 * subscribed addresses, big maps or operation hashes and to the levels `from < level <= to`, on the
 * `(network, level)` indexes, and bounded.
 */
import { sql } from 'kysely';
import type { Db } from '../schema';

export { decodeLiveNotice, type LiveBlockNotice, type LiveNotice, type LiveRevertNotice } from '../live';

/** Most rows one live query returns. */
export const LIVE_ROWS_MAX = 2_000;

export interface LiveOperationRow {
  level: number;
  address: string;
  hash: string;
}

/** Operation groups (by hash) of `addresses` (as source or destination) at levels in (from, to]. */
export async function liveOperations(
  db: Db,
  network: string,
  from: number,
  to: number,
  addresses: readonly string[],
): Promise<LiveOperationRow[]> {
  if (addresses.length === 0 || to <= from) return [];
  const list = sql.join(addresses.map((a) => sql`${a}`));
  const r = await sql<LiveOperationRow>`
    SELECT level, address, hash FROM (
      SELECT level, source AS address, hash, id FROM operations
        WHERE network = ${network} AND level > ${from} AND level <= ${to} AND hash IS NOT NULL AND source IN (${list})
      UNION ALL
      SELECT level, destination AS address, hash, id FROM operations
        WHERE network = ${network} AND level > ${from} AND level <= ${to} AND hash IS NOT NULL AND destination IN (${list})
    ) t GROUP BY level, address, hash ORDER BY level, address, min(id) LIMIT ${LIVE_ROWS_MAX}`.execute(db);
  return r.rows;
}

export interface LiveBigMapRow {
  level: number;
  ptr: number;
  count: number;
}

/** Number of key updates per big map of `ptrs` and level in (from, to]. */
export async function liveBigMaps(
  db: Db,
  network: string,
  from: number,
  to: number,
  ptrs: readonly number[],
): Promise<LiveBigMapRow[]> {
  if (ptrs.length === 0 || to <= from) return [];
  const r = await sql<LiveBigMapRow>`
    SELECT level, ptr, count(*)::int AS count FROM big_map_diffs
    WHERE network = ${network} AND ptr IN (${sql.join(ptrs.map((p) => sql`${p}`))}) AND level > ${from} AND level <= ${to}
    GROUP BY level, ptr ORDER BY level, ptr LIMIT ${LIVE_ROWS_MAX}`.execute(db);
  return r.rows;
}

export interface LiveStatusRow {
  hash: string;
  level: number;
  /** 'applied' when every top-level content applied, else the first other status (failed, backtracked, skipped). */
  status: string;
}

/** The stored status of each of `hashes` that is indexed (at any level up to `to`). */
export async function liveStatuses(
  db: Db,
  network: string,
  hashes: readonly string[],
  to: number,
): Promise<LiveStatusRow[]> {
  if (hashes.length === 0) return [];
  const r = await sql<LiveStatusRow>`
    SELECT hash, min(level) AS level,
      coalesce(min(status) FILTER (WHERE status <> 'applied'), 'applied') AS status
    FROM operations
    WHERE network = ${network} AND hash IN (${sql.join(hashes.map((h) => sql`${h}`))}) AND NOT internal AND level <= ${to}
    GROUP BY hash LIMIT ${LIVE_ROWS_MAX}`.execute(db);
  return r.rows;
}
