import { STATS_COUNTERS, type StatsCounter } from '../schema';
import type { Db } from '../schema';

export type StatsCounters = Record<StatsCounter, number>;

/** All counters at zero (a network the indexer has not counted anything for). */
export function zeroStats(): StatsCounters {
  return Object.fromEntries(STATS_COUNTERS.map((k) => [k, 0])) as StatsCounters;
}

/** The cumulative counters of the given networks; networks without a row are absent. */
export async function getStats(db: Db, networks: readonly string[]): Promise<Map<string, StatsCounters>> {
  if (networks.length === 0) return new Map();
  const rows = await db.selectFrom('stats').selectAll().where('network', 'in', networks).execute();
  return new Map(
    rows.map(({ network, ...counters }) => {
      const out = zeroStats();
      for (const key of STATS_COUNTERS) out[key] = Number(counters[key]);
      return [network, out];
    }),
  );
}
