/**
 * The follower of a network's head: fetches blocks ahead (Prefetcher), stores them in batches, reverts
 * reorgs, and gives the history backfill its turns between cycles. Over ~400 lines because Follower is one
 * stateful loop (cursor, prefetch window, batch, reorg and backfill turns) whose steps share that state; its
 * helpers (adopt, backfill, the write path) are modules of their own.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ChainConsistencyError,
  getBlockHash,
  getCurrentProtocol,
  getIndexerHead,
  historyFloor,
  prepareRows,
  writesOverServer,
} from '@michelscope/db/write';
import { InvalidNodeDataError } from '../protocols/validate';
import { RpcError, StoppedError } from '../rpc/client';
import {
  fetchBlock,
  fetchHeader,
  migratesScripts,
  prepareBlock,
  revertToCommonAncestor,
  storeBlocks,
  type ChainContext,
  type PreparedBlock,
  type StoredHead,
} from './chain';
import { hasAddressRequests, serveAddressRequests } from './adopt';
import { refuseRevertBelowFloor, type Backfiller } from './backfill';
import type { StatusTracker } from './status';

export interface FollowerOptions {
  pollIntervalMs: number;
  startLevel: number | 'head';
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** Behind by more than this many blocks = 'syncing'; otherwise 'following'. */
  syncGap: number;
  /** Blocks requested ahead of the one being written while catching up (≥ 1). */
  fetchAhead: number;
  /** Largest batch written in one transaction while catching up: blocks, and rows (operations + diffs). */
  batchBlocks?: number;
  batchRows?: number;
  /**
   * The history backfill (backfill.ts), run in turns of BACKFILL_TURN_MS while the head is caught up: first the
   * blocks a reorg reverted below the floor are stored again (redo, with or without a history source), then
   * the walk of the adopted addresses' histories (turn).
   */
  backfill?: Pick<Backfiller, 'turn' | 'redo'>;
}

/** Longest turn of the history backfill between two polls of the node's head. */
export const BACKFILL_TURN_MS = 200;

/**
 * Defaults of FollowerOptions.batchBlocks / batchRows. Rows bound the time of one statement: PGlite runs
 * in the indexer's thread, and a long statement there holds the thread (and the node requests in flight,
 * whose timeout runs meanwhile); ~2,000 rows is one dense block or tens of ordinary ones.
 */
export const BATCH_BLOCKS = 50;
export const BATCH_ROWS = 2_000;
/**
 * On a PostgreSQL server the statements run in another process: ~10 dense blocks per transaction, and as
 * many may wait behind the batch being written, so that the parser is rarely held by a full queue (one
 * dense block per transaction: 2,870 operations/s on the dense benchmark; 20,000 rows: 3,820–3,930).
 */
export const BATCH_ROWS_SERVER = 20_000;

/**
 * Writes prepared blocks in the background, in order, one transaction per batch: while a batch is being
 * written the follower parses the next blocks, and the next batch takes every block queued meanwhile
 * (bounded), so a follower that keeps up writes one block per transaction and one that catches up writes
 * many. The first failure stops the writer; push() and flush() then throw it.
 */
