/**
 * History with no index: the node's blocks read one by one, from `toLevel` back to the lower bound
 * (`fromLevel`, else level 1), and the levels where the address appears kept. Slow (one request a block) and
 * bounded by maxRequests, but it needs nothing but the node; a few blocks are asked at once (`concurrency`)
 * and examined in order, so pages are in order and each page's cursor (the next level to read) can be
 * persisted and the scan resumed from it.
 *
 * A block is asked whole (`GET {rpc}/chains/main/blocks/{level}`, not `…/operations`): a contract's implicit
 * operations (the liquidity baking subsidy, contracts a protocol migration originated) are in its metadata's
 * `implicit_operations_results`. The address appears when a string of the operations or those results is it
 * (or it with an `%entrypoint`): source, destination, delegate, an internal operation's fields, originated
 * contracts, balance updates, Michelson values written as strings. The block's own balance updates (a baker's
 * rewards) are not operations and are not looked at; an operation whose receipt the node left out ("too
 * large") shows only its contents, as it will to the backfill. When the address is among a block's
 * `originated_contracts`, that block is its origination and the scan stops there: nothing can be older.
 */
import { baseUrl, resolveLimits, Walk, type ResolvedLimits } from './http';
import {
  checkAddress,
  checkQuery,
  describe,
  parseCursor,
  type HistoryLimits,
  type HistoryPage,
  type HistoryQuery,
  type HistoryWait,
  type HistorySource,
} from './source';

export interface ScanSourceOptions extends HistoryLimits {
  /** The node's RPC base (before `/chains/main/…`). */
  rpcUrl: string;
  /** Blocks asked at once. Default 4. */
  concurrency?: number;
}

interface Seen {
  appears: boolean;
  originated: boolean;
}

export class ScanSource implements HistorySource {
  readonly name = 'scan';
  readonly order = 'descending';
  private readonly rpc: string;
  private readonly limits: ResolvedLimits;
  private readonly concurrency: number;

  constructor(opts: ScanSourceOptions) {
    this.rpc = baseUrl(opts.rpcUrl, 'rpcUrl');
    // pageSize: blocks a page covers
    this.limits = resolveLimits(opts, { pageSize: 100, maxPageSize: 10_000, maxBytes: 64 * 1024 * 1024 });
    const concurrency = opts.concurrency ?? 4;
    if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 64)
      throw new RangeError(`concurrency must be an integer from 1 to 64, got ${concurrency}`);
    this.concurrency = concurrency;
  }

  /** The cursor is the next level to read: `scan:<level>`. */
  levels(address: string, query: HistoryQuery): AsyncIterable<HistoryPage> {
    checkAddress(address);
    const bounds = checkQuery(query);
    const resume = query.cursor === undefined ? null : parseCursor(this.name, query.cursor, 1);
    return this.walk(address, bounds, resume?.[0] ?? null, query.signal, query.onWait);
  }

  private async *walk(
    address: string,
    bounds: { lower: number; toLevel: number },
    resume: number | null,
    signal: AbortSignal,
    onWait?: (wait: HistoryWait) => void,
  ): AsyncGenerator<HistoryPage> {
    const { lower, toLevel } = bounds;
    let next = Math.min(toLevel, resume ?? toLevel);
    if (next < lower) return;
    // blocks asked ahead are cancelled when the walk ends early (an error, the caller's break or signal)
    const controller = new AbortController();
    const stop = () => controller.abort();
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', stop, { once: true });
    const walk = new Walk(this.name, this.limits, controller.signal);
    walk.onWait = onWait;
    const ahead: Array<{ level: number; seen: Promise<Seen> }> = [];
    let asked = 0;
    const fill = () => {
      while (ahead.length < this.concurrency && next >= lower && asked < this.limits.maxRequests) {
        const seen = this.block(walk, next, address);
        seen.catch(() => {}); // examined in order: a failure ahead is thrown when its turn comes
        ahead.push({ level: next, seen });
        next--;
        asked++;
      }
    };
    const page = (levels: number[], last: number, end: boolean): HistoryPage => {
      walk.count(levels.length);
      return {
        levels: levels.reverse(),
        cursor: `${this.name}:${end ? lower - 1 : last - 1}`,
        progress: {
          found: walk.found,
          covered: { from: end ? lower : last, to: toLevel },
          range: { from: lower, to: toLevel },
        },
      };
    };
    try {
      fill();
      let found: number[] = [];
      let blocks = 0;
      let last = next + 1;
      while (ahead.length > 0) {
        const { level, seen } = ahead.shift()!;
        const { appears, originated } = await seen;
        fill();
        blocks++;
        last = level;
        if (appears) found.push(level);
        const end = originated || level === lower;
        if (blocks === this.limits.pageSize || end) {
          yield page(found, level, end);
          if (end) return;
          found = [];
          blocks = 0;
        }
      }
      // the request budget ran out above the lower bound: give what was read, then say so
      if (blocks > 0) yield page(found, last, false);
      throw walk.error(
        'limit',
        `more than ${this.limits.maxRequests} blocks (the maxRequests limit) before level ${lower}; resume from the last cursor`,
      );
    } finally {
      controller.abort();
      signal.removeEventListener('abort', stop);
    }
  }

  /** Reads block `level` and looks for the address in its operations. */
  private async block(walk: Walk, level: number, address: string): Promise<Seen> {
    const url = `${this.rpc}/chains/main/blocks/${level}`;
    const { status, body } = await walk.get(url, [404]);
    if (status === 404)
      throw walk.error(
        'unavailable',
        `the node has no block ${level} (its history may not go back that far)`,
      );
    const block = asObject(body);
    const header = asObject(block?.header);
    if (!block || header?.level !== level || !Array.isArray(block.operations))
      throw walk.error(
        'invalid',
        `GET ${url}: not block ${level} (header.level ${describe(header?.level)}, operations ${describe(typeof block?.operations)})`,
      );
    const implicit = asObject(block.metadata)?.implicit_operations_results;
    return search([block.operations, Array.isArray(implicit) ? implicit : []], address);
  }
}

function asObject(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * Whether a string in `root` names `address`, and whether it does in an `originated_contracts` list.
 * Iterative: Michelson values in receipts nest deeper than the call stack allows.
 */
export function search(root: unknown, address: string): Seen {
  const seen: Seen = { appears: false, originated: false };
  const withEntrypoint = `${address}%`;
  // only a contract has an origination to look for; anything else stops at its first mention
  const contract = address.startsWith('KT1');
  const stack: Array<{ value: unknown; key: string }> = [{ value: root, key: '' }];
  while (stack.length > 0) {
    const { value, key } = stack.pop()!;
    if (typeof value === 'string') {
      if (value === address || value.startsWith(withEntrypoint)) {
        seen.appears = true;
        if (key === 'originated_contracts') seen.originated = true;
        if (seen.originated || !contract) return seen;
      }
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, key });
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, item] of Object.entries(value)) stack.push({ value: item, key: k });
    }
  }
  return seen;
}
