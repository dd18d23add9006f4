/**
 * @michelscope/db/address-requests — the API's side of the address requests (migrations/0230_address_requests.sql):
 * an address a page asked for that the index does not hold is queued for its network's indexer, which reads it
 * from its node. The API inserts rows and reads their state; the indexer alone changes a state (db/write `adopt`).
 */
import { sql } from 'kysely';
import type { Db } from './schema';
import { preparedQuery } from './read/prepared';

export type AddressRequestState = 'pending' | 'adopted' | 'unknown' | 'failed';

export interface AddressRequest {
  state: AddressRequestState;
  /** adopted: the level whose state was read; unknown: the level the node was asked at. */
  level: number | null;
  message: string | null;
  requested_at: Date;
  updated_at: Date;
}

/** How long an answer 'unknown' or 'failed' stands before a new request asks the node again. */
export const RECHECK_AFTER_MS = 60_000;

/** Every contract route asks it (read/prepared.ts: a fixed text, prepared once a connection). */
const requestQuery = preparedQuery<Omit<AddressRequest, 'state'> & { state: string }>(
  `SELECT state, level, message, requested_at, updated_at FROM address_requests WHERE network = $1 AND address = $2`,
);

/** The state of a request, or undefined when none was made. */
export async function getAddressRequest(
  db: Db,
  network: string,
  address: string,
): Promise<AddressRequest | undefined> {
  const [row] = await requestQuery(db, [network, address]);
  return row ? { ...row, state: row.state as AddressRequestState } : undefined;
}

/**
 * Asks the indexer for an address: inserts a pending request, or puts an 'unknown'/'failed' one older than
 * RECHECK_AFTER_MS back to pending (a contract originated since is then found). Refused (false) when the
 * network already has `maxPending` requests waiting, so that a flood of made-up addresses queues nothing more.
 */
export async function requestAddress(
  db: Db,
  network: string,
  address: string,
  maxPending: number,
): Promise<boolean> {
  const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM address_requests
    WHERE network = ${network} AND state = 'pending'`.execute(db);
  if (Number(rows[0]?.n ?? 0) >= maxPending) return false;
  const recheck = new Date(Date.now() - RECHECK_AFTER_MS);
  await sql`INSERT INTO address_requests (network, address) VALUES (${network}, ${address})
    ON CONFLICT (network, address) DO UPDATE SET state = 'pending', message = NULL, requested_at = now(), updated_at = now()
    WHERE address_requests.state IN ('unknown', 'failed') AND address_requests.updated_at < ${recheck}`.execute(
    db,
  );
  return true;
}

/** An adopted address's history backfill (migrations/0270_history_backfills.sql), as the API shows it. */
export interface HistoryBackfill {
  state: 'pending' | 'running' | 'done' | 'failed';
  /** Levels of [from, to] gone through. */
  done: number;
  /** Levels from the origin to the ceiling; null until the source gave the origin. */
  total: number | null;
  message: string | null;
}

export async function getHistoryBackfill(
  db: Db,
  network: string,
  address: string,
): Promise<HistoryBackfill | undefined> {
  const row = await db
    .selectFrom('history_backfills')
    .select(['state', 'covered', 'to_level', 'from_level', 'message'])
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  if (!row) return undefined;
  const total = row.from_level === null ? null : Math.max(0, row.to_level - row.from_level + 1);
  return {
    state: row.state as HistoryBackfill['state'],
    done: total === null ? row.covered : Math.min(row.covered, total),
    total,
    message: row.message,
  };
}
