import { LRUCache } from 'lru-cache';

/**
 * In-process response cache keyed by URL, each entry with its own TTL (reference §1.5). It stores the
 * pending promise, so concurrent requests for one key share one database query; a failed load is not kept.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, Promise<unknown>>;

  constructor(now: () => number, max = 1000) {
    this.entries = new LRUCache<string, Promise<unknown>>({
      max,
      perf: { now },
      ttlResolution: 0,
      ttl: 1000,
    });
  }

  get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) return hit as Promise<T>;
    const pending = load();
    this.entries.set(key, pending, { ttl: ttlMs });
    pending.catch(() => {
      if (this.entries.peek(key) === pending) this.entries.delete(key);
    });
    return pending;
  }

  /** The entry of `key` if it is still fresh, without loading it. */
  peek<T>(key: string): Promise<T> | undefined {
    return this.entries.get(key) as Promise<T> | undefined;
  }

  /** Keeps an already known value for `ttlMs`. */
  set(key: string, value: unknown, ttlMs: number): void {
    this.entries.set(key, Promise.resolve(value), { ttl: ttlMs });
  }

  /** Drops the entries whose key matches (e.g. a big map's answers once a block changed it). */
  evict(match: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (match(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
