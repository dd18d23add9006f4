/**
 * @michelscope/db/rate-limits — the per-client request counts of the API's rate limits, in the database
 * (migrations/0340_rate_limits.sql; issue 36 part 4), so that N API processes over one PostgreSQL keep one
 * limit per client instead of one each. A fixed window per key, as @fastify/rate-limit's local store counts:
 * the first request opens a window of `windowMs`, the count grows until it ends. One statement per request
 * (an UPSERT on the primary key, a named prepared statement, timed by the database's clock, so the processes'
 * clocks do not matter).
 */
import { sql } from 'kysely';
import { prepared } from './read/prepared';
import type { Db } from './schema';

export interface RateCount {
  /** Requests counted in the key's window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

/** Now in ms since the epoch, by the database's clock (`now()`: one value within a statement). */
const NOW_MS = sql<number>`(extract(epoch from now()) * 1000)::bigint`;

/** Counts one request of `key` in its window (opened now when none is open) and answers the count. */
export async function countRequest(db: Db, key: string, windowMs: number): Promise<RateCount> {
  const { rows } = await prepared<{ count: number; ttl: number }>`
    INSERT INTO rate_limits AS r (key, window_end, count) VALUES (${key}, ${NOW_MS} + ${windowMs}::bigint, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN r.window_end <= ${NOW_MS} THEN 1 ELSE r.count + 1 END,
      window_end = CASE WHEN r.window_end <= ${NOW_MS} THEN excluded.window_end ELSE r.window_end END
    RETURNING r.count, (r.window_end - ${NOW_MS})::integer AS ttl`.execute(db);
  const row = rows[0]!;
  return { count: Number(row.count), ttlMs: Number(row.ttl) };
}

/** The count of `key`'s open window without counting (0 and 0 ms when none is open). */
export async function readRequestCount(db: Db, key: string): Promise<RateCount> {
  const { rows } = await prepared<{ count: number; ttl: number }>`
    SELECT count, (window_end - ${NOW_MS})::integer AS ttl FROM rate_limits
    WHERE key = ${key} AND window_end > ${NOW_MS}`.execute(db);
  const row = rows[0];
  return row ? { count: Number(row.count), ttlMs: Number(row.ttl) } : { count: 0, ttlMs: 0 };
}

/** Deletes the windows that ended (the API processes call it now and then); answers how many. */
export async function pruneRequestCounts(db: Db): Promise<number> {
  const res = await sql`DELETE FROM rate_limits WHERE window_end <= ${NOW_MS}`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}
