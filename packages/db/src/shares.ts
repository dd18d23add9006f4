/**
 * @michelscope/db/shares — the one table the API writes: simulations shared by a stored id (issue 20,
 * capability 6; migrations/0220_shared_simulations.sql, 0250_shared_simulations_private_bounded.sql).
 * Content-addressed, so a write is idempotent; never listed (the id is the link's secret), never reverted.
 * Bounded by the bytes the database stores for them: past the bound the least recently opened rows are
 * deleted; each client has a quota of stored bytes per clock hour. Everything else the API reads through
 * `db/read`.
 */
import { sql } from 'kysely';
import type { Db } from './schema';

export interface ShareRow {
  id: string;
  network: string;
  address: string;
  entrypoint: string;
  /** The state's JSON text, in bytes. */
  bytes: number;
  /** What the database stores for the row (`STORED_BYTES`). */
  stored_bytes: number;
  created_at: Date;
}

/** The bounds of a write (`Infinity`: none). */
export interface ShareLimits {
  /** All stored rows together, in stored bytes: the least recently opened are deleted past it. */
  maxTotalBytes: number;
  /** Who writes (the request's address), for the quota. */
  client: string;
  /** The stored bytes of new rows one client may write in a clock hour. */
  clientBytesPerHour: number;
}

export type StoreResult =
  /** Stored now (`created`) or before (a known id keeps its row and date). */
  | { kind: 'stored'; row: ShareRow; created: boolean }
  /** The state alone takes more than the whole store: not stored. */
  | { kind: 'too-large'; storedBytes: number; maxTotalBytes: number }
  /** The client's quota of the hour would be passed: not stored. */
  | { kind: 'quota'; usedBytes: number; storedBytes: number; retryAfterSeconds: number };

/**
 * What the database stores for a row, measured on the stored row: the state's column as stored (compressed,
 * or moved out of line to TOAST: `pg_column_size` gives those bytes), its other columns, the tuple's header and
 * line pointer with its fixed columns and the two index entries (160 bytes), and the TOAST rows of a state moved
 * out of line (about 60 bytes each of its chunks of 1,996 bytes). WAL and free space are not a row's.
 */
const STORED_BYTES = sql<number>`(pg_column_size(state) + octet_length(id) + octet_length(network)
  + octet_length(address) + octet_length(entrypoint) + 160
  + CASE WHEN pg_column_size(state) > 2000 THEN ceil(pg_column_size(state) / 1996.0)::integer * 60 ELSE 0 END)`;
/** Serialises the writers of new rows (the bound's and the quota's check then write), on every API replica. */
const WRITE_LOCK = 7346234;
/** A last_opened_at this recent is not written again: reads stay reads (the eviction's order is this coarse). */
const OPENED_GRANULARITY = "interval '10 minutes'";
/** Rows deleted per round of an eviction. */
const EVICT_BATCH = 200;