class BatchWriter {
  private queue: PreparedBlock[] = [];
  private queuedRows = 0;
  private running: Promise<void> | null = null;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly write: (batch: PreparedBlock[]) => Promise<void>,
    private readonly maxBlocks: number,
    private readonly maxRows: number,
  ) {}

  /** Queues a block; waits while a full batch is already waiting behind the one being written. */
  async push(block: PreparedBlock): Promise<void> {
    this.throwIfFailed();
    this.queue.push(block);
    this.queuedRows += block.rows;
    this.kick();
    while (this.running && (this.queue.length >= this.maxBlocks || this.queuedRows >= this.maxRows)) {
      await this.running;
      this.throwIfFailed();
    }
  }

  /** Waits until every queued block is stored (or throws the failure). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    this.throwIfFailed();
  }

  /** Waits for the batch being written and drops the queue; true when nothing was left unwritten. */
  async close(): Promise<boolean> {
    const dropped = this.queue.length;
    this.queue = [];
    this.queuedRows = 0;
    while (this.running) await this.running;
    return dropped === 0 && this.failure === null;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  private kick(): void {
    if (this.running || this.queue.length === 0 || this.failure) return;
    let n = 0;
    let rows = 0;
    while (
      n < this.queue.length &&
      (n === 0 || (n < this.maxBlocks && rows + this.queue[n]!.rows <= this.maxRows))
    )
      rows += this.queue[n++]!.rows;
    const batch = this.queue.splice(0, n);
    this.queuedRows -= rows;
    this.running = this.write(batch).then(
      () => {
        this.running = null;
        this.kick();
      },
      (error: unknown) => {
        this.failure = { error };
        this.running = null;
      },
    );
  }
}

/**
 * Requests the next blocks in parallel while the current one is parsed and written; blocks are still taken
 * and written strictly in level order. Up to `ahead` requests are in flight, and up to `ahead` answers wait
 * to be taken beyond them: a request starts as soon as an answer arrives or a block is taken (not only at
 * take(), which left the node idle while the thread was busy with a write, then the parser idle waiting for
 * the node). After a failed request no new one starts (take() throws it in its turn). Results not taken (a
 * reorg, an error, stop) are dropped silently.
 */
export class Prefetcher<T> {
  private readonly pending = new Map<number, Promise<T>>();
  /** Next level to request; levels below `floor` were taken. */
  private next = 0;
  private floor = 0;
  private last = 0;
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly fetch: (level: number) => Promise<T>,
    private readonly ahead: number,
  ) {}

  take(level: number, last: number): Promise<T> {
    if (level !== this.floor) {
      // not the level after the previous one: start over from it
      this.pending.clear();
      this.next = level;
    }
    this.floor = level + 1;
    this.last = last;
    if (!this.pending.has(level)) this.request(level);
    const p = this.pending.get(level)!;
    this.pending.delete(level);
    this.fill();
    return p;
  }

  discard(): void {
    this.stopped = true;
    this.pending.clear();
  }

  private fill(): void {
    while (
      !this.stopped &&
      this.inFlight < this.ahead &&
      this.next <= this.last &&
      this.next < this.floor + 2 * this.ahead
    )
      this.request(this.next);
  }

  private request(level: number): void {
    if (level >= this.next) this.next = level + 1;
    this.inFlight++;
    const p = this.fetch(level);
    this.pending.set(level, p);
    p.then(
      () => {
        this.inFlight--;
        this.fill();
      },
      () => {
        // observed by take() when its turn comes; dropped otherwise
        this.inFlight--;
        this.stopped = true;
      },
    );
  }
}

/**
 * The main loop of one network: poll the node's head, index every missing level in order, revert on a
 * reorg, back off while the node is unreachable. Runs until `signal` aborts; never rejects.
 */
export class Follower {
  private head: StoredHead | null = null;
  /**
   * With nothing stored, the network's forward floor if it has one (history_floor): a reorg reverted every
   * block of the forward range, which starts there again, not at the node's head (the levels between would
   * be neither forward nor backfilled).
   */
  private floor: number | null = null;
  private protocol: string | null = null;
  private chainId: string | null = null;
  private loaded = false;
  private announced = false;
  private lastErrorLogged: string | null = null;
  /** Set by wake(): an address request waits (the API of this process queued one). */
  private requested = false;
  private lastRequestCheck = 0;
  private waking: AbortController | null = null;

  constructor(
    private readonly ctx: ChainContext,
    private readonly status: StatusTracker,
    private readonly opts: FollowerOptions,
    private readonly signal: AbortSignal,
  ) {}

