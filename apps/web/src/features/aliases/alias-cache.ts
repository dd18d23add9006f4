/**
 * The alias cache (discovery spec §3): `aliases` maps `{network}_{address}` to an alias, at most 1000
 * entries (the oldest go first); the whole cache expires 24 h after it was started (`expiry_aliases`).
 */
import { readJson, writeJson, type KeyValueStorage } from '../../shared/storage/local-storage';

export const ALIASES_KEY = 'aliases';
export const ALIASES_EXPIRY_KEY = 'expiry_aliases';
export const ALIAS_CACHE_LIMIT = 1000;
export const ALIAS_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

type AliasMap = Record<string, string>;

function load(storage: KeyValueStorage | null, now: number): AliasMap {
  if (!storage) return {};
  const expiry = Number(storage.getItem(ALIASES_EXPIRY_KEY));
  if (!Number.isFinite(expiry) || expiry <= now) {
    try {
      storage.removeItem(ALIASES_KEY);
      storage.setItem(ALIASES_EXPIRY_KEY, String(now + ALIAS_CACHE_TTL_MS));
    } catch {
      // ignore
    }
    return {};
  }
  const stored = readJson(storage, ALIASES_KEY);
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const map: AliasMap = {};
  for (const [key, value] of Object.entries(stored)) if (typeof value === 'string') map[key] = value;
  return map;
}

const keyOf = (network: string, address: string) => `${network}_${address}`;

export function getCachedAlias(
  storage: KeyValueStorage | null,
  network: string,
  address: string,
  now = Date.now(),
): string | undefined {
  const map = load(storage, now);
  const key = keyOf(network, address);
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export function setCachedAlias(
  storage: KeyValueStorage | null,
  network: string,
  address: string,
  alias: string,
  now = Date.now(),
): void {
  const map = load(storage, now);
  const key = keyOf(network, address);
  delete map[key];
  map[key] = alias;
  const keys = Object.keys(map);
  for (const old of keys.slice(0, Math.max(0, keys.length - ALIAS_CACHE_LIMIT))) delete map[old];
  writeJson(storage, ALIASES_KEY, map);
}
