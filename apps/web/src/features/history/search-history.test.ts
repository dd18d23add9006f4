import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from '../../shared/storage/local-storage';
import { addToHistory, readHistory } from './search-history';

function memoryStorage(
  initial: Record<string, string> = {},
): KeyValueStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => void (data[k] = v),
    removeItem: (k) => void delete data[k],
  };
}

describe('search history', () => {
  it('keeps the 10 most recent items, newest first, without duplicates', () => {
    const storage = memoryStorage({ version: '0' });
    for (let i = 0; i < 12; i++) addToHistory(storage, { value: `text ${i}`, type: 'text' });
    addToHistory(storage, { value: 'text 5', type: 'text' });
    const history = readHistory(storage);
    expect(history).toHaveLength(10);
    expect(history.map((h) => h.value).slice(0, 3)).toEqual(['text 5', 'text 11', 'text 10']);
    expect(history.filter((h) => h.value === 'text 5')).toHaveLength(1);
  });

  it('drops a history stored under another version and writes version 0', () => {
    const storage = memoryStorage({
      version: '1',
      history: JSON.stringify([{ value: 'old', type: 'text' }]),
    });
    expect(readHistory(storage)).toEqual([]);
    expect(storage.data.version).toBe('0');
    expect(storage.data.history).toBeUndefined();
  });

  it('ignores malformed stored entries', () => {
    const storage = memoryStorage({
      version: '0',
      history: JSON.stringify([
        { value: 'ok', type: 'text' },
        { value: 3 },
        'junk',
        null,
        { value: 'x', type: 'text', alias: 5 },
      ]),
    });
    expect(readHistory(storage)).toEqual([{ value: 'ok', type: 'text' }]);
    storage.data.history = '{not json';
    expect(readHistory(storage)).toEqual([]);
  });
});
