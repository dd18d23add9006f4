/**
 * Exports of a contract's lists (events, tokens, same contracts, migrations) and of a network's recently called
 * contracts, in keyset batches (export.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../schema';
import { toDate } from './contracts';
import { EXPORT_BATCH, keysetBatches, likeEscape, rowsOf } from './export';

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
