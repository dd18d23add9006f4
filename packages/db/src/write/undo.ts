/**
 * Reorg safety for rows a block changes but did not create: their before-images are kept in `undo_log`
 * (one JSON array per table and block) and restored when the block is reverted. Rows a block created carry
 * its level and are deleted instead (see chain-data.ts).
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { deferred } from './copy';
import type { Database, Db } from '../schema';

type Trx = Transaction<Database>;

/** Tables with before-images, and the columns that identify a row. */
export const UNDO_KEYS = {
  accounts: ['id'],
  big_map_states: ['id'],
  tickets: ['id'],
  ticket_balances: ['network', 'ticket_id', 'account'],
  stats: ['network'],
  stats_daily: ['network', 'day'],
  contract_metadata: ['network', 'address'],
  token_metadata: ['network', 'contract', 'token_id'],
} as const;

export type UndoTable = keyof typeof UNDO_KEYS;

/**
 * Column before-images: rows a block changed in a few columns only (a protocol migration re-points contracts
 * to new scripts and pre-Babylon big-map rows to their real pointer; a backfilled block dates a row it did not
 * create from its older level, `*.first`), kept as the row's key (`id`, else `key`) + those columns and
 * restored with an UPDATE. Keyed by the `tbl` value written in undo_log (`<table>.<what>`).
 */
export const UNDO_COLUMNS = {
  'contracts.script': { table: 'contracts', key: 'id', columns: ['script_id', 'script_hash', 'tags'] },
  'big_map_diffs.ptr': { table: 'big_map_diffs', key: 'id', columns: ['ptr'] },
  'big_map_actions.ptr': { table: 'big_map_actions', key: 'id', columns: ['source_ptr', 'destination_ptr'] },
  'search_documents.body': { table: 'search_documents', key: 'id', columns: ['body'] },
  'contracts.first': {
    table: 'contracts',
    key: 'id',
    columns: ['level', 'timestamp', 'manager', 'operation_id'],
  },
  'scripts.first': { table: 'scripts', key: 'id', columns: ['level'] },
  'big_maps.first': {
    table: 'big_maps',
    key: 'ptr',
    columns: ['level', 'timestamp', 'operation_id', 'contract'],
  },
  'search_documents.first': { table: 'search_documents', key: 'id', columns: ['level'] },
} as const;

export type UndoColumns = keyof typeof UNDO_COLUMNS;

/**
 * The column before-images a revert restores before it deletes the rows carrying the block's level: a
 * migration's contracts go back to their scripts before the block's scripts are deleted, and a row a
 * backfilled block dated from its level (a contract adopted later, its script, big maps, search document)
 * takes its own level back, so that it is not deleted with the block's rows (issue 32).
 */
export const RESTORED_BEFORE_DELETE: readonly UndoColumns[] = [
  'contracts.script',
  'contracts.first',
  'scripts.first',
  'big_maps.first',
  'search_documents.first',
];

/** Records the current rows of `tbl` matching `where` (alias `t`) as the before-image of this block. */
export async function snapshot(
  trx: Trx,
  network: string,
  level: number,
  tbl: UndoTable,
  where: RawBuilder<unknown>,
): Promise<void> {
  await deferred(sql`INSERT INTO undo_log (network, level, tbl, rows)
    SELECT ${network}, ${level}, ${tbl}, jsonb_agg(to_jsonb(t)) FROM ${sql.table(tbl)} t
    WHERE t.network = ${network} AND ${where} HAVING count(*) > 0`).execute(trx);
}

/** Records `id` and the columns of `what` of the rows matching `where` (alias `t`) as this block's before-image. */
export async function snapshotColumns(
  trx: Trx,
  network: string,
  level: number,
  what: UndoColumns,
  where: RawBuilder<unknown>,
): Promise<void> {
  const { table, key, columns } = UNDO_COLUMNS[what];
  const fields = sql.join([key, ...columns].map((c) => sql`${sql.lit(c)}::text, t.${sql.ref(c)}`));
  await deferred(sql`INSERT INTO undo_log (network, level, tbl, rows)
    SELECT ${network}, ${level}, ${what}, jsonb_agg(jsonb_build_object(${fields})) FROM ${sql.table(table)} t
    WHERE t.network = ${network} AND ${where} HAVING count(*) > 0`).execute(trx);
}

/**
 * Restores the before-images of a block, newest first, and drops them; with `only`, just the entries of
 * those tables (a revert restores the contracts' scripts before it deletes the scripts the block created);
 * with `afterId`, just the entries taken after that undo_log entry (backfill-undo.ts).
 */
