/** Exports of a big map's keys, one key's updates and its live entries, in keyset batches (export.ts). */
import { sql } from 'kysely';
import type { Db } from '../schema';
import { toDate } from './contracts';
import { EXPORT_BATCH, keysetBatches, likeEscape, rowsOf } from './export';
import { isKeyHash } from './big-maps';

/** A key of a big map as exported (`GET /bigmap/{network}/{ptr}/keys/export`). */
export interface ExportKeyRow {
  id: number;
  key_hash: string;
  key: unknown;
  value: unknown;
  removed: boolean;
  last_update_level: number;
  last_update_time: Date;
  count: number;
}

/** The big-map keys list's filters (`GET /bigmap/{network}/{ptr}/keys`). */
export interface ExportKeyFilters {
  minLevel?: number | undefined;
  maxLevel?: number | undefined;
  activeOnly?: boolean | undefined;
  /** Key hash, or text contained in the readable key text or the key JSON. */
  search?: string | undefined;
}

/** Keys of a big map in the list's order (the level a key first appeared at, then id; both desc). */
export async function* bigMapKeysAll(
  db: Db,
  network: string,
  ptr: number,
  f: ExportKeyFilters,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportKeyRow[]> {
  const like = f.search ? `%${likeEscape(f.search)}%` : null;
  const batches = keysetBatches(
    async (before: { level: number; id: number } | null, limit) =>
      (
        await rowsOf(
          db,
          sql<ExportKeyRow & { level: number }>`SELECT id, level, key_hash, key, value, removed,
          last_update_level, last_update_time, count
        FROM big_map_states WHERE network = ${network} AND ptr = ${ptr}
          ${before ? sql`AND (level, id) < (${before.level}, ${before.id})` : sql``}
          ${f.minLevel !== undefined ? sql`AND last_update_level >= ${f.minLevel}` : sql``}
          ${f.maxLevel !== undefined ? sql`AND last_update_level < ${f.maxLevel}` : sql``}
          ${f.activeOnly ? sql`AND NOT removed` : sql``}
          ${
            f.search && isKeyHash(f.search)
              ? sql`AND key_hash = ${f.search}`
              : f.search
                ? sql`AND (key_hash = ${f.search} OR key_text ILIKE ${like}
                  OR (key_text IS NULL AND key::text ILIKE ${like}))`
                : sql``
          }
        ORDER BY level DESC, id DESC LIMIT ${limit}`,
        )
      ).map(({ level, ...r }) => ({
        row: {
          ...r,
          id: Number(r.id),
          count: Number(r.count),
          last_update_time: toDate(r.last_update_time),
        },
        level: Number(level),
      })),
    (r) => ({ level: r.level, id: r.row.id }),
    batch,
  );
  for await (const rows of batches) yield rows.map((r) => r.row);
}

/** An update of one key as exported (`GET /bigmap/{network}/{ptr}/keys/{key_hash}/export`). */
export interface ExportKeyDiffRow {
  id: number;
  level: number;
  timestamp: Date;
  key: unknown;
  value: unknown;
  operation_hash: string | null;
}

/** Updates of one key, newest first (level desc, id desc, as the history page), by (level, id). */
export function bigMapKeyDiffsAll(
  db: Db,
  network: string,
  ptr: number,
  keyHash: string,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportKeyDiffRow[]> {
  return keysetBatches(
    async (after: { level: number; id: number } | null, limit) =>
      (
        await rowsOf(
          db,
          sql<ExportKeyDiffRow>`SELECT d.id, d.level, d.timestamp, d.key, d.value, o.hash AS operation_hash
        FROM big_map_diffs d LEFT JOIN operations o ON o.id = d.operation_id
        WHERE d.network = ${network} AND d.ptr = ${ptr} AND d.key_hash = ${keyHash}
          ${after ? sql`AND (d.level, d.id) < (${after.level}, ${after.id})` : sql``}
        ORDER BY d.level DESC, d.id DESC LIMIT ${limit}`,
        )
      ).map((r) => ({ ...r, id: Number(r.id), timestamp: toDate(r.timestamp) })),
    (r) => ({ level: r.level, id: r.id }),
    batch,
  );
}

/**
 * Live keys and values of a big map, oldest first, by id; with `match`, only the keys whose JSON has the text
 * `equals` at `path` (the token id of a ledger key).
 */
export function liveBigMapEntriesAll(
  db: Db,
  network: string,
  ptr: number,
  match: { path: readonly string[]; equals: string } | undefined,
  batch = EXPORT_BATCH,
): AsyncGenerator<Array<{ id: number; key: unknown; value: unknown }>> {
  return keysetBatches(
    async (after: number | null, limit) =>
      (
        await rowsOf(
          db,
          sql<{ id: number; key: unknown; value: unknown }>`SELECT id, key, value FROM big_map_states
        WHERE network = ${network} AND ptr = ${ptr} AND NOT removed AND id > ${after ?? 0}
          ${match ? sql`AND key #>> ${[...match.path]}::text[] = ${match.equals}` : sql``}
        ORDER BY id LIMIT ${limit}`,
        )
      ).map((r) => ({ ...r, id: Number(r.id) })),
    (r) => r.id,
    batch,
  );
}
