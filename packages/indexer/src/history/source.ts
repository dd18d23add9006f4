/**
 * Where a contract-history backfill learns which levels to read (issue 32, part 2). The node has no index by
 * address, so the backfill asks a history source for the levels where an address appears, then reads those
 * blocks from its own node: a source is trusted only for where to look, never for the chain's data, and
 * every answer it gives is checked (a level out of range, out of order or not an integer stops the walk).
 *
 * Sources: a Better Call Dev-compatible API (`bcd.ts`: the original or another Michelscope), TzKT (`tzkt.ts`),
 * and, with no index at all, a scan of the node's blocks (`scan.ts`).
 */
import { validateAddress, ValidationResult } from '@taquito/utils';

export interface LevelRange {
  from: number;
  to: number;
}

export interface HistoryQuery {
  /**
   * Highest level wanted (inclusive): the backfill's ceiling, usually the level its forward index starts
   * at (it holds everything above).
   */
  toLevel: number;
  /**
   * Lowest level wanted (inclusive). Default: where the address's history starts as far as the source knows
   * (a contract's origination, an account's first activity), else level 1.
   */
  fromLevel?: number;
  /** Resume after the page that gave this cursor (same source, address and levels). */
  cursor?: string;
  /** Stops the walk: pending requests are cancelled and the iteration throws HistoryError 'aborted'. */
  signal: AbortSignal;
  /**
   * Told before the walk waits out an HTTP 429 (the delay the source asked for in Retry-After, else its own
   * backoff), so that the caller can say why no page comes.
   */
  onWait?: (wait: HistoryWait) => void;
}

export interface HistoryWait {
  /** How long the walk waits before asking again. */
  ms: number;
  /** Whether the source said how long (Retry-After) or the walk backs off by itself. */
  retryAfter: boolean;
  /** The request that was refused, e.g. `GET https://…: HTTP 429`. */
  reason: string;
}

export interface HistoryPage {
  /**
   * Levels where the address appears: ascending, distinct, within [fromLevel, toLevel], none given by an
   * earlier page of the walk. May be empty (the source moved on and found none): persist the cursor anyway.
   */
  levels: number[];
  /** Pass as `HistoryQuery.cursor` to continue after this page, in this process or a later one. Opaque. */
  cursor: string;
  progress: HistoryProgress;
}

export interface HistoryProgress {
  /** Levels given so far by this walk, this page's included (a resumed walk counts from 0). */
  found: number;
  /**
   * Levels the walk has finished (each level in it where the address appears has been given): grows from
   * `range.to` down for a descending source, from `range.from` up for an ascending one. Null before any.
   */
  covered: LevelRange | null;
  /** Every level the walk covers, [lower bound, toLevel], when the lower bound is known: the total. */
  range: LevelRange | null;
}

export interface HistorySource {
  /** `bcd`, `tzkt`, `scan`: for logs, and the prefix of its cursors. */
  readonly name: string;
  /**
   * Order of the pages: oldest levels first or newest first (each page's levels are ascending either way).
   * BCD lists an account's operations newest first and a scan walks back from `toLevel`; TzKT pages forward.
   */
  readonly order: 'ascending' | 'descending';
  /** The levels ≤ `toLevel` where `address` appears, in pages. Throws RangeError for an invalid address or query. */
  levels(address: string, query: HistoryQuery): AsyncIterable<HistoryPage>;
  /**
   * Where the address's history starts: a contract's origination, an implicit account's first activity;
   * null when the source does not know the address (or, BCD, for an implicit account). Sources without an
   * index (the scan) have none.
   */
  originLevel?(address: string, opts: { signal: AbortSignal }): Promise<number | null>;
}

