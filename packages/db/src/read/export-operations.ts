/** Exports of an account's operations and of its ticket updates, in keyset batches (export.ts). */
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../schema';
import { toDate } from './contracts';
import { EXPORT_BATCH, keysetBatches, likeEscape, rowsOf } from './export';

/** The columns of an exported operation (`GET /contract/{network}/{address}/operations/export`). */
export interface ExportOperationRow {
  id: number;
  level: number;
  timestamp: Date;
  hash: string | null;
  counter: number | null;
  content_index: number;
  internal: boolean;
  kind: string;
  status: string;
  source: string | null;
  destination: string | null;
  entrypoint: string | null;
  amount: string;
  fee: string;
  burned: string;
  consumed_gas: string;
  storage_size: string;
  paid_storage_size_diff: string;
}

export interface ExportOperationFilters {
  /** Only these statuses (empty: any). */
  statuses: readonly string[];
  /** Only calls of these entrypoints (empty: any). */
  entrypoints: readonly string[];
  /** Timestamps in [from, to) (ms since the epoch; null: unbounded). */
  from: number | null;
  to: number | null;
  /**
   * The operations tab's search text: an address (the other side: source or destination) or the start of an
   * operation group hash; empty: none.
   */
  text?: string;
}

const ADDRESS = /^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/;

const COLUMNS = `id, level, timestamp, hash, counter, content_index, internal, kind, status, source, destination,
  entrypoint, amount::text AS amount, fee::text AS fee, burned::text AS burned, consumed_gas::text AS consumed_gas,
  storage_size::text AS storage_size, paid_storage_size_diff::text AS paid_storage_size_diff`;
const FILTERS = `AND id < $3
  AND (cardinality($4::text[]) = 0 OR status = ANY($4::text[]))
  AND (cardinality($5::text[]) = 0 OR entrypoint = ANY($5::text[]))
  AND ($6::timestamptz IS NULL OR timestamp >= $6) AND ($7::timestamptz IS NULL OR timestamp < $7)
  AND ($9::text IS NULL OR source = $9 OR destination = $9)
  AND ($10::text IS NULL OR hash LIKE $10)`;

/**
 * One batch of an account's operations (as source or destination), newest first, below operation id $3: each
 * side by its own index (operations_source_rows, operations_destination_rows: network, address, id), so a batch reads
 * about `limit` rows of each whatever the account's size. An operation of the account to itself comes once.
 */
/**
 * Not a prepared statement: with a generic plan the optional filters (`cardinality($4) = 0 OR …`) hide which
 * index fits, and PostgreSQL chose (network, destination, entrypoint) and a sort, reading the account's whole
 * history for every batch (234 s for 1,000,000 rows); planned with the values, it walks (network, destination,
 * id) from the cursor.
 */
const BATCH_SQL = `
  SELECT ${COLUMNS} FROM operations WHERE id IN (
    (SELECT id FROM operations WHERE network = $1 AND source = $2 ${FILTERS} ORDER BY id DESC LIMIT $8)
    UNION
    (SELECT id FROM operations WHERE network = $1 AND destination = $2 ${FILTERS} ORDER BY id DESC LIMIT $8)
  ) ORDER BY id DESC LIMIT $8`;
const batchQuery = async (db: Db, params: unknown[]) =>
  (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(BATCH_SQL, params))).rows;

export async function accountOperationsBatch(
  db: Db,
  network: string,
  address: string,
  f: ExportOperationFilters,
  beforeId: number,
  limit: number,
): Promise<ExportOperationRow[]> {
  const text = f.text?.trim() ?? '';
  const rows = await batchQuery(db, [
    network,
    address,
    beforeId,
    [...f.statuses],
    [...f.entrypoints],
    f.from === null ? null : new Date(f.from).toISOString(),
    f.to === null ? null : new Date(f.to).toISOString(),
    limit,
    text && ADDRESS.test(text) ? text : null,
    text && !ADDRESS.test(text) ? `${likeEscape(text)}%` : null,
  ]);
  return rows.map((r) => ({
    ...(r as unknown as ExportOperationRow),
    id: Number(r.id),
    level: Number(r.level),
    counter: r.counter === null ? null : Number(r.counter),
    timestamp: toDate(r.timestamp),
  }));
}

/**
 * Every matching operation of an account, newest first, in batches of `batch` rows (keyset paging by id): the
 * caller holds one batch at a time.
 */
export function accountOperationsAll(
  db: Db,
  network: string,
  address: string,
  f: ExportOperationFilters,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportOperationRow[]> {
  return keysetBatches(
    (before: number | null, limit) =>
      accountOperationsBatch(db, network, address, f, before ?? Number.MAX_SAFE_INTEGER, limit),
    (r) => r.id,
    batch,
  );
}

/** A ticket update as exported. */
export interface ExportTicketUpdateRow {
  id: number;
  level: number;
  timestamp: Date;
  operation_hash: string | null;
  ticketer: string;
  ticket_id: number;
  content_type: unknown;
  content: unknown;
  account: string;
  amount: string;
}

/**
 * Updates of the tickets an account holds or issued, newest first (id desc, as its ticket updates tab): the
 * holder's range and the ticketer's tickets' range, each from the cursor.
 */
export function accountTicketUpdatesAll(
  db: Db,
  network: string,
  address: string,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportTicketUpdateRow[]> {
  return keysetBatches(
    async (before: number | null, limit) => {
      const b = before ?? Number.MAX_SAFE_INTEGER;
      const rows = await rowsOf(
        db,
        sql<ExportTicketUpdateRow>`SELECT u.id, u.level, u.timestamp, o.hash AS operation_hash, t.ticketer,
          u.ticket_id, t.content_type, t.content, u.account, u.amount::text AS amount
        FROM ticket_updates u JOIN tickets t ON t.id = u.ticket_id LEFT JOIN operations o ON o.id = u.operation_id
        WHERE u.id IN (
          (SELECT id FROM ticket_updates WHERE network = ${network} AND account = ${address} AND id < ${b}
            ORDER BY id DESC LIMIT ${limit})
          UNION
          (SELECT x.id FROM ticket_updates x JOIN tickets y ON y.id = x.ticket_id
            WHERE y.network = ${network} AND y.ticketer = ${address} AND x.network = ${network} AND x.id < ${b}
            ORDER BY x.id DESC LIMIT ${limit}))
        ORDER BY u.id DESC LIMIT ${limit}`,
      );
      return rows.map((r) => ({
        ...r,
        id: Number(r.id),
        ticket_id: Number(r.ticket_id),
        timestamp: toDate(r.timestamp),
      }));
    },
    (r) => r.id,
    batch,
  );
}
