/** The statistics service's series (discovery spec §7) and its answers. */
import { invalid, isObject } from './parse';

/** One point of a histogram: bucket start (seconds) and value. */
export interface ChartPoint {
  ts: number;
  value: number;
}

export interface StatsSeriesSpec {
  table: string;
  fn: 'count' | 'sum';
  /** Query parameters that filter the rows (e.g. `Status=1`, `field=Value`). */
  filters: Record<string, string>;
}

/** The four network series of the Statistics tab. */
export const NETWORK_SERIES = {
  deployments: { table: 'originations', fn: 'count', filters: { Status: '1' } },
  contractCalls: { table: 'transactions', fn: 'count', filters: { 'Entrypoint.isnotnull': '', Status: '1' } },
  paidStorage: { table: 'paid_storage_size_diff', fn: 'sum', filters: { field: 'Value' } },
  consumedGas: { table: 'consumed_gas', fn: 'sum', filters: { field: 'Used' } },
} as const satisfies Record<string, StatsSeriesSpec>;

export type NetworkSeriesId = keyof typeof NETWORK_SERIES;

export const TIMEFRAMES = ['day', 'week', 'month', 'year'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

function toNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return null;
}

/** Points with a numeric ts and value, in time order; others are dropped. */
export function parseChartPoints(body: unknown): ChartPoint[] {
  if (body === null) return [];
  if (!Array.isArray(body)) throw invalid('statistics series', 'not a list');
  const points: ChartPoint[] = [];
  for (const raw of body) {
    if (!isObject(raw)) continue;
    const ts = toNumber(raw.ts);
    const value = toNumber(raw.value);
    if (ts !== null && value !== null) points.push({ ts, value });
  }
  return points.sort((a, b) => a.ts - b.ts);
}

/** A summary answer: a bare number, a numeric string or `{value}`. */
export function parseSummary(body: unknown): number {
  const direct = toNumber(body);
  if (direct !== null) return direct;
  if (isObject(body)) {
    const value = toNumber(body.value);
    if (value !== null) return value;
  }
  throw invalid('statistics summary', 'not a number');
}
