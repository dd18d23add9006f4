/**
 * Fair admission to a pool of script workers (issue 34): each client (the API's `request.ip`) has its own FIFO
 * queue, and a free slot goes to the waiting client with the fewest jobs running, then the least run time in
 * the window (the cost model: a run is charged the wall-clock time it took), then the one served longest ago.
 * So one client's runs wait behind each other, not in front of everyone; with `runningPerClient` below the
 * slots, a client never holds every worker, unless its runs are short (`lendMaxMs`). A client may have at most
 * `perClient` jobs queued or running, and `budgetMs` of run time per `windowMs` while other clients want the
 * pool too: past either its new runs are refused (429); past `maxQueued` waiting in all, or `maxWaitMs` of waiting, a run is refused as busy (503).
 */

export class SchedulerRefusal extends Error {
  constructor(
    /** 429: this client's share is spent; 503: the pool is busy for everyone. */
    readonly status: 429 | 503,
    message: string,
    /** Seconds after which a retry may succeed. */
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}

export interface FairSchedulerOptions {
  /** Jobs running at once (the pool's threads). */
  slots: number;
  /** A client's jobs queued or running at most (then 429). */
  perClient: number;
  /** A client's jobs running at once at most (default `slots`): below `slots`, a slot stays for the others. */
  runningPerClient?: number;
  /**
   * A client whose runs took this long or less on average (in the window, running ones included) may run past
   * `runningPerClient`, on every free slot: a lone client of short runs keeps the whole pool, and a client that
   * arrives waits at most one such short run. Default: never (the cap always holds).
   */
  lendMaxMs?: number;
  /** Jobs waiting, all clients together, at most (then 503). */
  maxQueued: number;
  /** How long a job may wait for a slot (then 503). */
  maxWaitMs: number;
  /** A client's run time allowed per window, in ms (then 429). */
  budgetMs: number;
  windowMs: number;
  /** What the refusals call a run ("recording", "script run"). */
  noun?: string;
  now?: () => number;
}

interface Waiting {
  start: () => void;
  refuse: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Client {
  queue: Waiting[];
  running: number;
  /** Start times of the runs in progress. */
  since: Set<number>;
  /** Finished runs: [end, ms], oldest first. */
  usage: [number, number][];
  /** Sequence number of the last time it was given a slot. */
  served: number;
}

export class FairScheduler {
  private readonly clients = new Map<string, Client>();
  private running = 0;
  private queued = 0;
  private serial = 0;
  private readonly now: () => number;

  private readonly runningCap: number;

  constructor(private readonly opts: FairSchedulerOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.runningCap = Math.max(1, Math.min(opts.runningPerClient ?? opts.slots, opts.slots));
  }

  /** Run time charged to `client` in the window: its finished runs plus the time its running ones have taken. */
  charged(client: string): number {
    const c = this.clients.get(client);
    if (!c) return 0;
    const now = this.now();
    this.expire(c, now);
    let ms = 0;
    for (const [, d] of c.usage) ms += d;
    for (const t of c.since) ms += now - t;
    return ms;
  }

  /** Jobs queued or running, for tests and logs. */
  load(client?: string): { running: number; queued: number } {
    if (client === undefined) return { running: this.running, queued: this.queued };
    const c = this.clients.get(client);
    return { running: c?.running ?? 0, queued: c?.queue.length ?? 0 };
  }

