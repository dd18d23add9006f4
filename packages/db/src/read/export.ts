/**
 * Exports (issue 21 part 3): every table the app lists, read in batches by keyset paging (never OFFSET), so that
 * an export of any length costs one short statement per batch and the caller holds one batch.
 */
import type { Db } from '../schema';
import { toDate } from './contracts';
import { CompiledQuery, sql, type RawBuilder } from 'kysely';

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

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const rowsOf = async <T>(db: Db, q: RawBuilder<T>) => (await q.execute(db)).rows;

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
            f.search
              ? sql`AND (key_hash = ${f.search} OR key_text ILIKE ${like} OR key::text ILIKE ${like})`
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

/** An event as exported (`GET /contract/{network}/{address}/events/export`). */
export interface ExportEventRow {
  id: number;
  level: number;
  timestamp: Date;
  hash: string | null;
  status: string;
  tag: string | null;
  payload: unknown;
  payload_type: unknown;
}

/** Events a contract emitted, newest first (id desc, as the list), by (network, source, id). */
export function contractEventsAll(
  db: Db,
  network: string,
  address: string,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportEventRow[]> {
  return keysetBatches(
    async (before: number | null, limit) =>
      (
        await rowsOf(
          db,
          sql<ExportEventRow>`SELECT id, level, timestamp, hash, status, tag, payload, payload_type
        FROM operations WHERE network = ${network} AND source = ${address} AND kind = 'event'
          AND id < ${before ?? Number.MAX_SAFE_INTEGER}
        ORDER BY id DESC LIMIT ${limit}`,
        )
      ).map((r) => ({ ...r, id: Number(r.id), timestamp: toDate(r.timestamp) })),
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

/** A token as exported (`GET /contract/{network}/{address}/tokens/export`). */
export interface ExportTokenRow {
  token_id: string;
  level: number;
  name: string | null;
  symbol: string | null;
  decimals: number | null;
  link: string | null;
  metadata: unknown;
}

/**
 * Tokens of a contract by token id (as the tokens tab); with `search`, those whose name or symbol contains it,
 * or whose id it is (the tab's search).
 */
export function contractTokensAll(
  db: Db,
  network: string,
  contract: string,
  search: string,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportTokenRow[]> {
  const like = `%${likeEscape(search)}%`;
  const id = /^\d{1,78}$/.test(search) ? search : null;
  return keysetBatches(
    async (after: string | null, limit) =>
      (
        await rowsOf(
          db,
          sql<ExportTokenRow>`SELECT token_id::text AS token_id, level, name, symbol, decimals, link, metadata
        FROM token_metadata WHERE network = ${network} AND contract = ${contract}
          ${after === null ? sql`` : sql`AND token_id > ${after}::numeric`}
          ${
            search
              ? sql`AND (name ILIKE ${like} OR symbol ILIKE ${like} ${id ? sql`OR token_id = ${id}::numeric` : sql``})`
              : sql``
          }
        ORDER BY token_metadata.token_id LIMIT ${limit}`,
        )
      ).map((r) => ({ ...r, token_id: String(r.token_id) })),
    (r) => r.token_id,
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

/** A contract of a 'Same contracts' list as exported. */
export interface ExportSameRow {
  id: number;
  network: string;
  address: string;
  level: number;
  timestamp: Date;
  last_action: Date | null;
  manager: string | null;
  delegate: string | null;
}

/**
 * Other contracts with the same script hash in the given networks, by network then newest first (as the list),
 * by (network, id).
 */
export function sameContractsAll(
  db: Db,
  networks: readonly string[],
  hash: string,
  self: { network: string; address: string },
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportSameRow[]> {
  return keysetBatches(
    async (after: { network: string; id: number } | null, limit) => {
      if (networks.length === 0) return [];
      const rows = await rowsOf(
        db,
        sql<ExportSameRow>`SELECT c.id, c.network, c.address, c.level, c.timestamp, a.last_action, c.manager,
          c.delegate
        FROM contracts c LEFT JOIN accounts a ON a.network = c.network AND a.address = c.address
        WHERE c.script_hash = ${hash} AND c.network IN (${sql.join([...networks])})
          AND NOT (c.network = ${self.network} AND c.address = ${self.address})
          ${after ? sql`AND (c.network > ${after.network} OR (c.network = ${after.network} AND c.id < ${after.id}))` : sql``}
        ORDER BY c.network, c.id DESC LIMIT ${limit}`,
      );
      return rows.map((r) => ({
        ...r,
        id: Number(r.id),
        timestamp: toDate(r.timestamp),
        last_action: r.last_action == null ? null : toDate(r.last_action),
      }));
    },
    (r) => ({ network: r.network, id: r.id }),
    batch,
  );
}

/** A migration as exported. */
export interface ExportMigrationRow {
  id: number;
  level: number;
  timestamp: Date;
  hash: string | null;
  kind: string;
  protocol: string;
  prev_protocol: string;
}

/** Migrations of a contract, newest first (id desc, as the list). */
export function migrationsAll(
  db: Db,
  network: string,
  contract: string,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportMigrationRow[]> {
  return keysetBatches(
    async (before: number | null, limit) =>
      (
        await rowsOf(
          db,
          sql<ExportMigrationRow>`SELECT m.id, m.level, m.timestamp, m.hash, m.kind,
          coalesce(p.hash, '') AS protocol, coalesce(pp.hash, '') AS prev_protocol
        FROM migrations m LEFT JOIN protocols p ON p.id = m.protocol_id
          LEFT JOIN protocols pp ON pp.id = m.prev_protocol_id
        WHERE m.network = ${network} AND m.contract = ${contract} AND m.id < ${before ?? Number.MAX_SAFE_INTEGER}
        ORDER BY m.id DESC LIMIT ${limit}`,
        )
      ).map((r) => ({ ...r, id: Number(r.id), timestamp: toDate(r.timestamp) })),
    (r) => r.id,
    batch,
  );
}

/** A contract of the recently called list as exported. */
export interface ExportRecentRow {
  id: number;
  address: string;
  last_action: Date;
  operations_count: number;
}

/**
 * Contracts of a network by last activity, then operations count, then id, all descending (as the list), by
 * that triple.
 */
export function recentlyCalledAll(
  db: Db,
  network: string,
  batch = EXPORT_BATCH,
): AsyncGenerator<ExportRecentRow[]> {
  return keysetBatches(
    async (after: { last_action: Date; operations_count: number; id: number } | null, limit) =>
      (
        await rowsOf(
          db,
          sql<ExportRecentRow>`SELECT id, address, last_action, operations_count
        FROM accounts WHERE network = ${network} AND type = 'contract'
          ${
            after
              ? sql`AND last_action <= ${after.last_action.toISOString()}::timestamptz
                  AND (last_action, operations_count, id) <
                  (${after.last_action.toISOString()}::timestamptz, ${after.operations_count}, ${after.id})`
              : sql``
          }
        ORDER BY last_action DESC, operations_count DESC, id DESC LIMIT ${limit}`,
        )
      ).map((r) => ({
        ...r,
        id: Number(r.id),
        operations_count: Number(r.operations_count),
        last_action: toDate(r.last_action),
      })),
    (r) => ({ last_action: r.last_action, operations_count: r.operations_count, id: r.id }),
    batch,
  );
}
