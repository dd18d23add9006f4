/**
 * A store for @fastify/rate-limit that counts in the database (db/rate-limits; issue 36 part 4): every API
 * process over one PostgreSQL counts a client's requests in the same row, so the limit is one per client
 * whatever process the load balancer picks. One UPSERT per counted request on the primary (measured in
 * apps/server/test/multi-process.test.ts and docs/DEPLOY.md). A route's own limit (`config.rateLimit`)
 * counts under its own key. Ended windows are deleted by each process once per minute.
 */
import { countRequest, pruneRequestCounts, readRequestCount } from '@michelscope/db/rate-limits';
import type { Db } from '@michelscope/db/read';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

type Done = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** How often a process deletes ended windows. */
const PRUNE_EVERY_MS = 60_000;

interface SharedStore extends FastifyRateLimitStore {
  read(key: string, done: Done): void;
}

/** What @fastify/rate-limit passes a store's `child`: a route's merged options, with the route. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** The `store` class option of @fastify/rate-limit, counting in `db`; `stop()` ends its pruning timer. */
export function databaseRateLimitStore(db: Db): { Store: FastifyRateLimitStoreCtor; stop(): void } {
  const timer = setInterval(() => {
    pruneRequestCounts(db).catch(() => undefined);
  }, PRUNE_EVERY_MS);
  timer.unref();
  const make = (scope: string): SharedStore => ({
    incr(key, done, timeWindow) {
      countRequest(db, `${scope}${key}`, timeWindow).then(
        (r) => done(null, { current: r.count, ttl: r.ttlMs }),
        (err: Error) => done(err),
      );
    },
    read(key, done) {
      readRequestCount(db, `${scope}${key}`).then(
        (r) => done(null, { current: r.count, ttl: r.ttlMs }),
        (err: Error) => done(err),
      );
    },
    child(routeOptions) {
      const info = (routeOptions as ChildOptions).routeInfo;
      const method = Array.isArray(info?.method) ? info.method.join(',') : (info?.method ?? '');
      return make(`${method} ${info?.url ?? ''}|`);
    },
  });
  return {
    Store: function Store() {
      return make('');
    } as unknown as FastifyRateLimitStoreCtor,
    stop: () => clearInterval(timer),
  };
}
