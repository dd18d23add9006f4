/**
 * Reorg safety for rows a block changes but did not create: their before-images are kept in `undo_log`
 * (one JSON array per table and block) and restored when the block is reverted. Rows a block created carry
 * its level and are deleted instead (see chain-data.ts).
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { deferred } from './copy';
import type { Database } from '../schema';

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

export async function pruneSnapshots(trx: Trx, network: string, level: number): Promise<void> {
  if (level % 100 !== 0) return;
  // a backfilled block's (below the forward range) go with the forward ones written before them
  await deferred(
    sql`DELETE FROM undo_log WHERE network = ${network} AND level < ${level - UNDO_DEPTH}
      AND id < (SELECT coalesce(min(id), 0) FROM undo_log WHERE network = ${network} AND level >= ${level - UNDO_DEPTH})`,
  ).execute(trx);
}
