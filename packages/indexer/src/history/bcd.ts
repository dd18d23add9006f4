/**
 * History from a Better Call Dev-compatible API: the original (api.better-call.dev) or another Michelscope,
 * which serves the same route. `GET {base}/v1/contract/{network}/{address}/opg?size=…&last_id=…` lists the
 * account's operation groups (one per hash and counter, internal operations included, a contract's
 * implicit ones too) newest first; each group's `last_id` is the smallest operation id in it, and the next
 * page is asked with the last one's (reference §6.9; packages/api/src/routes/contract.ts). `size` is at most
 * 10 (larger is a 400), a page may hold fewer groups than asked without being the last, and an empty page
 * is the end. An unknown account is a 404 `{"message"}`.
 *
 * So pages come newest first: everything above `toLevel` is paged through and skipped (bounded by
 * maxRequests), and the walk stops at the lower bound: `fromLevel`, or a contract's origination level
 * (`GET {base}/v1/contract/{network}/{address}`), below which nothing can exist.
 */
import { baseUrl, resolveLimits, Walk, type ResolvedLimits } from './http';
import {
  checkAddress,
  checkQuery,
  describe,
  isLevel,
  parseCursor,
  type HistoryLimits,
  type HistoryPage,
  type HistoryQuery,
  type HistoryWait,
  type HistorySource,
} from './source';

export interface BcdSourceOptions extends HistoryLimits {
  /** The API's base, before `/v1` (e.g. `https://api.better-call.dev`, or a Michelscope's address). */
  baseUrl: string;
  /** The network's name on that API (`mainnet`, `ghostnet`, …). */
  network: string;
}

/** BCD's page size limit (`bcd_max_size`): a larger `size` is refused. */
const BCD_MAX_SIZE = 10;

export class BcdSource implements HistorySource {
  readonly name = 'bcd';
  readonly order = 'descending';
  private readonly base: string;
  private readonly network: string;
  private readonly limits: ResolvedLimits;

  constructor(opts: BcdSourceOptions) {
    this.base = baseUrl(opts.baseUrl, 'baseUrl');
    if (!/^[a-z0-9_-]{1,64}$/i.test(opts.network))
      throw new RangeError(`not a network name: ${JSON.stringify(opts.network)}`);
    this.network = opts.network;
    this.limits = resolveLimits(opts, { pageSize: BCD_MAX_SIZE, maxPageSize: BCD_MAX_SIZE });
  }

  async originLevel(address: string, opts: { signal: AbortSignal }): Promise<number | null> {
    checkAddress(address);
    return this.origin(new Walk(this.name, this.limits, opts.signal), address);
  }

  levels(address: string, query: HistoryQuery): AsyncIterable<HistoryPage> {
    checkAddress(address);
    const bounds = checkQuery(query);
    const resume = query.cursor === undefined ? null : parseCursor(this.name, query.cursor, 2);
    return this.walk(address, bounds, resume, query.signal, query.onWait);
  }

  /** A contract's origination level (null: BCD does not know it); implicit accounts have none. */
  private async origin(walk: Walk, address: string): Promise<number | null> {
    if (!address.startsWith('KT1')) return null;
    const url = `${this.base}/v1/contract/${this.network}/${address}?stats=false`;
    // BCD answers 204 with no body for an unknown contract; a Michelscope may answer 404
    const { body } = await walk.get(url, [404]);
    if (body === null || (isObject(body) && typeof body.message === 'string')) return null;
    if (!isObject(body) || !isLevel(body.level) || (body.address !== undefined && body.address !== address))
      throw walk.error('invalid', `GET ${url}: not a contract of ${address}: ${describe(body)}`);
    return body.level;
  }

  private async *walk(
    address: string,
    bounds: { lower: number; toLevel: number },
    resume: number[] | null,
    signal: AbortSignal,
    onWait?: (wait: HistoryWait) => void,
  ): AsyncGenerator<HistoryPage> {
    const walk = new Walk(this.name, this.limits, signal);
    walk.onWait = onWait;
    const { toLevel } = bounds;
    const origin = await this.origin(walk, address);
    if (address.startsWith('KT1') && origin === null) return; // unknown to this API: no history here
    const lower = Math.max(bounds.lower, origin ?? 0);
    if (lower > toLevel) return;
    // the lower bound is known when the caller or the contract's origination gave it
    const knownLower = origin !== null || bounds.lower > 1;
    // lastId: the last group's `last_id` (the next page lists smaller ones); floor: the lowest level listed
    // so far (the next page's levels are at most that, and that one was already given if in range)
    let lastId = resume?.[0] ?? 0;
    let floor = resume?.[1] ?? Number.MAX_SAFE_INTEGER;
    if (floor <= lower) return; // a finished walk's cursor
    const size = this.limits.pageSize;
    for (;;) {
      const url =
        `${this.base}/v1/contract/${this.network}/${address}/opg?size=${size}` +
        (lastId !== 0 ? `&last_id=${lastId}` : '');
      const { status, body } = await walk.get(url, [404]);
      if (status === 404) {
        // BCD's 404 for an unknown account is `{"message"}`; its unknown route is text ('404 page not found')
        if (isObject(body) && typeof body.message === 'string' && lastId === 0) return;
        throw walk.error('invalid', `GET ${url}: HTTP 404 ${describe(body)}`);
      }
      if (!Array.isArray(body) || body.length > size)
        throw walk.error(
          'invalid',
          `GET ${url}: expected at most ${size} operation groups, got ${describe(body)}`,
        );
      if (body.length === 0) return;
      const found: number[] = [];
      for (const row of body as unknown[]) {
        const group = isObject(row) ? row : {};
        const id = group.last_id;
        const level = group.level;
        // a Michelscope's backfilled operations have negative ids (below its forward range); never 0
        if (typeof id !== 'number' || !Number.isSafeInteger(id) || id === 0)
          throw walk.error('invalid', `GET ${url}: last_id ${describe(id)} is not a non-zero integer`);
        if (lastId !== 0 && id >= lastId)
          throw walk.error(
            'invalid',
            `GET ${url}: last_id ${id} does not continue the list (after ${lastId})`,
          );
        if (!isLevel(level) || level > floor)
          throw walk.error(
            'invalid',
            `GET ${url}: level ${describe(level)} does not go back in time (the list was at ${floor})`,
          );
        if (origin !== null && level < origin)
          throw walk.error('invalid', `GET ${url}: level ${level} is before the origination (${origin})`);
        // the first group at a new level is the one that counts; a level equal to the floor was given
        if (level < floor && level <= toLevel && level >= lower) found.push(level);
        lastId = id;
        floor = level;
      }
      const levels = found.reverse();
      walk.count(levels.length);
      const done = floor <= lower;
      yield {
        levels,
        cursor: `${this.name}:${lastId}:${floor}`,
        progress: {
          found: walk.found,
          covered: floor <= toLevel ? { from: Math.max(floor, lower), to: toLevel } : null,
          range: knownLower ? { from: lower, to: toLevel } : null,
        },
      };
      if (done) return;
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
