/**
 * History from the TzKT API (api.tzkt.io, TzKT Pro, or a self-hosted TzKT). TzKT has one endpoint per
 * operation kind; an account's history is the union of several, as TzKT's own
 * `/v1/accounts/{address}/operations` builds it (Tzkt.Api AccountRepository.GetOperations), asked here with
 * only the level of each operation:
 *
 *   GET /v1/operations/transactions?anyof.sender.target.initiator={address}&level.ge={lower}&level.le={toLevel}
 *       &select=level&sort.asc=level&offset.cr={last level seen}&limit={pageSize}
 *
 * (originations by sender, initiator, delegate or originated contract; delegations by sender, initiator,
 * previous or new delegate; ticket transfers by sender, target or ticketer; paid storage increases;
 * migrations, where TzKT records protocol-made changes such as the liquidity baking subsidy; and for an
 * implicit account its reveals, registered constants and activation). Baker records (attestations, rewards,
 * staking) are not asked: they would name a baker at most levels.
 *
 * Paging by level, not by id: TzKT's cursor mode skips every element whose sort field is at most the cursor
 * (`offset.cr`, documented; SqlBuilder.Take: `Level > cr`, ordered by level then id), which its docs advise
 * against for a non-unique field because the rest of a level cut by the page end is skipped. Here that is
 * the point: a level given once is enough, so each page moves past whole levels and nothing is listed twice.
 * A page shorter than `limit` is a kind's last. The kinds are merged: the walk gives the levels up to the
 * lowest level every unfinished kind has reached, so pages are ascending and disjoint, and that level is
 * the cursor. `firstActivity` of `/v1/accounts/{address}` (a contract's origination) is the lower bound.
 * TzKT ignores query parameters it does not know (a misspelled filter would list everyone's operations), so
 * every answer is checked against the range asked. 429 is waited out (Retry-After, or TzKT Pro's
 * RateLimit-Reset).
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

export interface TzktSourceOptions extends HistoryLimits {
  /** The API's base, before `/v1` (e.g. `https://api.tzkt.io`, `https://api.ghostnet.tzkt.io`). */
  baseUrl: string;
  /** TzKT Pro's key, sent as the `apikey` header (never in the URL, which may be logged). */
  apiKey?: string;
}

/** TzKT's `limit` range on the operation endpoints (`[Range(0, 10000)]`). */
const TZKT_MAX_LIMIT = 10_000;

interface Kind {
  /** Endpoint under /v1/operations/. */
  path: string;
  /** The filter naming the address: one field, or `anyof.<field>.<field>…` (at least two fields). */
  filter: string;
}

/** The operation kinds asked for an address (see the file comment). */
function kindsFor(address: string): Kind[] {
  const kinds: Kind[] = [
    { path: 'transactions', filter: 'anyof.sender.target.initiator' },
    { path: 'originations', filter: 'anyof.sender.initiator.contractDelegate.originatedContract' },
    { path: 'delegations', filter: 'anyof.sender.initiator.prevDelegate.newDelegate' },
    { path: 'transfer_ticket', filter: 'anyof.sender.target.ticketer' },
    { path: 'increase_paid_storage', filter: address.startsWith('KT1') ? 'contract' : 'sender' },
    { path: 'migrations', filter: 'account' },
  ];
  if (address.startsWith('tz'))
    kinds.push(
      { path: 'reveals', filter: 'sender' },
      { path: 'register_constants', filter: 'sender' },
      { path: 'activations', filter: 'account' },
    );
  return kinds;
}

interface KindWalk extends Kind {
  /** Every level of this kind up to here is known (listed in `levels` or already given). */
  last: number;
  done: boolean;
  /** Levels read and not given yet, ascending. */
  levels: number[];
}

export class TzktSource implements HistorySource {
  readonly name = 'tzkt';
  readonly order = 'ascending';
  private readonly base: string;
  private readonly limits: ResolvedLimits;
  private readonly headers: Record<string, string>;

  constructor(opts: TzktSourceOptions) {
    this.base = baseUrl(opts.baseUrl, 'baseUrl');
    this.limits = resolveLimits(opts, { pageSize: 1000, maxPageSize: TZKT_MAX_LIMIT });
    if (opts.apiKey !== undefined && !/^[\x21-\x7e]{1,200}$/.test(opts.apiKey))
      throw new RangeError('apiKey must be printable ASCII without spaces');
    this.headers = opts.apiKey === undefined ? {} : { apikey: opts.apiKey };
  }

  async originLevel(address: string, opts: { signal: AbortSignal }): Promise<number | null> {
    checkAddress(address);
    const account = await this.account(new Walk(this.name, this.limits, opts.signal, this.headers), address);
    return account.known ? account.firstActivity : null;
  }

