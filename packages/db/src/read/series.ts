import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../schema';

export type Bucket = 'hour' | 'day' | 'week' | 'month' | 'year';

/** What a statistics query counts or sums over the operations of a network. */
export interface SeriesQuery {
  network: string;
  /** Operation kinds (empty = all). */
  kinds: readonly string[];
  fn: 'count' | 'sum' | 'count_distinct';
  /** Column summed (sum) or counted once per value (count_distinct). */
  column?: 'paid_storage_size_diff' | 'consumed_gas' | 'burned' | 'amount' | 'fee' | 'source' | 'destination';
  status?: 'applied' | 'failed' | 'backtracked' | 'skipped';
  entrypointNotNull?: boolean;
  destinations?: readonly string[];
  sources?: readonly string[];
  /** Unix seconds, inclusive / exclusive. */
  from?: number;
  to?: number;
}

function whereOf(q: SeriesQuery): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`network = ${q.network}`];
  if (q.kinds.length) parts.push(sql`kind IN (${sql.join(q.kinds)})`);
  if (q.status) parts.push(sql`status = ${q.status}`);
  if (q.entrypointNotNull) parts.push(sql`entrypoint IS NOT NULL`);
  if (q.destinations?.length) parts.push(sql`destination IN (${sql.join(q.destinations)})`);
  if (q.sources?.length) parts.push(sql`source IN (${sql.join(q.sources)})`);
  if (q.from !== undefined) parts.push(sql`timestamp >= to_timestamp(${q.from})`);
  if (q.to !== undefined) parts.push(sql`timestamp < to_timestamp(${q.to})`);
  return sql.join(parts, sql` AND `);
}

function valueOf(q: SeriesQuery): RawBuilder<unknown> {
  if (q.fn === 'count') return sql`count(*)`;
  const col = sql.ref(q.column ?? 'fee');
  if (q.fn === 'count_distinct') return sql`count(DISTINCT ${col})`;
  return sql`coalesce(sum(${col}), 0)`;
}

/** Points `{ts (unix seconds of the bucket start, UTC), value (decimal string)}`, oldest first. */
export async function operationHistogram(
  db: Db,
  q: SeriesQuery,
  bucket: Bucket,
  maxPoints = 1000,
): Promise<Array<{ ts: number; value: string }>> {
  const r = await sql<{ ts: number; value: string }>`
    SELECT extract(epoch FROM date_trunc(${bucket}, timestamp AT TIME ZONE 'UTC'))::bigint AS ts, (${valueOf(q)})::text AS value
    FROM operations WHERE ${whereOf(q)}
    GROUP BY 1 ORDER BY 1 DESC LIMIT ${maxPoints}`.execute(db);
  return r.rows.map((p) => ({ ts: Number(p.ts), value: String(p.value) })).reverse();
}

/** One total over the same filters. */
export async function operationSummary(db: Db, q: SeriesQuery): Promise<string> {
  const r = await sql<{
    value: string;
  }>`SELECT (${valueOf(q)})::text AS value FROM operations WHERE ${whereOf(q)}`.execute(db);
  return String(r.rows[0]?.value ?? '0');
}

/** Network figures of the old `/stats/{network}`: distinct scripts and FA contracts. */
export async function contractFigures(
  db: Db,
  network: string,
  faMask: number,
): Promise<{ unique: number; fa: number }> {
  const r = await sql<{ unique: number; fa: number }>`
    SELECT count(DISTINCT script_hash) AS unique, count(*) FILTER (WHERE (tags & ${faMask}) <> 0) AS fa
    FROM contracts WHERE network = ${network}`.execute(db);
  return { unique: Number(r.rows[0]?.unique ?? 0), fa: Number(r.rows[0]?.fa ?? 0) };
}