  async run(): Promise<void> {
    let delay = this.opts.backoffInitialMs;
    while (!this.signal.aborted) {
      try {
        if (!this.loaded) await this.load();
        await this.serveRequests();
        const progressed = await this.cycle();
        delay = this.opts.backoffInitialMs;
        this.lastErrorLogged = null;
        // caught up: the backfill works for a bounded turn, then the head is polled again
        if (!progressed && !(await this.backfillTurn())) await this.wait(this.opts.pollIntervalMs);
      } catch (err) {
        if (err instanceof StoppedError || this.signal.aborted) break;
        this.fail(err, delay);
        try {
          await this.wait(delay);
        } catch {
          break;
        }
        delay = Math.min(delay * 2, this.opts.backoffMaxMs);
      }
    }
  }

  /** Reads where this network stands in the database (at start, and again after a DB error). */
  private async load(): Promise<void> {
    const stored = await getIndexerHead(this.ctx.db, this.ctx.network);
    this.head = stored ? { level: stored.level, hash: stored.hash } : null;
    await this.loadFloor();
    await this.loadProtocol();
    this.loaded = true;
    this.status.update({ level: this.head?.level ?? null });
    if (this.announced) return;
    this.announced = true;
    this.status.line(
      this.head
        ? `starting: RPC ${this.ctx.rpc.baseUrl}, resuming after stored level ${this.head.level}`
        : `starting: RPC ${this.ctx.rpc.baseUrl}, nothing stored yet, starting at ${this.opts.startLevel === 'head' ? 'the node head' : `level ${Math.max(1, this.opts.startLevel)}`}`,
    );
  }

  /** One poll: returns true when blocks were stored or reverted (poll again at once). */
  private async cycle(): Promise<boolean> {
    const nodeHead = await fetchHeader(this.ctx, 'head');
    if (this.chainId !== null && nodeHead.chainId !== this.chainId) {
      throw new InvalidNodeDataError(
        `the node is on chain ${nodeHead.chainId} but ${this.ctx.network} was indexed from chain ${this.chainId}; use a node of that chain or reset this network's data`,
      );
    }
    this.status.update({ headLevel: nodeHead.level });
    const recovered = this.status.state === 'unreachable';
    const head = this.head;

    if (
      head &&
      (nodeHead.level < head.level || (nodeHead.level === head.level && nodeHead.hash !== head.hash))
    ) {
      // A node behind us on the same chain (a lagging replica) is waited for; another branch is reverted.
      const sameChainBehind =
        nodeHead.level < head.level && (await this.storedHashMatches(nodeHead.level, nodeHead.hash));
      if (!sameChainBehind) {
        await this.revert(head, nodeHead.level);
        this.markRunning(nodeHead.level, this.nextLevel(nodeHead.level), recovered);
        return true;
      }
    }
    const next = this.nextLevel(nodeHead.level);
    if (next > nodeHead.level) {
      this.markRunning(nodeHead.level, next, recovered);
      return false;
    }

    const prefetch = new Prefetcher((level) => fetchBlock(this.ctx, level), this.opts.fetchAhead);
    const server = await writesOverServer(this.ctx.db);
    const writer = new BatchWriter(
      (batch) => this.store(batch, nodeHead.level, next, recovered),
      this.opts.batchBlocks ?? BATCH_BLOCKS,
      this.opts.batchRows ?? (server ? BATCH_ROWS_SERVER : BATCH_ROWS),
    );
    // The last block parsed (the writer may be behind it): the next one must extend it.
    let tip = this.head;
    let tipProtocol = this.protocol;
    let complete = false;
    try {
      for (let level = next; level <= nodeHead.level; level++) {
        if (this.signal.aborted) throw new StoppedError('indexer stopped');
        // An address asked for is read at the stored head: everything parsed so far is written first.
        if (this.requestsDue()) {
          this.lastRequestCheck = Date.now();
          if (this.requested || (await hasAddressRequests(this.ctx))) {
            await writer.flush();
            await this.serveRequests();
          }
        }
        const block = await prefetch.take(level, nodeHead.level);
        if (tip && block.predecessor !== tip.hash) {
          await writer.flush();
          complete = true;
          await this.revert(this.head!, level - 1);
          return true;
        }
        // Let the writer send its next statement before this thread parses for tens of milliseconds:
        // without the turn, answers of the database wait behind consecutive parses (fetched blocks resolve
        // at once), and the writer and the parser take turns instead of working at the same time.
        await new Promise<void>((resolve) => setImmediate(resolve));
        // A protocol migration reads the stored contracts: everything below it must be written first.
        if (migratesScripts(this.ctx, block.protocol, tipProtocol)) await writer.flush();
        const prepared = await prepareBlock(this.ctx, block, tipProtocol);
        // PostgreSQL: its rows become COPY text now, while the writer's statements run
        if (prepared.write.data) await prepareRows(this.ctx.db, prepared.write.data);
        tip = { level: block.level, hash: block.hash };
        tipProtocol = block.protocol;
        await writer.push(prepared);
      }
      await writer.flush();
      complete = true;
    } catch (err) {
      // A fetch or parse failed: what was parsed before it is still stored (a write failure is the error itself).
      if (!complete && !(err instanceof StoppedError) && !this.signal.aborted) {
        complete = await writer.flush().then(
          () => true,
          () => false,
        );
      }
      throw err;
    } finally {
      prefetch.discard();
      // Blocks parsed but not stored (an error or a stop): what the cache learnt from them is forgotten.
      if (!(await writer.close()) || !complete) this.ctx.cache.clear();
    }
    return true;
  }

