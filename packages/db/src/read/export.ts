/**
 * Exports (issue 21 part 3): every table the app lists, read in batches by keyset paging (never OFFSET), so that
 * an export of any length costs one short statement per batch and the caller holds one batch. This module holds
 * the one keyset reader; each kind's readers are in export-operations.ts (an account's operations and ticket
 * updates), export-big-maps.ts (keys, a key's updates, live entries) and export-contracts.ts (events, tokens,
 * same contracts, migrations, recently called).
 */
import type { Db } from '../schema';
import type { RawBuilder } from 'kysely';

/** Rows read per statement by the exports. */
export const EXPORT_BATCH = 500;

/**
 * The generic keyset reader: reads `limit` rows after `cursor` (null: from the start) until a short batch, each
 * batch's cursor taken from its last row. Stops when the consumer stops (its `return`).
 */
export async function* keysetBatches<R, C>(
  read: (cursor: C | null, limit: number) => Promise<R[]>,
  cursorOf: (last: R) => C,
  batch = EXPORT_BATCH,
): AsyncGenerator<R[]> {
  let cursor: C | null = null;
  for (;;) {
    const rows = await read(cursor, batch);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    cursor = cursorOf(rows[rows.length - 1]!);
  }
}

/** A LIKE pattern's text with its wildcards escaped. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** The rows of a raw query. */
export const rowsOf = async <T>(db: Db, q: RawBuilder<T>) => (await q.execute(db)).rows;