export async function restoreSnapshots(
  trx: Trx,
  network: string,
  level: number,
  only?: ReadonlyArray<UndoTable | UndoColumns>,
  afterId?: string,
): Promise<void> {
  const after = afterId === undefined ? sql`` : sql` AND id > ${afterId}::bigint`;
  const entries = await sql<{
    id: number;
    tbl: string;
  }>`SELECT id, tbl FROM undo_log WHERE network = ${network} AND level = ${level}${after} ORDER BY id DESC`.execute(
    trx,
  );
  for (const { id, tbl } of entries.rows) {
    if (only && !(only as readonly string[]).includes(tbl)) continue;
    if (tbl in UNDO_COLUMNS) {
      const { table, key, columns } = UNDO_COLUMNS[tbl as UndoColumns];
      const t = sql.table(table);
      const sets = sql.join(columns.map((c) => sql`${sql.ref(c)} = r.${sql.ref(c)}`));
      await deferred(sql`UPDATE ${t} t SET ${sets} FROM jsonb_populate_recordset(NULL::${t}, (SELECT rows FROM undo_log WHERE id = ${id})) r
        WHERE t.network = ${network} AND t.${sql.ref(key)} = r.${sql.ref(key)}`).execute(trx);
      continue;
    }
    if (!(tbl in UNDO_KEYS)) throw new Error(`undo_log ${id}: unknown table ${tbl}`);
    const keys = UNDO_KEYS[tbl as UndoTable];
    const t = sql.table(tbl);
    const match = sql.join(
      keys.map((k) => sql`t.${sql.ref(k)} = r.${sql.ref(k)}`),
      sql` AND `,
    );
    const rows = sql`(SELECT rows FROM undo_log WHERE id = ${id})`;
    await deferred(
      sql`DELETE FROM ${t} t USING jsonb_populate_recordset(NULL::${t}, ${rows}) r WHERE ${match}`,
    ).execute(trx);
    await deferred(sql`INSERT INTO ${t} SELECT * FROM jsonb_populate_recordset(NULL::${t}, ${rows})`).execute(
      trx,
    );
  }
  if (only || afterId !== undefined) {
    const ids = entries.rows
      .filter((e) => !only || (only as readonly string[]).includes(e.tbl))
      .map((e) => e.id);
    if (ids.length > 0)
      await deferred(sql`DELETE FROM undo_log WHERE id = ANY(${ids}::bigint[])`).execute(trx);
  } else
    await deferred(sql`DELETE FROM undo_log WHERE network = ${network} AND level = ${level}`).execute(trx);
}

/** Before-images older than this many levels below the head are dropped (deeper reorgs are not expected). */
export const UNDO_DEPTH = 1000;

/**
 * Levels below the stored head whose blocks may still be reorganised (Tenderbake: a block is final once two
 * blocks are on top of it). The history backfill writes below the forward floor only once the head is FINALITY
 * levels above it, and a backfilled block's before-images are kept only while a forward block of this window
 * was written before them (pruneBackfilled).
 */
export const FINALITY = 2;

/**
 * Drops the before-images no revert can use any more; runs for every forward block (`level`, the new head).
 * Forward blocks' images are kept UNDO_DEPTH levels. A backfilled block's (below the forward floor) serve
 * only to undo it when a forward block written before it is reverted (backfill-undo.ts
 * revertBackfilledAfter: last in, first out), so they are kept only while such a forward block is within
 * FINALITY of the head: the images taken before the first image of the non-final forward blocks are dropped,
 * and the highest id dropped is kept (history_floor.undo_pruned_id) so that a reorg deeper than that is
 * refused rather than restoring rows without those blocks (backfillUndoKept). With the head moving, that is
 * the blocks backfilled during the last FINALITY block times; a head that does not move keeps every block
 * backfilled since, which the backfill bounds by waiting (its turn's heldBackfillBlocks).
 */
export async function pruneSnapshots(trx: Trx, network: string, level: number): Promise<void> {
  await pruneBackfilled(trx, network, level);
  if (level % 100 !== 0) return;
  // a backfilled block's (below the forward range) go by pruneBackfilled's rule
  await deferred(
    sql`DELETE FROM undo_log WHERE network = ${network} AND level < ${level - UNDO_DEPTH}
      AND level >= coalesce((SELECT floor_level FROM history_floor WHERE network = ${network}), 0)`,
  ).execute(trx);
}

async function pruneBackfilled(trx: Trx, network: string, head: number): Promise<void> {
  // the first image of the forward blocks that may still be reorganised; none: nothing is known to be final
  await deferred(sql`WITH f AS (SELECT floor_level FROM history_floor WHERE network = ${network}),
    cut AS (SELECT min(u.id) AS id FROM undo_log u, f WHERE u.network = ${network}
      AND u.level > ${head - FINALITY} AND u.level >= f.floor_level),
    gone AS (DELETE FROM undo_log u USING f, cut WHERE u.network = ${network}
      AND u.level < f.floor_level AND u.id < cut.id RETURNING u.id)
    UPDATE history_floor SET undo_pruned_id = greatest(undo_pruned_id, (SELECT max(id) FROM gone))
    WHERE network = ${network} AND EXISTS (SELECT 1 FROM gone)`).execute(trx);
}

/**
 * Whether the blocks backfilled after the forward block at `level` was written still have their
 * before-images (pruneBackfilled dropped none taken after that block's first image).
 */
export async function backfillUndoKept(db: Trx | Db, network: string, level: number): Promise<boolean> {
  const r = await sql<{
    kept: boolean;
  }>`SELECT coalesce((SELECT min(id) FROM undo_log WHERE network = ${network} AND level = ${level})
      > (SELECT undo_pruned_id FROM history_floor WHERE network = ${network}), true) AS kept`.execute(db);
  return r.rows[0]?.kept ?? true;
}