  /** Runs `job` for `client` once it is given a slot; refuses with `SchedulerRefusal` (see the module comment). */
  async run<T>(client: string, job: () => Promise<T>): Promise<T> {
    const { opts } = this;
    const noun = opts.noun ?? 'run';
    const c = this.client(client);
    if (c.running + c.queue.length >= opts.perClient)
      throw new SchedulerRefusal(
        429,
        `too many ${noun}s of yours at once (${opts.perClient} queued or running at most); retry when one ends`,
        1,
      );
    // the budget is enforced when others want the pool too (an idle pool serves anyone)
    const spent = this.charged(client);
    if (spent >= opts.budgetMs && this.othersThan(c))
      throw new SchedulerRefusal(
        429,
        `your ${noun}s took ${(spent / 1000).toFixed(1)} s of the last ${Math.round(opts.windowMs / 1000)} s, ` +
          `more than your share (${Math.round(opts.budgetMs / 1000)} s); retry later`,
        Math.max(1, Math.ceil(this.untilBelow(c, opts.budgetMs) / 1000)),
      );
    if (this.queued >= opts.maxQueued)
      throw new SchedulerRefusal(503, `too many ${noun}s are waiting; retry shortly`, 2);
    // queued, then given a slot by `dispatch` at once when one is free for it, else when its turn comes
    await new Promise<void>((resolve, reject) => {
      const w: Waiting = {
        start: resolve,
        refuse: reject,
        timer: setTimeout(() => {
          const i = c.queue.indexOf(w);
          if (i < 0) return;
          c.queue.splice(i, 1);
          this.queued--;
          this.forget(client, c);
          reject(
            new SchedulerRefusal(
              503,
              `no worker was free for ${Math.round(opts.maxWaitMs / 1000)} s; retry shortly`,
              2,
            ),
          );
        }, opts.maxWaitMs),
      };
      c.queue.push(w);
      this.queued++;
      this.dispatch();
    });
    const started = this.now();
    c.since.add(started);
    try {
      return await job();
    } finally {
      const end = this.now();
      c.since.delete(started);
      c.usage.push([end, end - started]);
      c.running--;
      this.running--;
      this.forget(client, c);
      this.dispatch();
    }
  }

  /** Whether the client's runs are short enough to be lent a slot past its running cap (`lendMaxMs`). */
  private short(c: Client): boolean {
    const max = this.opts.lendMaxMs;
    if (max === undefined) return false;
    const now = this.now();
    this.expire(c, now);
    let ms = 0;
    for (const [, d] of c.usage) ms += d;
    for (const t of c.since) ms += now - t;
    const runs = c.usage.length + c.since.size;
    return runs === 0 || ms / runs <= max;
  }

  /** Whether another client has runs in progress or waiting. */
  private othersThan(c: Client): boolean {
    return this.running > c.running || this.queued > c.queue.length;
  }

  private client(id: string): Client {
    let c = this.clients.get(id);
    if (!c) {
      c = { queue: [], running: 0, since: new Set(), usage: [], served: 0 };
      this.clients.set(id, c);
    }
    return c;
  }

  private take(c: Client): void {
    c.running++;
    this.running++;
    c.served = ++this.serial;
  }

  private expire(c: Client, now: number): void {
    while (c.usage.length > 0 && (c.usage[0] as [number, number])[0] <= now - this.opts.windowMs)
      c.usage.shift();
  }

  /** Ms until the client's charged time falls below `budget` (its oldest runs leave the window). */
  private untilBelow(c: Client, budget: number): number {
    const now = this.now();
    let ms = 0;
    for (const t of c.since) ms += now - t;
    for (const [, d] of c.usage) ms += d;
    for (const [end, d] of c.usage) {
      if (ms < budget) break;
      ms -= d;
      if (ms < budget) return end + this.opts.windowMs - now;
    }
    return this.opts.windowMs;
  }

  private forget(id: string, c: Client): void {
    if (c.running === 0 && c.queue.length === 0 && c.usage.length === 0) this.clients.delete(id);
  }

  /** Gives free slots to waiting clients: fewest running, then least charged, then served longest ago. */
  private dispatch(): void {
    while (this.running < this.opts.slots && this.queued > 0) {
      let best: Client | undefined;
      let bestKey: [number, number, number] | undefined;
      for (const [id, c] of this.clients) {
        if (c.queue.length === 0 || (c.running >= this.runningCap && !this.short(c))) continue;
        const key: [number, number, number] = [c.running, this.charged(id), c.served];
        if (
          !bestKey ||
          key[0] < bestKey[0] ||
          (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))
        ) {
          best = c;
          bestKey = key;
        }
      }
      if (!best) return; // only clients at their running cap wait: the free slot stays for the others
      const w = best.queue.shift() as Waiting;
      this.queued--;
      clearTimeout(w.timer);
      this.take(best);
      w.start();
    }
  }
}
