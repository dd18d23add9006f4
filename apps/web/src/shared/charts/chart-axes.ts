/** Axes of the statistics charts for any number of points (pure; the chart component draws them). */
import type { Timeframe } from '../../api/stats-types';

const axisFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });

/** A value-axis label: compact with three significant digits (1.2M, 950, 12.3K, 0.0042), never '0, 0, 0'. */
export function formatAxisNumber(value: number): string {
  return Number.isFinite(value) ? axisFormat.format(value) : '';
}

const DAY_MS = 86_400_000;
/** One period of each timeframe: a single point is drawn in the middle of two of them. */
export const PERIOD_MS: Record<Timeframe, number> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};

export interface ChartPointXY {
  x: Date;
  y: number;
}

export interface ChartAxes {
  /** The time axis bounds; undefined: the data's own extent. */
  x: { min?: Date; max?: Date };
  y: { min: number; max?: number };
  /** Marks on the points: with few points a line or an area alone would draw nothing or little. */
  showMarks: boolean;
}

/**
 * The time axis spans the data, or one period either side of a lone instant (one point, or all at one time:
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
      ? { min: new Date(first - PERIOD_MS[timeframe]), max: new Date(last + PERIOD_MS[timeframe]) }
      : {};
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  return { x, y: high > low ? { min: low } : { min: low, max: low + 1 }, showMarks: points.length <= 3 };
}
