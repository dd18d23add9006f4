/**
 * @michelscope/db/shares — the one table the API writes: simulations shared by a stored id (issue 20,
 * capability 6; migrations/0220_shared_simulations.sql). Content-addressed, so a write is idempotent; rows are
 * never updated, deleted nor reverted. Everything else the API reads through `db/read`.
 */
import type { Db } from './schema';

export interface ShareRow {
  id: string;
  network: string;
  address: string;
  entrypoint: string;
  bytes: number;
  created_at: Date;
}

const selectRow = (db: Db, id: string) =>
  db
    .selectFrom('shared_simulations')
    .select(['id', 'network', 'address', 'entrypoint', 'bytes', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Stores a state under its id (a known id keeps its row and date); answers the stored row, or null when a new
 * state would take the stored ones past `maxTotalBytes` together (an approximate bound: two concurrent writes
 * may both pass it).
 */
export async function storeShare(
  db: Db,
  row: Omit<ShareRow, 'created_at'> & { json: string },
  maxTotalBytes = Infinity,
): Promise<ShareRow | null> {
  const known = await selectRow(db, row.id);
  if (known) return known;
  if (Number.isFinite(maxTotalBytes)) {
    const { total } = await db
      .selectFrom('shared_simulations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('bytes'), eb.lit(0)).as('total'))
      .executeTakeFirstOrThrow();
    if (Number(total) + row.bytes > maxTotalBytes) return null;
  }
  const { json, ...fields } = row;
  await db
    .insertInto('shared_simulations')
    .values({ ...fields, state: json })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return (await selectRow(db, row.id)) ?? null;
}

/** A stored state by id, or undefined. */
export async function getShare(
  db: Db,
  id: string,
): Promise<{ created_at: Date; state: unknown } | undefined> {
  return db
    .selectFrom('shared_simulations')
    .select(['created_at', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A page of stored states, newest first (optionally of one network). */
export async function listShares(
  db: Db,
  p: { network?: string | undefined; offset: number; size: number },
): Promise<ShareRow[]> {
  let q = db
    .selectFrom('shared_simulations')
    .select(['id', 'network', 'address', 'entrypoint', 'bytes', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(p.offset)
    .limit(p.size);
  if (p.network) q = q.where('network', '=', p.network);
  return q.execute();
}
