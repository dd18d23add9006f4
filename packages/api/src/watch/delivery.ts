/**
 * Webhook deliveries (issue 39). Each delivery row is written before its first attempt (at-least-once); the
 * dispatcher claims due rows (db/watch `claimDeliveries`: the earliest due of each rule, none of a rule with an
 * attempt in flight here, with a lease so no other process takes them meanwhile), POSTs each body signed with its
 * rule's secret, and records the outcome: 2xx is delivered; anything else (another status, a timeout of 10 s, a
 * refused address) is tried again after `base × 2^(attempts-1)` (10 s, 20 s, 40 s …, at most 1 h apart) until
 * 24 h after the delivery was created, then failed. Bounded: at most `concurrency` attempts at once in the
 * process, one per rule, so a slow or failing webhook holds its own rule only. A process that starts finds the
 * pending rows of a previous one (their lease ended) and resumes them. Redirects are not followed.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Db } from '@michelscope/db/read';
import { claimDeliveries, recordAttempt, type ClaimedDelivery } from '@michelscope/db/watch';
import { guardedLookup, isPrivateAddress } from './url-check';

export interface DeliveryOptions {
  /** Attempts in flight at once in this process (default 32). */
  concurrency?: number;
  /** Time limit of one attempt (default 10 s). */
  timeoutMs?: number;
  /** The first retry's delay; each next one doubles (default 10 s). */
  backoffBaseMs?: number;
  /** The longest delay between attempts (default 1 h). */
  backoffMaxMs?: number;
  /** How long after its creation a delivery is retried before it is failed (default 24 h). */
  retryWindowMs?: number;
  /** How often due deliveries are looked for without a wake-up (default 1 s). */
  pollMs?: number;
  /** Let deliveries reach private addresses (the operator's `watch.allow_private_targets`). */
  allowPrivateTargets?: boolean;
}

/** `X-Michelscope-Signature`'s value for a body: `sha256=` and the hex HMAC-SHA256 of its bytes with the secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The delay before attempt `attempts + 1`, after `attempts` failed ones. */
export function backoffDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

interface PostResult {
  statusCode: number | null;
  error: string | null;
}

/** One POST: the status, or why there is none. Never follows a redirect (a 3xx is a failed attempt). */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  allowPrivate: boolean,
) {
  return new Promise<PostResult>((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return resolve({ statusCode: null, error: 'invalid url' });
    }
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!allowPrivate && isIP(host) && isPrivateAddress(host))
      return resolve({ statusCode: null, error: `${host} is a private address` });
    const lib = u.protocol === 'https:' ? https : http;
    const req = lib.request(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(allowPrivate),
        timeout: timeoutMs,
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ statusCode: res.statusCode ?? null, error: null }));
        res.on('error', () => resolve({ statusCode: res.statusCode ?? null, error: null }));
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => resolve({ statusCode: null, error: err.message.slice(0, 500) }));
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}

export class Dispatcher {
  private readonly busy = new Set<string>();
  private running = 0;
  private timer?: NodeJS.Timeout;
  private pumping = false;
  private again = false;
  private stopped = false;
  private readonly inflight = new Set<Promise<void>>();
  private readonly o: Required<DeliveryOptions>;

  constructor(
    private readonly db: Db,
    opts: DeliveryOptions = {},
    private readonly log: (msg: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.o = {
      concurrency: opts.concurrency ?? 32,
      timeoutMs: opts.timeoutMs ?? 10_000,
      backoffBaseMs: opts.backoffBaseMs ?? 10_000,
      backoffMaxMs: opts.backoffMaxMs ?? 3_600_000,
      retryWindowMs: opts.retryWindowMs ?? 24 * 3_600_000,
      pollMs: opts.pollMs ?? 1_000,
      allowPrivateTargets: opts.allowPrivateTargets ?? false,
    };
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.o.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.inflight]);
  }

  /** Look for due deliveries now (new ones were written, or an attempt ended). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump()
      .catch((err: unknown) => this.log(`[watch] delivery: ${(err as Error).message}`))
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pump(): Promise<void> {
    const room = this.o.concurrency - this.running;
    if (room <= 0) return;
    const claimed = await claimDeliveries(this.db, {
      limit: room,
      busy: [...this.busy],
      // an attempt ends within its timeout: past this the row is due again (its process died)
      leaseMs: this.o.timeoutMs * 3 + 5_000,
    });
    for (const d of claimed) {
      if (this.stopped) return;
      this.busy.add(d.rule_id);
      this.running++;
      const p = this.attempt(d)
        .catch((err: unknown) => this.log(`[watch] delivery ${d.id}: ${(err as Error).message}`))
        .finally(() => {
          this.busy.delete(d.rule_id);
          this.running--;
          this.inflight.delete(p);
          // claim in batches: once a quarter of the slots are free (or none is busy), not after each attempt
          const room = this.o.concurrency - this.running;
          if (this.running === 0 || room >= Math.max(1, Math.floor(this.o.concurrency / 4))) this.wake();
        });
      this.inflight.add(p);
    }
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify({ ...(d.body as object), sent_at: new Date(this.now()).toISOString() });
    const started = performance.now();
    const r = await post(
      d.url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'Michelscope-Webhook/1',
        'x-michelscope-signature': signBody(d.secret, body),
        'x-michelscope-delivery': d.idempotency_key,
      },
      this.o.timeoutMs,
      this.o.allowPrivateTargets,
    );
    const latencyMs = Math.round(performance.now() - started);
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    if (ok) {
      await recordAttempt(this.db, d.id, {
        status: 'delivered',
        statusCode: r.statusCode,
        error: null,
        latencyMs,
      });
      return;
    }
    const attempts = d.attempts + 1;
    const next = this.now() + backoffDelay(attempts, this.o.backoffBaseMs, this.o.backoffMaxMs);
    const expired = next - new Date(d.created_at).getTime() > this.o.retryWindowMs;
    await recordAttempt(this.db, d.id, {
      status: expired ? 'failed' : 'pending',
      statusCode: r.statusCode,
      error: r.error ?? `answered ${r.statusCode}`,
      latencyMs,
      ...(expired ? {} : { nextAttemptAt: new Date(next) }),
    });
  }
}
