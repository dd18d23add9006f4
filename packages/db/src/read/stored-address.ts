import { sql } from 'kysely';
import type { Db } from '../schema';

/**
 * Whether an address is stored whole: an account row other than a ghost, and for a contract not one that only
 * another address's history backfill stored (see `withoutOwnHistory`).
 */
export async function addressStored(db: Db, network: string, address: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('type')
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  if (row === undefined || row.type === 'ghost') return false;
  return row.type !== 'contract' || !(await withoutOwnHistory(db, network, address));
}

/**
 * A contract stored by the history backfill of another address (its origination was in one of that history's
 * blocks, written whole) holds only those blocks of its own history below the forward floor, and no backfill
 * of its own: asked for, it is adopted again (the adoption writes nothing it already has), which opens its
 * backfill, and it is partial until that is done. Not when a request of it is pending or adopted already.
 */
async function withoutOwnHistory(db: Db, network: string, address: string): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`SELECT 1 AS one FROM contracts c
    JOIN history_floor f ON f.network = c.network
    WHERE c.network = ${network} AND c.address = ${address} AND c.level < f.floor_level
      AND NOT EXISTS (SELECT 1 FROM history_backfills h WHERE h.network = c.network AND h.address = c.address)
      AND NOT EXISTS (SELECT 1 FROM address_requests r WHERE r.network = c.network AND r.address = c.address
        AND r.state IN ('pending', 'adopted'))`.execute(db);
  return rows.length > 0;
}

/** The lowest stored level of a network: null when nothing is stored yet. */
export async function firstStoredLevel(db: Db, network: string): Promise<number | null> {
  const row = await db
    .selectFrom('blocks')
    .select((eb) => eb.fn.min('level').as('level'))
    .where('network', '=', network)
    .executeTakeFirst();
  return row?.level ?? null;
}

/** Where a network's forward index starts, and how far an address's history backfill has gone below it. */
export interface HistoryCoverage {
  /**
   * The lowest forward level: every block from it up is stored whole (history_floor, fixed at the first
   * backfill; before it, the lowest stored block). Null when nothing is stored.
   */
  floor: number | null;
  /** The address's backfill (history_backfills), if one was opened. */
  backfill: { state: string; source: string | null; toLevel: number; covered: number } | null;
}

export async function historyCoverage(db: Db, network: string, address: string): Promise<HistoryCoverage> {
  const { rows } = await sql<{
    floor: number | null;
    state: string | null;
    source: string | null;
    to_level: number | null;
    covered: number | null;
  }>`SELECT coalesce((SELECT floor_level FROM history_floor WHERE network = ${network}),
        (SELECT min(level) FROM blocks WHERE network = ${network})) AS floor,
      h.state, h.source, h.to_level, h.covered
    FROM (SELECT 1) one
    LEFT JOIN history_backfills h ON h.network = ${network} AND h.address = ${address}`.execute(db);
  const r = rows[0];
  return {
    floor: r?.floor ?? null,
    backfill:
      r && r.state !== null && r.to_level !== null
        ? { state: r.state, source: r.source, toLevel: r.to_level, covered: r.covered ?? 0 }
        : null,
  };
}
