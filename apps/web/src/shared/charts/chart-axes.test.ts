import { describe, expect, it } from 'vitest';
import { chartAxes, formatAxisNumber, formatAxisTime, PERIOD_MS, tickMinStep } from './chart-axes';

const at = (iso: string, y: number) => ({ x: new Date(iso), y });

describe('chart axes', () => {
  it('labels values compactly with three significant digits, so small and large values stay distinct', () => {
    expect([1_234_567, 12_345, 950, 0.0042, 0.0123, 0].map(formatAxisNumber)).toEqual([
      '1.23M',
      '12.3K',
      '950',
      '0.0042',
      '0.0123',
      '0',
    ]);
    // a network gas chart's ticks (raw gas, not ×10⁶): distinct labels
    expect([0, 2_000, 4_000, 6_000].map(formatAxisNumber)).toEqual(['0', '2K', '4K', '6K']);
    expect(formatAxisNumber(Number.NaN)).toBe('');
  });

  it('spreads a single point over 1.5 periods either side, with marks, and a value axis from 0', () => {
    const axes = chartAxes([at('2026-01-10T00:00:00Z', 42)], 'month');
    expect(axes.x.min?.getTime()).toBe(Date.parse('2026-01-10T00:00:00Z') - 1.5 * PERIOD_MS.month);
    expect(axes.x.max?.getTime()).toBe(Date.parse('2026-01-10T00:00:00Z') + 1.5 * PERIOD_MS.month);
    expect(axes.y).toEqual({ min: 0 });
    expect(axes.showMarks).toBe(true);
  });

  it('keeps the data extent for many points, without marks; all-zero values still have a scale', () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      at(`2026-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`, i),
    );
    expect(chartAxes(many, 'day')).toEqual({ x: {}, y: { min: 0 }, showMarks: false });
    expect(chartAxes([at('2026-01-01T00:00:00Z', 0), at('2026-01-02T00:00:00Z', 0)], 'day').y).toEqual({
      min: 0,
      max: 1,
    });
    expect(chartAxes([at('2026-01-01T00:00:00Z', -5), at('2026-01-02T00:00:00Z', 3)], 'day').y).toEqual({
      min: -5,
    });
  });

  it('has nothing to spread without points', () => {
    expect(chartAxes([], 'week')).toEqual({ x: {}, y: { min: 0, max: 1 }, showMarks: true });
  });

  it('labels time at the precision of the buckets, with ticks no closer than one bucket', () => {
    const d = new Date('2026-11-08T00:00:00Z');
    expect(['day', 'week', 'month', 'year'].map((t) => formatAxisTime(d, t as 'day'))).toEqual([
      'Nov 8',
      'Nov 8',
      'Nov 2026',
      '2026',
    ]);
    expect(tickMinStep('month')).toBeLessThan(28 * 86_400_000);
    expect(tickMinStep('day')).toBeGreaterThan(12 * 3_600_000);
  });
});
