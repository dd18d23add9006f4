import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from '../../shared/storage/local-storage';
import { getCachedAlias, setCachedAlias } from './alias-cache';

function memoryStorage(): KeyValueStorage & { data: Record<string, string> } {
  const data: Record<string, string> = {};
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => void (data[k] = v),
    removeItem: (k) => void delete data[k],
  };
}

const t0 = Date.parse('2026-01-01T00:00:00Z');
const HOUR = 3_600_000;

describe('alias cache', () => {
  it('remembers an alias per network and address', () => {
    const s = memoryStorage();
    setCachedAlias(s, 'mainnet', 'KT1a', 'Quipuswap', t0);
    expect(getCachedAlias(s, 'mainnet', 'KT1a', t0 + HOUR)).toBe('Quipuswap');
    expect(getCachedAlias(s, 'ghostnet', 'KT1a', t0 + HOUR)).toBeUndefined();
  });

  it('forgets everything 24 h after the cache started', () => {
    const s = memoryStorage();
    setCachedAlias(s, 'mainnet', 'KT1a', 'Quipuswap', t0);
    expect(getCachedAlias(s, 'mainnet', 'KT1a', t0 + 23 * HOUR)).toBe('Quipuswap');
    expect(getCachedAlias(s, 'mainnet', 'KT1a', t0 + 24 * HOUR)).toBeUndefined();
  });

  it('keeps at most 1000 entries, dropping the oldest', () => {
    const s = memoryStorage();
    for (let i = 0; i < 1005; i++) setCachedAlias(s, 'mainnet', `KT${i}`, `alias ${i}`, t0);
    expect(Object.keys(JSON.parse(s.data.aliases ?? '{}'))).toHaveLength(1000);
    expect(getCachedAlias(s, 'mainnet', 'KT0', t0)).toBeUndefined();
    expect(getCachedAlias(s, 'mainnet', 'KT4', t0)).toBeUndefined();
    expect(getCachedAlias(s, 'mainnet', 'KT5', t0)).toBe('alias 5');
    expect(getCachedAlias(s, 'mainnet', 'KT1004', t0)).toBe('alias 1004');
  });
});
