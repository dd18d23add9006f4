/**
 * Pending operations for live subscribers: the node's mempool is not in the database, so while at least one
 * connection of a network waits for an operation hash that is not indexed yet, the process polls the node's
 * `/chains/main/mempool/pending_operations` (the source `/contract/…/mempool` reads) once per period, for all
 * of them, and announces each watched hash once as `pending`. Inclusion comes from the indexer's notices.
 */
import type { ApiContext } from '../context';
import { nodeRpc } from '../services/node-rpc';
import { sseEvent, type Subscriber } from './subscriber';

/** Groups read from one mempool answer at most. */
const MAX_GROUPS = 10_000;

export class MempoolWatch {
  private timer?: NodeJS.Timeout;
  private running = false;
  private stopped = false;

  constructor(
    private readonly ctx: ApiContext,
    private readonly network: string,
    private readonly subs: ReadonlySet<Subscriber>,
    private readonly periodMs: number,
  ) {}

  /** Starts polling (now) if it is not running and someone waits for a pending hash. */
  wake(): void {
    if (this.running || this.stopped || this.ctx.options.mempoolEnabled === false) return;
    if (!this.someoneWaits()) return;
    this.running = true;
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private someoneWaits(): boolean {
    for (const sub of this.subs) for (const h of sub.watching) if (!sub.pendingSent.has(h)) return true;
    return false;
  }

  private async tick(): Promise<void> {
    const pending = await this.pendingHashes();
    for (const sub of this.subs) {
      for (const h of sub.watching) {
        if (!pending.has(h) || sub.pendingSent.has(h)) continue;
        sub.pendingSent.add(h);
        sub.send(sseEvent('operation', { network: this.network, hash: h, status: 'pending' }), -1);
      }
    }
    if (this.stopped || !this.someoneWaits()) {
      this.running = false;
      return;
    }
    this.timer = setTimeout(() => void this.tick(), this.periodMs);
    this.timer.unref();
  }

  private async pendingHashes(): Promise<Set<string>> {
    const out = new Set<string>();
    try {
      const answer = await nodeRpc<Record<string, unknown>>(
        this.ctx,
        this.network,
        '/chains/main/mempool/pending_operations',
        undefined,
        5000,
      );
      for (const key of ['applied', 'validated']) {
        const list = answer[key];
        if (!Array.isArray(list)) continue;
        for (const g of list.slice(0, MAX_GROUPS)) {
          const h = (g as { hash?: unknown } | null)?.hash;
          if (typeof h === 'string') out.add(h);
        }
      }
    } catch {
      // the node is unreachable: nothing is pending for now
    }
    return out;
  }
}
