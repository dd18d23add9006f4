import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from '../../shared/storage/local-storage';
import { bookmarkKey, readBookmarks, removeBookmark, saveBookmark } from './bookmarks-storage';

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

describe('bookmarks', () => {
  it('stores a map keyed network_address[_entrypoint]', () => {
    const s = memoryStorage();
    saveBookmark(s, { network: 'mainnet', address: 'KT1a', alias: 'Pool' });
    saveBookmark(s, { network: 'mainnet', address: 'KT1a', alias: 'Pool swap', entrypoint: 'swap' });
    expect(Object.keys(JSON.parse(s.data.bookmarks ?? '{}'))).toEqual(['mainnet_KT1a', 'mainnet_KT1a_swap']);
    removeBookmark(s, bookmarkKey({ network: 'mainnet', address: 'KT1a' }));
    expect(readBookmarks(s)).toEqual([
      { network: 'mainnet', address: 'KT1a', alias: 'Pool swap', entrypoint: 'swap' },
    ]);
  });

  it('reads nothing from malformed storage', () => {
    expect(readBookmarks(memoryStorage({ bookmarks: '[1,2]' }))).toEqual([]);
    expect(readBookmarks(memoryStorage({ bookmarks: '{"x":{"network":1}}' }))).toEqual([]);
    expect(readBookmarks(memoryStorage({ bookmarks: 'nope' }))).toEqual([]);
  });
});
