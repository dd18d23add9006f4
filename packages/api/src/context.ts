import type { Db } from '@michelscope/db/read';
import { ResponseCache } from './cache';
import { NetworkRegistry } from './networks';
import type { ApiOptions } from './options';

/** What route modules share: the database, configured networks, the clock and the response cache. */
export interface ApiContext {
  /** The primary: writes, and the reads that must see them or a notice at once (ApiOptions.db). */
  db: Db;
  /** Reads of chain data that may lag by a replica's delay (ApiOptions.readDb; default the primary). */
  readDb: Db;
  networks: NetworkRegistry;
  options: ApiOptions;
  now: () => number;
  cache: ResponseCache;
}

export function createContext(options: ApiOptions): ApiContext {
  const now = options.now ?? Date.now;
  return {
    db: options.db,
    readDb: options.readDb ?? options.db,
    networks: new NetworkRegistry(options.networks),
    options,
    now,
    cache: new ResponseCache(now),
  };
}

/** Cache key of a request: its path (these routes take no query, so `?x` variants share one entry). */
export function cacheKey(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
