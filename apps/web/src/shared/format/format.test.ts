import { describe, expect, it } from 'vitest';
import { formatCompact, formatFileSize, formatTez, formatTime, parseTime, shorten, truncate } from './format';

describe('truncate', () => {
  it('cuts at the limit with an ellipsis and leaves short texts alone', () => {
    expect(truncate('Quipuswap FA1.2 exchange pool', 20)).toBe('Quipuswap FA1.2 exch…');
    expect(truncate('exactly twenty chars', 20)).toBe('exactly twenty chars');
    expect(truncate('', 24)).toBe('');
  });
  it('counts emoji as one character', () => {
    expect(truncate('🐸🐸🐸', 2)).toBe('🐸🐸…');
  });
});

describe('formatCompact', () => {
  it('is compact only above 1000', () => {
    expect(formatCompact(999)).toBe('999');
    expect(formatCompact(1000)).toBe('1,000');
    expect(formatCompact(1500)).toBe('1.5K');
    expect(formatCompact(2_345_678)).toBe('2.3M');
  });
});

describe('formatTez', () => {
  it('divides by 1e6 with up to 6 decimals, trimming zeros', () => {
    expect(formatTez(1_500_000)).toBe('1.5 ꜩ');
    expect(formatTez(1)).toBe('0.000001 ꜩ');
    expect(formatTez('123456789012345678901')).toBe('123,456,789,012,345.678901 ꜩ');
    expect(formatTez(-2_000_000)).toBe('-2 ꜩ');
  });
  it('shows a dash for garbage', () => {
    expect(formatTez('12abc')).toBe('—');
  });
});

describe('formatFileSize', () => {
  it('uses KiB units', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1536)).toBe('1.5 KiB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5 MiB');
  });
});

describe('formatTime', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('is relative within a day', () => {
    expect(formatTime('2026-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatTime('2026-03-10T09:00:00Z', now)).toBe('3 hours ago');
  });
  it('is absolute beyond a day', () => {
    const text = formatTime('2025-12-25T10:07:00Z', now);
    expect(text).toMatch(/^2[45] Dec'25 \d\d:07$/);
  });
  it('shows a dash for the zero time and invalid input', () => {
    expect(formatTime('0001-01-01T00:00:00Z', now)).toBe('—');
    expect(formatTime('yesterday', now)).toBe('—');
    expect(parseTime('')).toBeNull();
  });
});

describe('shorten', () => {
  it('keeps the start and the end of long values', () => {
    expect(shorten('KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn')).toBe('KT1PWx2…Xitn');
    expect(shorten('tz1short')).toBe('tz1short');
  });
});
