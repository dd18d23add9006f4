import { sql } from 'kysely';
import type { Db } from '../schema';

/** Where a network's indexer stands, with the protocol and constants of that head block. */
export interface HeadRow {
  network: string;
  level: number;
  hash: string;
  timestamp: Date;
  /** null when the head block row (or its protocol) is missing. */
  predecessor: string | null;
  chain_id: string | null;
  protocol: string | null;
  cost_per_byte: number | null;
  hard_gas_limit_per_operation: number | null;
  hard_storage_limit_per_operation: number | null;
  time_between_blocks: number | null;
}

/**
 * The indexed head of each of the given networks (from `indexer_state`, which the indexer writes in the
 * block's own transaction), joined with that block and its protocol row. Networks with no head are absent.
 */
export async function getHeads(db: Db, networks: readonly string[]): Promise<Map<string, HeadRow>> {
  if (networks.length === 0) return new Map();
  const rows = await db
    .selectFrom('indexer_state as s')
    .leftJoin('blocks as b', (join) =>
      join.onRef('b.network', '=', 's.network').onRef('b.level', '=', 's.level'),
    )
    .leftJoin('protocols as p', 'p.id', 'b.protocol_id')
    .select([
      's.network',
      's.level',
      's.hash',
      's.timestamp',
      'b.predecessor',
      'b.chain_id',
      'p.hash as protocol',
      'p.cost_per_byte',
      'p.hard_gas_limit_per_operation',
      'p.hard_storage_limit_per_operation',
      'p.time_between_blocks',
    ])
    .where('s.network', 'in', networks)
    .execute();
  return new Map(rows.map((row) => [row.network, { ...row, timestamp: toDate(row.timestamp) }]));
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A network's history backfills (history_backfills) summed up: addresses by state, levels covered and to cover. */
export interface BackfillSummaryRow {
  pending: number;
  running: number;
  done: number;
  failed: number;
  levels_done: number;
  levels_total: number;
}

/** The backfill summary of each of the given networks that has at least one history backfill. */
export async function getBackfillSummaries(
  db: Db,
  networks: readonly string[],
): Promise<Map<string, BackfillSummaryRow>> {
  if (networks.length === 0) return new Map();
  const { rows } = await sql<{
    network: string;
    pending: string;
    running: string;
    done: string;
    failed: string;
    levels_done: string;
    levels_total: string;
  }>`SELECT network,
      count(*) FILTER (WHERE state = 'pending')::text AS pending,
      count(*) FILTER (WHERE state = 'running')::text AS running,
      count(*) FILTER (WHERE state = 'done')::text AS done,
      count(*) FILTER (WHERE state = 'failed')::text AS failed,
      coalesce(sum(least(covered, greatest(to_level - coalesce(from_level, 1) + 1, 0))), 0)::text AS levels_done,
      coalesce(sum(greatest(to_level - coalesce(from_level, 1) + 1, 0)), 0)::text AS levels_total
    FROM history_backfills WHERE network IN (${sql.join(networks)}) GROUP BY network`.execute(db);
  return new Map(
    rows.map((r) => [
      r.network,
      {
        pending: Number(r.pending),
        running: Number(r.running),
        done: Number(r.done),
        failed: Number(r.failed),
        levels_done: Number(r.levels_done),
        levels_total: Number(r.levels_total),
      },
    ]),
  );
}
