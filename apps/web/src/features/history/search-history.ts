/**
 * The recent-search history of the search box (discovery spec §3): at most 10 items in local storage
 * under `history`, with the storage version `0` under `version`; another version drops the history.
 */
import { readJson, writeJson, type KeyValueStorage } from '../../shared/storage/local-storage';

export const HISTORY_KEY = 'history';
export const HISTORY_VERSION_KEY = 'version';
export const HISTORY_VERSION = '0';
export const HISTORY_LIMIT = 10;

export interface HistoryItem {
  /** What was searched or opened: an address, an operation hash or a text. */
  value: string;
  /** account, operation, bigmapkey, token or text. */
  type: string;
  alias?: string;
  /** Short form shown instead of a long value. */
  shortcut?: string;
  /** A second line (network, …). */
  second?: string;
}

function isItem(value: unknown): value is HistoryItem {
  if (value === null || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  const optional = (k: string) => item[k] === undefined || typeof item[k] === 'string';
  return (
    typeof item.value === 'string' &&
    item.value !== '' &&
    typeof item.type === 'string' &&
    optional('alias') &&
    optional('shortcut') &&
    optional('second')
  );
}

/** Reads the history, dropping it when the stored version is not 0 (and then writing version 0). */
export function readHistory(storage: KeyValueStorage | null): HistoryItem[] {
  if (!storage) return [];
  let version: string | null = null;
  try {
    version = storage.getItem(HISTORY_VERSION_KEY);
  } catch {
    return [];
  }
  if (version !== HISTORY_VERSION) {
    try {
      storage.removeItem(HISTORY_KEY);
      storage.setItem(HISTORY_VERSION_KEY, HISTORY_VERSION);
    } catch {
      // ignore
    }
    return [];
  }
  const stored = readJson(storage, HISTORY_KEY);
  return Array.isArray(stored) ? stored.filter(isItem).slice(0, HISTORY_LIMIT) : [];
}

/** Puts `item` first (removing an older entry with the same value and type) and keeps 10 items. */
export function addToHistory(storage: KeyValueStorage | null, item: HistoryItem): HistoryItem[] {
  const rest = readHistory(storage).filter((h) => !(h.value === item.value && h.type === item.type));
  const next = [item, ...rest].slice(0, HISTORY_LIMIT);
  writeJson(storage, HISTORY_KEY, next);
  return next;
}
