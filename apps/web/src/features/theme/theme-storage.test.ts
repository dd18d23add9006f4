import { describe, expect, it } from 'vitest';
import { DARK_FLAG_KEY, readDarkFlag, writeDarkFlag, type FlagStorage } from './theme-storage';

function memoryStorage(initial: Record<string, string> = {}): FlagStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => {
      data[k] = v;
    },
  };
}

describe('dark flag', () => {
  it('defaults to dark on a first visit and saves that default', () => {
    const storage = memoryStorage();
    expect(readDarkFlag(storage)).toBe(true);
    expect(storage.data[DARK_FLAG_KEY]).toBe('true');
  });

  it('reads a saved choice', () => {
    expect(readDarkFlag(memoryStorage({ dark: 'false' }))).toBe(false);
    expect(readDarkFlag(memoryStorage({ dark: 'true' }))).toBe(true);
  });

  it('replaces an unreadable value by the default', () => {
    const storage = memoryStorage({ dark: 'banana' });
    expect(readDarkFlag(storage)).toBe(true);
    expect(storage.data.dark).toBe('true');
  });

  it('writes true/false and survives a storage that throws or is missing', () => {
    const storage = memoryStorage();
    writeDarkFlag(storage, false);
    expect(storage.data.dark).toBe('false');
    const broken: FlagStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readDarkFlag(broken)).toBe(true);
    expect(() => writeDarkFlag(broken, true)).not.toThrow();
    expect(readDarkFlag(null)).toBe(true);
  });
});
