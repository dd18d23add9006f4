/**
 * Bookmarks (favourite accounts and entrypoints) in local storage under `bookmarks`: an object keyed
 * `{network}_{address}[_{entrypoint}]` with `{network, address, alias, entrypoint?}` values.
 */
import { readJson, writeJson, type KeyValueStorage } from '../../shared/storage/local-storage';

export const BOOKMARKS_KEY = 'bookmarks';

export interface Bookmark {
  network: string;
  address: string;
  alias: string;
  entrypoint?: string;
}

export function bookmarkKey(b: Pick<Bookmark, 'network' | 'address' | 'entrypoint'>): string {
  return [b.network, b.address, ...(b.entrypoint ? [b.entrypoint] : [])].join('_');
}

export function readBookmarks(storage: KeyValueStorage | null): Bookmark[] {
  const stored = readJson(storage, BOOKMARKS_KEY);
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return [];
  const out: Bookmark[] = [];
  for (const value of Object.values(stored as Record<string, unknown>)) {
    if (value === null || typeof value !== 'object') continue;
    const b = value as Record<string, unknown>;
    if (typeof b.network !== 'string' || typeof b.address !== 'string') continue;
    out.push({
      network: b.network,
      address: b.address,
      alias: typeof b.alias === 'string' ? b.alias : '',
      ...(typeof b.entrypoint === 'string' && b.entrypoint !== '' ? { entrypoint: b.entrypoint } : {}),
    });
  }
  return out;
}

function writeAll(storage: KeyValueStorage | null, list: Bookmark[]): void {
  writeJson(storage, BOOKMARKS_KEY, Object.fromEntries(list.map((b) => [bookmarkKey(b), b])));
}

export function saveBookmark(storage: KeyValueStorage | null, bookmark: Bookmark): void {
  const key = bookmarkKey(bookmark);
  writeAll(storage, [...readBookmarks(storage).filter((b) => bookmarkKey(b) !== key), bookmark]);
}

export function removeBookmark(storage: KeyValueStorage | null, key: string): void {
  writeAll(
    storage,
    readBookmarks(storage).filter((b) => bookmarkKey(b) !== key),
  );
}
