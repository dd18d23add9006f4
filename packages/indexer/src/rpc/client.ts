/**
 * Minimal node RPC client for the indexer: GET with a per-request timeout and the indexer's stop signal.
 * (Taquito's RpcClient has no per-request abort, which `stop()` needs; its response types are reused.)
 *
 * Politeness towards public nodes: a node that answers 429 (or 503 with Retry-After) pauses every request
 * of the client, not only the one refused (a shared gate: the parallel block fetches wait together), for its
 * Retry-After (seconds or an HTTP date, capped) or else a delay doubling while it keeps refusing. Then one
 * request at a time goes, and the requests allowed at once grow again as the node answers (doubling up to
 * half of what was in flight at the refusal, then by one per round, like TCP's congestion window). Each
 * request is retried a bounded number of times. An optional rate limit spaces all requests of the client.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export type RpcErrorKind = 'unreachable' | 'timeout' | 'http' | 'not_found' | 'invalid';

/** A failed RPC call: the node could not be reached, answered an error status, or sent unusable data. */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly kind: RpcErrorKind,
    message: string,
    /** Short reason for log lines, e.g. `ECONNREFUSED`, `HTTP 502`, `timeout after 30000 ms`. */
    readonly reason: string,
  ) {
    super(message);
  }
}

/** Thrown when the indexer was stopped while a call or a wait was pending. */
export class StoppedError extends Error {
  override name = 'StoppedError';
}

export interface RpcClientOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Largest accepted response body (bytes). Default 64 MiB. */
  maxBytes?: number;
  /** Requests per second at most, over all requests of this client. Default: no limit. */
  rateLimit?: number;
  /**
   * When the node refuses for load (429, or 503 with Retry-After): how often one request is retried
   * (default 6), the first pause without Retry-After (default 1000 ms, doubling) and the longest pause
   * (default 60000 ms; a longer Retry-After is cut to it).
   */
  throttle?: { retries?: number; initialMs?: number; maxMs?: number };
  /** One line when the node starts refusing requests for load. Default: none. */
  log?: (line: string) => void;
}

/** Defaults of RpcClientOptions.throttle. */
export const THROTTLE_RETRIES = 6;
export const THROTTLE_INITIAL_MS = 1000;
export const THROTTLE_MAX_MS = 60_000;

