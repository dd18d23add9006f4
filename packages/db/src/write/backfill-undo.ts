/**
 * Reorgs over backfilled blocks (issue 32): a block backfilled after a forward block was written changed rows
 * whose before-images that forward block took earlier; reverting it must first revert those backfilled blocks
 * (their own before-images), newest first, and have them stored again.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../schema';
import { revertBlockData } from './chain-data';
import { restoreSnapshots } from './undo';

type Trx = Transaction<Database>;

/**
 * Before a forward block at `level` is reverted: the blocks backfilled after it was written (their before-images
 * came after its) are reverted first, newest first, and queued to be stored again (history_redo): its
 * before-images do not hold what they added.
 */
export async function revertBackfilledAfter(trx: Trx, network: string, level: number): Promise<void> {
  const floor = await trx
    .selectFrom('history_floor')
    .select('floor_level')
    .where('network', '=', network)
    .executeTakeFirst();
  if (!floor || level < floor.floor_level) return;
  const since = (
    await sql<{
      id: string | null;
    }>`SELECT min(id)::text AS id FROM undo_log WHERE network = ${network} AND level = ${level}`.execute(trx)
  ).rows[0]?.id;
  if (!since) return;
  const later = await sql<{
    level: number;
    last: string;
  }>`SELECT level, max(id)::text AS last FROM undo_log WHERE network = ${network}
    AND level < ${floor.floor_level} AND id > ${since}::bigint GROUP BY level ORDER BY max(id) DESC`.execute(
    trx,
  );
  for (const { level: b, last } of later.rows) {
    // last in, first out: the forward block's images taken after this block was written (an address adopted
    // at that head, whose row this block may have counted in) are restored before this block is reverted
    await restoreSnapshots(trx, network, level, undefined, last);
    await revertBlockData(trx, network, b);
    await trx.deleteFrom('blocks').where('network', '=', network).where('level', '=', b).execute();
    await sql`INSERT INTO history_redo (network, level) VALUES (${network}, ${b}) ON CONFLICT DO NOTHING`.execute(
      trx,
    );
  }
}

/**
 * How many backfilled blocks keep before-images: a head that does not move (no forward block, so no prune)
 * keeps those of every block backfilled since, and the backfill waits past a bound (sync/backfill.ts).
 */
export async function heldBackfillBlocks(db: Db, network: string): Promise<number> {
  const r = await sql<{
    n: number;
  }>`SELECT count(DISTINCT u.level)::int AS n FROM undo_log u JOIN history_floor f ON f.network = u.network
    WHERE u.network = ${network} AND u.level < f.floor_level`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/** Levels to store again (revertBackfilledAfter). */
export async function redoLevels(db: Db, network: string): Promise<number[]> {
  const rows = await db.selectFrom('history_redo').select('level').where('network', '=', network).execute();
  return rows.map((r) => r.level);
}

export async function redone(db: Db, network: string, levels: number[]): Promise<void> {
  if (levels.length === 0) return;
  await db.deleteFrom('history_redo').where('network', '=', network).where('level', 'in', levels).execute();
}