/** Bounds of one walk; every field has a default. */
export interface HistoryLimits {
  /** Items asked per request (BCD: operation groups, at most 10; TzKT: operations; scan: blocks per page). */
  pageSize?: number;
  /** Most levels one walk gives; beyond, it throws HistoryError 'limit' (the pages given stand). 100,000. */
  maxLevels?: number;
  /**
   * Most HTTP requests one walk makes (429 retries included): BCD pages through everything newer than
   * `toLevel` first, a scan asks one block a request. Beyond, HistoryError 'limit'. 100,000.
   */
  maxRequests?: number;
  /** Time limit of one request, from sending it to the end of the body. 30 s. */
  timeoutMs?: number;
  /** Largest response body accepted; a longer one is cut off and refused ('invalid'). 16 MiB (scan: 64 MiB). */
  maxBytes?: number;
  /** HTTP 429: times one request is retried after the delay the source asks for. 5. */
  maxRetries?: number;
  /** HTTP 429: the longest delay waited for; a longer Retry-After ends the walk ('rate_limited'). 60 s. */
  maxRetryWaitMs?: number;
}

export type HistoryErrorKind =
  /** The source could not be reached, timed out, answered 5xx / 401 / 403, or (scan) lacks a block. */
  | 'unavailable'
  /** An answer that is not what was asked: malformed, out of range or order, not integers, too large. */
  | 'invalid'
  /** HTTP 429 past the retries, or asking for a longer wait than allowed: `retryAfterMs` says when to retry. */
  | 'rate_limited'
  /** More levels or requests than the walk's limits allow. */
  | 'limit'
  /** The caller's signal stopped the walk. */
  | 'aborted';

/** A history walk failed; the pages it gave before stand (resume with the last one's cursor). */
export class HistoryError extends Error {
  override name = 'HistoryError';
  constructor(
    readonly kind: HistoryErrorKind,
    /** The source's name (`bcd`, `tzkt`, `scan`). */
    readonly source: string,
    message: string,
    /** For 'rate_limited': how long the source asked to wait, when it said (ms). */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`${source}: ${message}`);
  }
}

const ADDRESS_PREFIXES = ['tz1', 'tz2', 'tz3', 'tz4', 'KT1', 'sr1'];

/** The address, checked (base58check, a known prefix): it goes into URLs and is compared with answers. */
export function checkAddress(address: string): string {
  if (
    typeof address !== 'string' ||
    !ADDRESS_PREFIXES.some((p) => address.startsWith(p)) ||
    validateAddress(address) !== ValidationResult.VALID
  )
    throw new RangeError(`not a valid address: ${JSON.stringify(address)}`);
  return address;
}

export function isLevel(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

/** The query's levels, checked; `lower` is fromLevel or 1 (sources may raise it to the address's origin). */
export function checkQuery(query: HistoryQuery): { lower: number; toLevel: number } {
  if (!isLevel(query.toLevel)) throw new RangeError(`toLevel must be a level, got ${query.toLevel}`);
  if (query.fromLevel !== undefined && !isLevel(query.fromLevel))
    throw new RangeError(`fromLevel must be a level, got ${query.fromLevel}`);
  if (!(query.signal instanceof AbortSignal)) throw new RangeError('signal must be an AbortSignal');
  return { lower: Math.max(1, query.fromLevel ?? 1), toLevel: query.toLevel };
}

/** Reads `<source>:<n>:<n>…` cursors: a wrong one is the caller's mistake (another source's, or edited). */
export function parseCursor(source: string, cursor: string, parts: number): number[] {
  const fields = typeof cursor === 'string' ? cursor.split(':') : [];
  const numbers = fields.slice(1).map(Number);
  if (fields[0] !== source || numbers.length !== parts || !numbers.every((n) => Number.isSafeInteger(n)))
    throw new RangeError(`not a ${source} cursor: ${JSON.stringify(cursor)}`);
  return numbers;
}

/** Short description of an unexpected value for error messages (untrusted text, cut). */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s = JSON.stringify(v) ?? typeof v;
  } catch {
    s = typeof v; // a BigInt or a cycle: never in parsed JSON
  }
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
