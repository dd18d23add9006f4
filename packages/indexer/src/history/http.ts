/**
 * The HTTP side of a history walk, shared by the sources: a JSON GET with a time limit, a size limit (the
 * body is read up to the limit and refused beyond, as NodeRpc's readLimited does for the node), the
 * caller's signal, HTTP 429 waited out as the source asks, and every failure a typed HistoryError. One
 * `Walk` per `levels()` call also counts the walk's requests and levels against its limits.
 */
import { networkReason, retryAfterMs as nodeRetryAfterMs } from '../rpc/client';
import { HistoryError, type HistoryLimits, type HistoryWait } from './source';

export type ResolvedLimits = Required<HistoryLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = {
  pageSize: 100,
  maxLevels: 100_000,
  maxRequests: 100_000,
  timeoutMs: 30_000,
  maxBytes: 16 * 1024 * 1024,
  maxRetries: 5,
  maxRetryWaitMs: 60_000,
};

/** The source's limits over its defaults, checked (a RangeError names the wrong one). */
export function resolveLimits(
  given: HistoryLimits,
  defaults: Partial<ResolvedLimits> & { maxPageSize: number },
): ResolvedLimits {
  const { maxPageSize, ...rest } = defaults;
  const limits: ResolvedLimits = { ...DEFAULT_LIMITS, ...rest };
  for (const key of Object.keys(limits) as Array<keyof ResolvedLimits>) {
    const v = given[key];
    if (v === undefined) continue;
    const min = key === 'maxRetries' || key === 'maxRetryWaitMs' ? 0 : 1;
    if (!Number.isSafeInteger(v) || v < min || (key === 'pageSize' && v > maxPageSize))
      throw new RangeError(
        `${key} must be an integer from ${min}${key === 'pageSize' ? ` to ${maxPageSize}` : ''}, got ${v}`,
      );
    limits[key] = v;
  }
  return limits;
}