const selectRow = (db: Db, id: string) =>
  db
    .selectFrom('shared_simulations')
    .select(['id', 'network', 'address', 'entrypoint', 'bytes', 'stored_bytes', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();

/** A refused write, rolled back. */
class Refused extends Error {
  constructor(readonly result: Exclude<StoreResult, { kind: 'stored' }>) {
    super(result.kind);
  }
}

/**
 * Stores a state under its id; a known id keeps its row and date and costs nothing. A new row is inserted and
 * measured (`STORED_BYTES`) in one transaction, serialised with the other writers of new rows; it is refused
 * (rolled back) when it alone takes more than `maxTotalBytes` or would take its client past
 * `clientBytesPerHour` this clock hour; then the least recently opened other rows are deleted until all
 * together take at most `maxTotalBytes`.
 */
export async function storeShare(
  db: Db,
  row: Omit<ShareRow, 'created_at' | 'stored_bytes'> & { json: string },
  limits: ShareLimits,
): Promise<StoreResult> {
  const known = await selectRow(db, row.id);
  if (known) return { kind: 'stored', row: known, created: false };
  const { json, ...fields } = row;
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`.execute(trx);
      const inserted = await trx
        .insertInto('shared_simulations')
        .values({ ...fields, state: json, stored_bytes: row.bytes })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        // written by another request since the first look
        const row2 = await selectRow(trx, row.id);
        if (row2) return { kind: 'stored' as const, row: row2, created: false };
      }
      // measured as stored (the insert has compressed or moved the state out of line)
      const { stored_bytes: storedBytes } = await trx
        .updateTable('shared_simulations')
        .set({ stored_bytes: STORED_BYTES })
        .where('id', '=', row.id)
        .returning('stored_bytes')
        .executeTakeFirstOrThrow();
      if (storedBytes > limits.maxTotalBytes)
        throw new Refused({ kind: 'too-large', storedBytes, maxTotalBytes: limits.maxTotalBytes });
      if (Number.isFinite(limits.clientBytesPerHour)) {
        await trx
          .deleteFrom('shared_simulation_quota')
          .where('hour', '<', sql<Date>`date_trunc('hour', now())`)
          .execute();
        const { bytes } = await trx
          .insertInto('shared_simulation_quota')
          .values({ client: limits.client, hour: sql<Date>`date_trunc('hour', now())`, bytes: storedBytes })
          .onConflict((oc) =>
            oc
              .columns(['client', 'hour'])
              .doUpdateSet({ bytes: sql`shared_simulation_quota.bytes + excluded.bytes` }),
          )
          .returning('bytes')
          .executeTakeFirstOrThrow();
        if (Number(bytes) > limits.clientBytesPerHour) {
          const { seconds } = await sql<{ seconds: number }>`SELECT ceil(extract(epoch FROM
            date_trunc('hour', now()) + interval '1 hour' - clock_timestamp()))::integer AS seconds`
            .execute(trx)
            .then((r) => r.rows[0]!);
          throw new Refused({
            kind: 'quota',
            usedBytes: Number(bytes) - storedBytes,
            storedBytes,
            retryAfterSeconds: Math.max(1, seconds),
          });
        }
      }
      if (Number.isFinite(limits.maxTotalBytes)) await evict(trx, row.id, limits.maxTotalBytes);
      return { kind: 'stored' as const, row: (await selectRow(trx, row.id))!, created: true };
    });
  } catch (e) {
    if (e instanceof Refused) return e.result;
    throw e;
  }
}

/** Deletes the least recently opened rows other than `keep` until all rows take at most `max` stored bytes. */
async function evict(db: Db, keep: string, max: number): Promise<void> {
  const { total } = await db
    .selectFrom('shared_simulations')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('stored_bytes'), eb.lit(0)).as('total'))
    .executeTakeFirstOrThrow();
  let excess = Number(total) - max;
  while (excess > 0) {
    const oldest = await db
      .selectFrom('shared_simulations')
      .select(['id', 'stored_bytes'])
      .where('id', '!=', keep)
      .orderBy('last_opened_at')
      .orderBy('id')
      .limit(EVICT_BATCH)
      .execute();
    if (!oldest.length) return;
    const victims: string[] = [];
    for (const r of oldest) {
      if (excess <= 0) break;
      victims.push(r.id);
      excess -= r.stored_bytes;
    }
    await db.deleteFrom('shared_simulations').where('id', 'in', victims).execute();
  }
}

/**
 * A stored state by id, or undefined; opening it renews its `last_opened_at` (written at most every ten
 * minutes, so reading a popular link does not write each time).
 */
export async function openShare(
  db: Db,
  id: string,
): Promise<{ created_at: Date; state: unknown } | undefined> {
  const row = await db
    .selectFrom('shared_simulations')
    .select([
      'created_at',
      'state',
      sql<boolean>`last_opened_at < now() - ${sql.raw(OPENED_GRANULARITY)}`.as('stale'),
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.stale)
    await db
      .updateTable('shared_simulations')
      .set({ last_opened_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
  return { created_at: row.created_at, state: row.state };
}
