import type { Db } from '../schema';
import { toDate } from './contracts';
import { CompiledQuery } from 'kysely';

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
}

const COLUMNS = `id, level, timestamp, hash, counter, content_index, internal, kind, status, source, destination,
  entrypoint, amount::text AS amount, fee::text AS fee, burned::text AS burned, consumed_gas::text AS consumed_gas,
  storage_size::text AS storage_size, paid_storage_size_diff::text AS paid_storage_size_diff`;
const FILTERS = `AND id < $3
  AND (cardinality($4::text[]) = 0 OR status = ANY($4::text[]))
  AND (cardinality($5::text[]) = 0 OR entrypoint = ANY($5::text[]))
  AND ($6::timestamptz IS NULL OR timestamp >= $6) AND ($7::timestamptz IS NULL OR timestamp < $7)`;

/**
 * One batch of an account's operations (as source or destination), newest first, below operation id $3: each
 * side by its own index (operations_source, operations_destination: network, address, id), so a batch reads
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
  const rows = await batchQuery(db, [
    network,
    address,
    beforeId,
    [...f.statuses],
    [...f.entrypoints],
    f.from === null ? null : new Date(f.from).toISOString(),
    f.to === null ? null : new Date(f.to).toISOString(),
    limit,
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
export async function* accountOperationsAll(
  db: Db,
  network: string,
  address: string,
  f: ExportOperationFilters,
  batch = 1000,
): AsyncGenerator<ExportOperationRow[]> {
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await accountOperationsBatch(db, network, address, f, before, batch);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    before = rows[rows.length - 1]!.id;
  }
}
