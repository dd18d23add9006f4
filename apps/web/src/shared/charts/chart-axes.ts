/** Axes of the statistics charts for any number of points (pure; the chart component draws them). */
import type { Timeframe } from '../../api/stats-series';

const axisFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });

/** A value-axis label: compact with three significant digits (1.2M, 950, 12.3K, 0.0042), never '0, 0, 0'. */
export function formatAxisNumber(value: number): string {
  return Number.isFinite(value) ? axisFormat.format(value) : '';
}

const DAY_MS = 86_400_000;
/** One period (bucket) of each timeframe. */
export const PERIOD_MS: Record<Timeframe, number> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};

const TICK_FORMAT: Record<Timeframe, Intl.DateTimeFormat> = {
  day: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  week: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }),
  year: new Intl.DateTimeFormat('en-US', { year: 'numeric', timeZone: 'UTC' }),
};

/** A time-axis label at the precision of the timeframe's buckets (UTC days): 'Nov 8', 'Nov 2026', '2026'. */
export function formatAxisTime(value: Date, timeframe: Timeframe): string {
  return Number.isFinite(value.getTime()) ? TICK_FORMAT[timeframe].format(value) : '';
}

/** Ticks no closer than (almost) one bucket: a month's buckets are 28 to 31 days apart. */
export const tickMinStep = (timeframe: Timeframe): number => Math.floor(PERIOD_MS[timeframe] * 0.9);

export interface ChartPointXY {
  x: Date;
  y: number;
}

/** Periods either side of a lone instant: the neighbouring bucket starts fall inside, not on the edges. */
const PAD = 1.5;

export interface ChartAxes {
  /** The time axis bounds; undefined: the data's own extent. */
  x: { min?: Date; max?: Date };
  y: { min: number; max?: number };
  /** Marks on the points: with few points a line or an area alone would draw nothing or little. */
  showMarks: boolean;
}

/**
 * The time axis spans the data, or one and a half periods either side of a lone instant (one point, or all at one time:
 * a zero-width domain has no ticks); the value axis starts at 0 (or below, for negative values) and, when
 * every value is 0, ends at 1 so that it still has a scale.
 */
export function chartAxes(points: readonly ChartPointXY[], timeframe: Timeframe): ChartAxes {
  const times = points.map((p) => p.x.getTime());
  const values = points.map((p) => p.y).filter(Number.isFinite);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const x =
    points.length > 0 && first === last
      ? {
          min: new Date(first - PAD * PERIOD_MS[timeframe]),
          max: new Date(last + PAD * PERIOD_MS[timeframe]),
        }
      : {};
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  return { x, y: high > low ? { min: low } : { min: low, max: low + 1 }, showMarks: points.length <= 3 };
}