/** The base URL without trailing slashes; http(s) only (it is the operator's configuration). */
export function baseUrl(url: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`${what} is not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new RangeError(`${what} must be an http(s) URL, got ${parsed.protocol}`);
  return url.replace(/\/+$/, '');
}

export interface JsonAnswer {
  status: number;
  /** The parsed body; null for an empty body (204). */
  body: unknown;
}

export class Walk {
  requests = 0;
  found = 0;
  /** Told before each 429 wait (HistoryQuery.onWait). */
  onWait: ((wait: HistoryWait) => void) | undefined;

  constructor(
    readonly source: string,
    readonly limits: ResolvedLimits,
    private readonly signal: AbortSignal,
    private readonly headers: Record<string, string> = {},
  ) {}

  error(kind: 'invalid' | 'unavailable' | 'limit', message: string): HistoryError {
    return new HistoryError(kind, this.source, message);
  }

  throwIfAborted(): void {
    if (this.signal.aborted) throw new HistoryError('aborted', this.source, 'stopped by the caller');
  }

  /** Counts a page's levels against maxLevels before it is given. */
  count(levels: number): void {
    if (this.found + levels > this.limits.maxLevels)
      throw this.error(
        'limit',
        `more than ${this.limits.maxLevels} levels (the maxLevels limit); resume from the last cursor with a higher limit or a narrower range`,
      );
    this.found += levels;
  }

  /**
   * GET `url` and parse its JSON. 2xx, and the statuses in `expected` (e.g. 404 for an unknown account),
   * return; 429 is waited out and retried; anything else throws a HistoryError.
   */
  async get(url: string, expected: readonly number[] = []): Promise<JsonAnswer> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.once(url);
      if (answer.status !== 429) return this.check(url, answer, expected);
      const asked = retryAfterMs(answer.headers);
      const wait = asked ?? Math.min(1000 * 2 ** attempt, this.limits.maxRetryWaitMs);
      if (attempt >= this.limits.maxRetries || wait > this.limits.maxRetryWaitMs)
        throw new HistoryError(
          'rate_limited',
          this.source,
          `GET ${url}: HTTP 429 (${attempt} retries; asked to wait ${asked === null ? 'an unspecified time' : `${asked} ms`})`,
          asked,
        );
      this.onWait?.({ ms: wait, retryAfter: asked !== null, reason: `GET ${url}: HTTP 429` });
      await this.sleep(wait);
    }
  }

  private check(
    url: string,
    answer: { status: number; text: string },
    expected: readonly number[],
  ): JsonAnswer {
    const { status, text } = answer;
    const ok = (status >= 200 && status < 300) || expected.includes(status);
    if (!ok) {
      const body = text.slice(0, 200).replace(/\s+/g, ' ');
      // 5xx (and 408) is the source's trouble, 401/403 its access rules: try later or elsewhere. Any other
      // status says our request was refused, which only a source that is not what it claims does.
      const down = status >= 500 || status === 408 || status === 401 || status === 403;
      throw this.error(
        down ? 'unavailable' : 'invalid',
        `GET ${url}: HTTP ${status}${body ? ` ${body}` : ''}`,
      );
    }
    if (text.trim() === '') return { status, body: null };
    try {
      return { status, body: JSON.parse(text) as unknown };
    } catch {
      throw this.error('invalid', `GET ${url}: the answer is not JSON`);
    }
  }

  private async once(url: string): Promise<{ status: number; text: string; headers: Headers }> {
    this.throwIfAborted();
    if (this.requests >= this.limits.maxRequests)
      throw this.error(
        'limit',
        `more than ${this.limits.maxRequests} requests (the maxRequests limit); resume from the last cursor`,
      );
    this.requests++;
    // One controller per request, aborted by its timer or the walk's signal, both removed when it ends (an
    // AbortSignal.timeout joined with AbortSignal.any is held weakly: see metadata/fetch.ts).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.limits.timeoutMs);
    const stop = () => controller.abort();
    this.signal.addEventListener('abort', stop, { once: true });
    try {
      const res = await fetch(url, {
        signal: controller.signal,
        headers: { accept: 'application/json', 'user-agent': 'Michelscope-indexer', ...this.headers },
      });
      const text = await this.readLimited(url, res);
      return { status: res.status, text, headers: res.headers };
    } catch (err) {
      if (err instanceof HistoryError) throw err;
      this.throwIfAborted();
      if (timedOut)
        throw this.error('unavailable', `GET ${url}: no answer within ${this.limits.timeoutMs} ms`);
      throw this.error('unavailable', `GET ${url}: ${networkReason(err)}`);
    } finally {
      clearTimeout(timer);
      this.signal.removeEventListener('abort', stop);
    }
  }

  private async readLimited(url: string, res: Response): Promise<string> {
    const max = this.limits.maxBytes;
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > max) {
      await res.body?.cancel().catch(() => {});
      throw this.error('invalid', `GET ${url}: an answer of ${declared} bytes (the limit is ${max})`);
    }
    if (!res.body) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      // leaving the loop cancels the rest of the body
      if (size > max) throw this.error('invalid', `GET ${url}: the answer exceeds ${max} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Waits `ms`, or throws 'aborted' as soon as the walk's signal fires. */
  private sleep(ms: number): Promise<void> {
    this.throwIfAborted();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', stop);
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, ms);
      const stop = () => {
        done();
        reject(new HistoryError('aborted', this.source, 'stopped by the caller'));
      };
      this.signal.addEventListener('abort', stop, { once: true });
    });
  }
}

/**
 * The delay a 429 asks for: `Retry-After` in seconds or as an HTTP date (RFC 9110, read as the node's RPC
 * client reads it), else TzKT Pro's `RateLimit-Reset` (seconds until the quota resets); null when neither says.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const asked = nodeRetryAfterMs(headers.get('retry-after'), now);
  if (asked !== null) return asked;
  const reset = headers.get('ratelimit-reset')?.trim();
  if (reset && /^\d+$/.test(reset)) return Number(reset) * 1000;
  return null;
}