  levels(address: string, query: HistoryQuery): AsyncIterable<HistoryPage> {
    checkAddress(address);
    const bounds = checkQuery(query);
    const resume = query.cursor === undefined ? null : parseCursor(this.name, query.cursor, 1);
    return this.walk(address, bounds, resume?.[0] ?? null, query.signal, query.onWait);
  }

  /**
   * `/v1/accounts/{address}`: 204 for a contract TzKT does not know, `{"type": "empty"}` for such an implicit
   * account (no history either way); else `firstActivity` (null for a user TzKT has no first level for).
   */
  private async account(
    walk: Walk,
    address: string,
  ): Promise<{ known: boolean; firstActivity: number | null }> {
    const url = `${this.base}/v1/accounts/${address}`;
    const { body } = await walk.get(url);
    if (body === null) return { known: false, firstActivity: null };
    const account =
      typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    if (!account || typeof account.type !== 'string' || account.address !== address)
      throw walk.error('invalid', `GET ${url}: not the account ${address}: ${describe(body)}`);
    if (account.type === 'empty') return { known: false, firstActivity: null };
    const first = account.firstActivity;
    if (first !== undefined && first !== null && !isLevel(first))
      throw walk.error('invalid', `GET ${url}: firstActivity is not a level: ${describe(first)}`);
    return { known: true, firstActivity: first ?? null };
  }

  private async *walk(
    address: string,
    bounds: { lower: number; toLevel: number },
    resume: number | null,
    signal: AbortSignal,
    onWait?: (wait: HistoryWait) => void,
  ): AsyncGenerator<HistoryPage> {
    const walk = new Walk(this.name, this.limits, signal, this.headers);
    walk.onWait = onWait;
    const { toLevel } = bounds;
    const account = await this.account(walk, address);
    if (!account.known) return;
    const lower = Math.max(bounds.lower, account.firstActivity ?? 0);
    // mark: every level up to it has been given (by this walk, or the one the cursor comes from)
    let mark = Math.max(lower - 1, resume ?? 0);
    if (mark >= toLevel) return;
    const kinds: KindWalk[] = kindsFor(address).map((k) => ({ ...k, last: mark, done: false, levels: [] }));
    for (;;) {
      // the kinds that hold the mark back (at the start, all of them) read their next page
      for (const kind of kinds)
        if (!kind.done && kind.last === mark) await this.page(walk, address, kind, lower, toLevel);
      const next = Math.min(...kinds.map((k) => (k.done ? toLevel : k.last)));
      const given = new Set<number>();
      for (const kind of kinds) {
        const cut = kind.levels.findIndex((l) => l > next);
        for (const level of kind.levels.splice(0, cut < 0 ? kind.levels.length : cut)) given.add(level);
      }
      const levels = [...given].sort((a, b) => a - b);
      walk.count(levels.length);
      mark = next;
      yield {
        levels,
        cursor: `${this.name}:${mark}`,
        progress: {
          found: walk.found,
          covered: { from: lower, to: mark },
          range: { from: lower, to: toLevel },
        },
      };
      if (mark >= toLevel) return;
    }
  }

  /** The next page of one kind: levels above its `last`, each checked against what was asked. */
  private async page(
    walk: Walk,
    address: string,
    kind: KindWalk,
    lower: number,
    toLevel: number,
  ): Promise<void> {
    const limit = this.limits.pageSize;
    const url =
      `${this.base}/v1/operations/${kind.path}?${kind.filter}=${address}&level.ge=${lower}&level.le=${toLevel}` +
      `&select=level&sort.asc=level&offset.cr=${kind.last}&limit=${limit}`;
    const { body } = await walk.get(url);
    if (!Array.isArray(body) || body.length > limit)
      throw walk.error('invalid', `GET ${url}: expected at most ${limit} levels, got ${describe(body)}`);
    let previous = kind.last;
    for (const level of body as unknown[]) {
      if (!isLevel(level)) throw walk.error('invalid', `GET ${url}: ${describe(level)} is not a level`);
      if (level > toLevel || level < lower)
        throw walk.error(
          'invalid',
          `GET ${url}: level ${level} is outside the range asked (${lower}…${toLevel})`,
        );
      if (level <= kind.last || level < previous)
        throw walk.error(
          'invalid',
          `GET ${url}: level ${level} is out of order (after ${previous}, the cursor was ${kind.last})`,
        );
      if (level !== previous) kind.levels.push(level);
      previous = level;
    }
    if (body.length < limit) {
      kind.done = true;
      kind.last = toLevel;
    } else kind.last = previous;
  }
}
