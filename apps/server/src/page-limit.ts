/**
 * The page budget of each client (issue 34): page requests (index.html, rendered on the server or not) per
 * time window, counted apart from the API's limit. The renderer's own API requests are not charged to
 * anyone (@michelscope/api `internalCallHeaders`): the page's one token pays for them.
 *
 * A fixed window per client, as @fastify/rate-limit's local store counts: the first page opens a window of
 * `timeWindowMs`, at most `max` pages in it. An IPv6 client is its /64 (one host holds a whole /64), as the
 * API's limit counts it. At most `maxClients` windows are kept: the oldest go first.
 *
 * With several API processes over one PostgreSQL the windows are kept in the database instead
 * (`DatabasePageLimiter`, db/rate-limits: one UPSERT a page), so a client has one budget whatever process
 * serves it (issue 36 part 4).
 */
import type { Db } from '@michelscope/db';
import { countRequest } from '@michelscope/db/rate-limits';

export interface PageLimit {
  max: number;
  timeWindowMs: number;
  /** Count in this database (table `rate_limits`) instead of this process's memory. */
  db?: Db;
}

/** What counts the pages: in memory (`PageLimiter`) or in the database (`DatabasePageLimiter`). */
export interface PageCounter {
  take(ip: string): PageVerdict | Promise<PageVerdict>;
}

export interface PageVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the client's window ends. */
  resetSeconds: number;
}

/** The page budget counted in the database: one window per client across every process. */
export class DatabasePageLimiter implements PageCounter {
  constructor(
    private readonly db: Db,
    private readonly limit: PageLimit,
  ) {}

  /** Counts one page of the client at `ip`; a database error lets the page through (its renderer would fail). */
  async take(ip: string): Promise<PageVerdict> {
    const max = this.limit.max;
    try {
      const r = await countRequest(this.db, `page|${clientKey(ip)}`, this.limit.timeWindowMs);
      return {
        allowed: r.count <= max,
        limit: max,
        remaining: Math.max(0, max - r.count),
        resetSeconds: Math.max(1, Math.ceil(r.ttlMs / 1000)),
      };
    } catch {
      return { allowed: true, limit: max, remaining: max, resetSeconds: 1 };
    }
  }
}

export class PageLimiter implements PageCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly limit: PageLimit,
    private readonly now: () => number = Date.now,
    private readonly maxClients = 100_000,
  ) {}

  /** Counts one page of the client at `ip`. */
  take(ip: string): PageVerdict {
    const key = clientKey(ip);
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || w.endsAt <= t) {
      if (w) this.windows.delete(key);
      this.prune(t);
      w = { count: 0, endsAt: t + this.limit.timeWindowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return {
      allowed: w.count <= this.limit.max,
      limit: this.limit.max,
      remaining: Math.max(0, this.limit.max - w.count),
      resetSeconds: Math.max(1, Math.ceil((w.endsAt - t) / 1000)),
    };
  }

  /** Windows are kept in the order they opened: the ended ones, then past the cap the oldest, go first. */
  private prune(t: number): void {
    for (const [key, w] of this.windows) {
      if (w.endsAt > t && this.windows.size < this.maxClients) break;
      this.windows.delete(key);
    }
  }
}

/** The client an address counts as: IPv4 (also IPv4-mapped IPv6) itself, IPv6 its /64. */
export function clientKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) =>
    (part === '' ? [] : part.split(':')).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