  /** Stores a batch of consecutive blocks and moves the follower's head, state and progress. */
  private async store(
    batch: PreparedBlock[],
    nodeLevel: number,
    next: number,
    recovered: boolean,
  ): Promise<void> {
    await storeBlocks(this.ctx, batch);
    const top = batch[batch.length - 1]!.write.block;
    this.head = { level: top.level, hash: top.hash };
    this.protocol = top.protocol;
    this.chainId = top.chainId;
    this.status.update({ level: top.level });
    // The state (and its one log line) changes once a block went through, so a node that answers its
    // head but fails on blocks does not flip between 'unreachable' and 'following' on every retry.
    if (batch[0]!.write.block.level === next) this.markRunning(nodeLevel, next, recovered);
    else if (this.status.state === 'syncing' && nodeLevel - top.level <= this.opts.syncGap) {
      this.status.setState('following', `following the head at level ${top.level}`);
    }
    this.status.maybeLogProgress();
  }

  /**
   * The next level to index: above the stored head; with nothing stored, the forward floor (a reorg reverted
   * the whole forward range) or else the configured start.
   */
  private nextLevel(nodeLevel: number): number {
    if (this.head) return this.head.level + 1;
    if (this.floor !== null) return this.floor;
    return this.opts.startLevel === 'head' ? nodeLevel : Math.max(1, this.opts.startLevel);
  }