/**
 * Retry-After in milliseconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent
 * or unreadable. A date in the past is 0.
 */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (!/[a-z]/i.test(v) || Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Above this many requests at once after a refusal, the client stops counting (no limit again). */
const WINDOW_CAP = 64;

export class NodeRpc {
  readonly baseUrl: string;
  /** Until then no request starts (the node refused one for load). */
  private pausedUntil = 0;
  /** Pauses since the node last answered a request sent after one (the pause doubles with each). */
  private refusals = 0;
  /** Bumped on each pause: what a request sent before it got (refused or answered) says nothing new. */
  private epoch = 0;
  /** Requests sent and not yet answered. */
  private inFlight = 0;
  /** Requests allowed at once (Infinity: no refusal lately), and where its growth slows down. */
  private window = Infinity;
  private threshold = Infinity;
  private answeredInRound = 0;
  /** Resolved (and replaced) whenever a request ends or a pause begins: the waiters look again. */
  private wake = changeSignal();
  /** Start of the next request's slot under `rateLimit`. */
  private nextSlot = 0;
  private readonly retries: number;
  private readonly initialMs: number;
  private readonly maxMs: number;

  constructor(
    rpcUrl: string,
    private readonly opts: RpcClientOptions,
  ) {
    this.baseUrl = rpcUrl.replace(/\/+$/, '');
    this.retries = Math.max(0, opts.throttle?.retries ?? THROTTLE_RETRIES);
    this.maxMs = Math.max(1, opts.throttle?.maxMs ?? THROTTLE_MAX_MS);
    this.initialMs = Math.min(this.maxMs, Math.max(1, opts.throttle?.initialMs ?? THROTTLE_INITIAL_MS));
    if (opts.rateLimit !== undefined && !(opts.rateLimit > 0))
      throw new TypeError(`rateLimit must be a positive number, got ${String(opts.rateLimit)}`);
  }

  /**
   * GET `{rpcUrl}{path}` and parse JSON. Throws RpcError or StoppedError, never anything else. A refusal
   * for load is retried after the pause (a bounded number of times, then thrown as RpcError 'http').
   */
  async get(path: string): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      await this.admit();
      const epoch = this.epoch;
      let concurrent = 0;
      let res: Response;
      let text: string;
      try {
        ({ res, text } = await this.send(path));
      } finally {
        concurrent = this.inFlight;
        this.inFlight--;
        this.notify();
      }
      const wait =
        res.status === 429 || res.status === 503 ? retryAfterMs(res.headers.get('retry-after')) : null;
      if (res.status !== 429 && !(res.status === 503 && wait !== null)) {
        // the node answered (even an error of its own): more requests may go at once
        if (epoch === this.epoch) this.answered();
        return this.parse(path, res, text);
      }
      // a refusal of a request sent before the current pause began says nothing new: it just waits too
      if (epoch === this.epoch) this.pause(res.status, wait, concurrent);
      if (attempt >= this.retries) {
        throw new RpcError(
          'http',
          `GET ${this.baseUrl}${path}: HTTP ${res.status}, refused for load ${attempt + 1} times`,
          `HTTP ${res.status}`,
        );
      }
    }
  }

  /** One request, with its own timeout (the wait at the gate is not part of it). */
  private async send(path: string): Promise<{ res: Response; text: string }> {
    if (this.opts.signal.aborted) throw new StoppedError('indexer stopped');
    const url = `${this.baseUrl}${path}`;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([this.opts.signal, timeout]);
    try {
      const res = await fetch(url, {
        signal,
        headers: { accept: 'application/json', 'user-agent': 'Michelscope-indexer' },
      });
      return { res, text: await readLimited(res, this.opts.maxBytes ?? DEFAULT_MAX_BYTES) };
    } catch (err) {
      if (this.opts.signal.aborted) throw new StoppedError('indexer stopped');
      if (timeout.aborted) {
        throw new RpcError(
          'timeout',
          `GET ${url}: no answer within ${this.opts.timeoutMs} ms`,
          `timeout after ${this.opts.timeoutMs} ms`,
        );
      }
      if (err instanceof RpcError) throw err;
      const reason = networkReason(err);
      throw new RpcError('unreachable', `GET ${url}: ${reason}`, reason);
    }
  }

  private parse(path: string, res: Response, text: string): unknown {
    const url = `${this.baseUrl}${path}`;
    if (res.status === 404) throw new RpcError('not_found', `GET ${url}: 404 not found`, 'HTTP 404');
    if (!res.ok) {
      const body = text.slice(0, 200).replace(/\s+/g, ' ');
      throw new RpcError(
        'http',
        `GET ${url}: HTTP ${res.status}${body ? ` ${body}` : ''}`,
        `HTTP ${res.status}`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RpcError(
        'invalid',
        `GET ${url}: the node answered something that is not JSON`,
        'invalid JSON',
      );
    }
  }

  /**
   * Waits for the gate (the end of a pause, room in the window of requests at once, a slot of the rate
   * limit), then counts the request as in flight.
   */
  private async admit(): Promise<void> {
    for (;;) {
      if (this.opts.signal.aborted) throw new StoppedError('indexer stopped');
      const now = Date.now();
      if (this.pausedUntil > now) {
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      if (this.inFlight >= this.window) {
        await this.waitForChange();
        continue;
      }
      if (this.opts.rateLimit) {
        const slot = Math.max(now, this.nextSlot);
        this.nextSlot = slot + 1000 / this.opts.rateLimit;
        if (slot > now) {
          await this.sleep(slot - now);
          if (this.pausedUntil > Date.now() || this.inFlight >= this.window) continue;
        }
      }
      this.inFlight++;
      return;
    }
  }

  /**
   * A refusal of a request sent since the last pause: every request waits, longer each time; then one goes
   * at a time, and at most half of those in flight at the refusal before growing slowly.
   */
  private pause(status: number, retryAfter: number | null, concurrent: number): void {
    const wasThrottled = this.window !== Infinity;
    this.refusals++;
    this.epoch++;
    this.threshold = Math.max(1, Math.floor(concurrent / 2));
    this.window = 1;
    this.answeredInRound = 0;
    const backoff = Math.min(this.maxMs, this.initialMs * 2 ** (this.refusals - 1));
    const ms = retryAfter === null ? backoff : Math.min(this.maxMs, retryAfter);
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
    if (!wasThrottled) {
      this.opts.log?.(
        `RPC ${this.baseUrl} is rate-limiting (HTTP ${status}): pausing all its requests for ${formatMs(ms)} ` +
          `(${retryAfter === null ? 'no Retry-After; doubling while refused' : 'its Retry-After'}), ` +
          `then one at a time, more as it answers`,
      );
    }
    this.notify();
  }

  /** An answer to a request sent since the last pause: the pause starts over, the window grows. */
  private answered(): void {
    this.refusals = 0;
    if (this.window === Infinity) return;
    if (this.window < this.threshold) this.window++;
    else if (++this.answeredInRound >= this.window) {
      this.window++;
      this.answeredInRound = 0;
    }
    if (this.window > WINDOW_CAP) this.window = this.threshold = Infinity;
    this.notify();
  }

  private notify(): void {
    const { resolve } = this.wake;
    this.wake = changeSignal();
    resolve();
  }

  private async waitForChange(): Promise<void> {
    const signal = this.opts.signal;
    let onAbort = () => {};
    const stopped = new Promise<void>((resolve) => (onAbort = resolve));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([this.wake.promise, stopped]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (signal.aborted) throw new StoppedError('indexer stopped');
  }

  private async sleep(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: this.opts.signal });
    } catch {
      throw new StoppedError('indexer stopped');
    }
  }
}

function changeSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
}

async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new RpcError(
      'invalid',
      `response of ${declared} bytes exceeds the ${maxBytes}-byte limit`,
      'response too large',
    );
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes)
      throw new RpcError('invalid', `response exceeds the ${maxBytes}-byte limit`, 'response too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from undici's "fetch failed" TypeError, else the message. */
export function networkReason(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  const message = err instanceof Error ? err.message : String(err);
  return message || 'network error';
}