  /**
   * One turn of the history backfill: the blocks a reorg reverted below the floor (history_redo) first, then the
   * walk; true when it has more to do. Its failures are its own (logged).
   */
  private async backfillTurn(): Promise<boolean> {
    if (!this.opts.backfill || this.requested) return false;
    try {
      if (await this.opts.backfill.redo(this.head, BACKFILL_TURN_MS, this.signal)) return true;
      return await this.opts.backfill.turn(this.head, BACKFILL_TURN_MS, this.signal);
    } catch (err) {
      if (!this.signal.aborted)
        this.status.line(`history backfill: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  /** An address request was queued (by the API of this process): serve it now rather than at the next poll. */
  wake(): void {
    this.requested = true;
    this.waking?.abort();
  }

  /** While catching up, the queue is looked at when woken, else once a second. */
  private requestsDue(): boolean {
    return this.requested || Date.now() - this.lastRequestCheck >= 1000;
  }

  /** Serves the pending address requests at the stored head (nothing before the first block is stored). */
  private async serveRequests(): Promise<void> {
    this.requested = false;
    this.lastRequestCheck = Date.now();
    if (!this.head) return;
    while ((await serveAddressRequests(this.ctx, this.head)) > 0 && !this.signal.aborted) {
      // more may wait: a full batch was served
    }
  }

  private async storedHashMatches(level: number, hash: string): Promise<boolean> {
    const stored = await getBlockHash(this.ctx.db, this.ctx.network, level);
    return stored === null || stored === hash;
  }

  private async loadFloor(): Promise<void> {
    // nothing is stored: historyFloor only reads (it fixes a floor from the stored blocks)
    this.floor = this.head ? null : await historyFloor(this.ctx.db, this.ctx.network);
  }

  private async loadProtocol(): Promise<void> {
    const current = await getCurrentProtocol(this.ctx.db, this.ctx.network);
    this.protocol = current?.hash ?? null;
    this.chainId = current?.chainId ?? null;
  }

  private async revert(head: StoredHead, fromLevel: number): Promise<StoredHead | null> {
    await refuseRevertBelowFloor(this.ctx);
    this.head = await revertToCommonAncestor(this.ctx, head, fromLevel);
    await this.loadFloor();
    await this.loadProtocol();
    this.status.update({ level: this.head?.level ?? null });
    return this.head;
  }

  /** Sets 'syncing' or 'following' from the gap to the node head (one log line when it changes). */
  private markRunning(nodeLevel: number, next: number, recovered: boolean): void {
    const level = this.head?.level ?? null;
    const behind = nodeLevel - next + 1;
    const state = behind > this.opts.syncGap ? 'syncing' : 'following';
    const from = level === null ? 'the start level' : `level ${level}`;
    if (level === null && next > nodeLevel) {
      const waiting = `waiting for the node to reach start level ${next} (node head ${nodeLevel})`;
      this.status.setState('following', recovered ? `RPC reachable again, ${waiting}` : waiting);
      return;
    }
    const message = recovered
      ? `RPC reachable again, ${state === 'syncing' ? 'syncing' : 'following'} from ${from}`
      : state === 'syncing'
        ? `syncing from ${from} to the node head ${nodeLevel} (${behind} levels behind)`
        : `following the head at level ${level ?? nodeLevel}`;
    this.status.setState(state, message);
  }

  private fail(err: unknown, delay: number): void {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof RpcError) {
      this.status.setState(
        'unreachable',
        `RPC ${this.ctx.rpc.baseUrl} unreachable (${err.reason}), retrying with back-off`,
        message,
      );
      return;
    }
    if (err instanceof InvalidNodeDataError) {
      this.status.setState(
        'unreachable',
        `RPC ${this.ctx.rpc.baseUrl} sent unusable data (${message}), retrying with back-off`,
        message,
      );
      return;
    }
    // Database or consistency errors: a failed state (issue 34); reload the stored head before the next try.
    this.loaded = false;
    this.status.setState('failed', undefined, message);
    if (message !== this.lastErrorLogged) {
      this.lastErrorLogged = message;
      const what = err instanceof ChainConsistencyError ? 'stored chain changed under the indexer' : 'error';
      this.status.line(`${what}: ${message}; retrying in ${Math.round(delay / 1000)} s and backing off`);
    }
  }

  /** Waits `ms` (cut short by wake()); throws StoppedError when the indexer stops. */
  private async wait(ms: number): Promise<void> {
    if (this.requested) return;
    this.waking = new AbortController();
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([this.signal, this.waking.signal]) });
    } catch {
      if (this.signal.aborted) throw new StoppedError('indexer stopped');
    } finally {
      this.waking = null;
    }
  }
}
