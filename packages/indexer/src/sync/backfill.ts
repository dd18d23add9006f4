/**
 * The history of an adopted address (issue 32, part 2's consumer). An address adopted at the head (adopt.ts)
 * has no past in the index; its history source (history/: a Better Call Dev-compatible API, TzKT, or a scan of
 * the node) says at which levels below the network's forward floor it appears, and each such block is read
 * from the node and stored whole through the forward write path (db/write `writeBackfillBlock`): all of its
 * operations, parsed as forward indexing parses them, with level-ordered ids below the forward range. A block
 * already stored is skipped, so a backfill resumes after a kill from its last saved cursor without a
 * duplicate, and backfilling every level gives the database a forward index from genesis gives.
 *
 * The follower runs it in turns between its cycles, each bounded in time; progress is saved per address
 * (history_backfills) after each page of levels whose blocks are all stored.
 *
 * Over ~400 lines because Backfiller is one stateful class (per-address cursors, the held-block budget, redo
 * of reverted levels, the time-bounded turn) whose methods share that state and the write path's invariants.
 */
import {
  ChainConsistencyError,
  FINALITY,
  heldBackfillBlocks,
  historyFloor,
  nextBackfill,
  openBackfills,
  redoLevels,
  redone,
  saveBackfill,
  storedLevels,
  storedProtocol,
  writeBackfillBlock,
  type BackfillJob,
  type ProtocolRecord,
} from '@michelscope/db/write';
import { blockReferences } from '../parse/block';
import { micheline } from '../parse/read';
import { HistoryError, type HistoryPage, type HistorySource } from '../history/source';
import { ScanSource } from '../history/scan';
import { RpcError } from '../rpc/client';
import { buildWithConstants } from './adopt';
import { buildBlockData, ContractCache } from './block-data';
import {
  blockRow,
  fetchBlock,
  fetchConstants,
  fetchHeader,
  protocolRecord,
  type ChainContext,
  type FetchedBlock,
  type StoredHead,
} from './chain';

/** Levels kept behind the head before the forward floor is trusted as final (Tenderbake: 2; db/write undo.ts). */
export { FINALITY };
/**
 * Backfilled blocks whose before-images may be held at once (about 4.3 KiB each: ~43 MB). They are dropped as
 * the head moves (db/write undo.ts pruneBackfilled: kept while a forward block within FINALITY of the head
 * precedes them, i.e. for the blocks backfilled during the last FINALITY block times); a head that does not
 * move keeps them all, and the backfill waits at this bound until it moves.
 */
export const HELD_BACKFILL_BLOCKS = 10_000;
/** After a failure (source rate limit, node error), the backfill of that address waits this long. */
const RETRY_MS = 30_000;

export interface BackfillOptions {
  /** Where an address's levels are learnt; null: a scan of the node. */
  source: HistorySource | null;
  /** Node RPC base URL, for the scan (the fallback of every source). */
  rpcUrl: string;
  /** Blocks read from the node at once. */
  concurrency: number;
  /** False: no history source is configured, turn() does nothing (redo() still stores reverted blocks again). */
  walks?: boolean;
  /** Bound of backfilled blocks holding before-images (HELD_BACKFILL_BLOCKS); the walk waits past it. */
  heldBlocks?: number;
}

interface Walk {
  job: BackfillJob;
  source: HistorySource;
  iterator: AsyncIterator<HistoryPage>;
  /** The page being stored: levels left, and what to save once they are. */
  page: { levels: number[]; done: HistoryPage } | null;
  controller: AbortController;
  blocks: number;
  found: number;
  /** The source's next page, asked and not answered yet (a 429 being waited out): awaited in the next turns. */
  pending: Promise<IteratorResult<HistoryPage>> | null;
}

/**
 * Refuses a reorg that would revert a backfilled block (ChainConsistencyError): the node's block at the highest
 * level stored below the forward floor is not the stored one. The backfill reads a level only once the head is
 * FINALITY levels above the floor, so such a reorg is deeper than finality (a node on another chain, a reset
 * test network). A backfilled block is reverted only with a forward block written before it (db/write
 * backfill-undo.ts: its before-images came after that block's), never for a reorg of its own level: the
 * forward range above it would have to go too. Nothing is reverted: the follower stays failed (retrying with
 * back-off) until the node or the network's data changes.
 */
export async function refuseRevertBelowFloor(ctx: ChainContext): Promise<void> {
  const floor = await ctx.db
    .selectFrom('history_floor')
    .select('floor_level')
    .where('network', '=', ctx.network)
    .executeTakeFirst();
  if (!floor) return;
  const top = await ctx.db
    .selectFrom('blocks')
    .select(['level', 'hash'])
    .where('network', '=', ctx.network)
    .where('level', '<', floor.floor_level)
    .orderBy('level', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!top) return;
  let node: { hash: string };
  try {
    node = await fetchHeader(ctx, top.level);
  } catch (err) {
    // a node that no longer serves the block (a rolling node) does not reorganise it either
    if (err instanceof RpcError && err.kind === 'not_found') return;
    throw err;
  }
  if (node.hash !== top.hash)
    throw new ChainConsistencyError(
      `[${ctx.network}] the node's block at level ${top.level} is ${node.hash}, not the backfilled ${top.hash}: a reorg below the forward floor ${floor.floor_level}, deeper than finality; nothing was reverted (a backfilled block cannot be): use a node of the indexed chain or reset this network's data`,
    );
}

/** The promise's value, or `late` when `deadline` (ms since the epoch) comes first. */
async function before<T, L>(p: Promise<T>, deadline: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Backfills adopted addresses, one address at a time, in turns bounded in time. */
export class Backfiller {
  private walk: Walk | null = null;
  private idleUntil = 0;
  /** Waiting at the bound of held before-images (holdsTooMany). */
  private holding = false;

  constructor(
    private readonly ctx: ChainContext,
    private readonly opts: BackfillOptions,
  ) {}

  /**
   * Works for about `budgetMs` (one block past it at most); returns true when there is more to do. Only
   * levels below the forward floor are written, and only once the head is FINALITY levels above it.
   */
  async turn(head: StoredHead | null, budgetMs: number, signal: AbortSignal): Promise<boolean> {
    if (this.opts.walks === false || !head || Date.now() < this.idleUntil) return false;
    const deadline = Date.now() + budgetMs;
    const floor = await historyFloor(this.ctx.db, this.ctx.network);
    if (floor === null || floor <= 1 || head.level < floor + FINALITY) return false;
    if (await this.holdsTooMany()) return false;
    if (!this.walk) {
      await openBackfills(this.ctx.db, this.ctx.network, floor);
      const job = await nextBackfill(this.ctx.db, this.ctx.network);
      if (!job) {
        this.idleUntil = Date.now() + 1000;
        return false;
      }
      this.walk = this.start(job, signal);
    }
    const walk = this.walk;
    try {
      while (Date.now() < deadline && !signal.aborted) {
        if (!walk.page) {
          // a source that makes the walk wait (HTTP 429) does not hold the follower's turn: the page is
          // awaited again in the next turn
          if (!walk.pending) {
            walk.pending = walk.iterator.next();
            walk.pending.catch(() => {}); // its failure is seen when it is awaited (or the walk was stopped)
          }
          const next = await before(walk.pending, deadline, null);
          if (next === null) return true;
          walk.pending = null;
          if (next.done) {
            await this.finish(walk);
            return true;
          }
          walk.page = { levels: this.trusted(walk, next.value.levels, floor), done: next.value };
          walk.found += walk.page.levels.length;
        }
        const page = walk.page;
        while (page.levels.length > 0 && Date.now() < deadline && !signal.aborted) {
          if (await this.holdsTooMany()) return false;
          const take = page.levels.splice(0, this.opts.concurrency);
          const stored = await storedLevels(this.ctx.db, this.ctx.network, take);
          // a level of the page stored already (by a run of this backfill killed before it saved the page,
          // or by another address's) counts as this history's block: its count is the same after a kill
          walk.blocks += stored.size;
          const blocks = await Promise.all(
            take.filter((l) => !stored.has(l)).map((l) => fetchBlock(this.ctx, l)),
          );
          for (const block of blocks) {
            if (!JSON.stringify(block.raw).includes(walk.job.address)) {
              // the source said so, the node says otherwise: nothing of it is stored
              this.ctx.line(
                `history of ${walk.job.address}: ${walk.source.name} gave level ${block.level}, where the node's block does not name it; skipped`,
              );
              continue;
            }
            if (await this.store(block)) walk.blocks++;
          }
        }
        if (page.levels.length > 0) break;
        walk.page = null;
        await this.save(walk, page.done);
      }
      return true;
    } catch (err) {
      if (signal.aborted) {
        // the indexer stops: the saved cursor stands, the next process resumes there
        this.stop();
        return false;
      }
      await this.failed(walk, err);
      return false;
    }
  }

  /**
   * Stores again, for about `budgetMs`, the blocks a head reorg reverted with a forward block written before
   * them (db/write revertBackfilledAfter, history_redo); true when some are left. It needs no history source
   * (the levels are in history_redo, the node gives the blocks), so it runs whenever the follower is caught
   * up, before the walk's turn, whether or not a source is configured.
   */
  async redo(head: StoredHead | null, budgetMs: number, signal: AbortSignal): Promise<boolean> {
    if (!head) return false;
    const levels = await redoLevels(this.ctx.db, this.ctx.network);
    if (levels.length === 0) return false;
    const deadline = Date.now() + budgetMs;
    levels.sort((a, b) => b - a);
    while (levels.length > 0 && Date.now() < deadline && !signal.aborted) {
      const take = levels.splice(0, this.opts.concurrency);
      await this.storeLevels(take);
      await redone(this.ctx.db, this.ctx.network, take);
    }
    if (levels.length === 0)
      this.ctx.line('history: the blocks a reorg reverted below the floor are stored again');
    return levels.length > 0;
  }

  /**
   * True while the backfilled blocks holding before-images reach the bound (the head has not moved for as long
   * as the walk stored them: db/write undo.ts pruneBackfilled); said once each time the walk starts waiting.
   */
  private async holdsTooMany(): Promise<boolean> {
    const bound = this.opts.heldBlocks ?? HELD_BACKFILL_BLOCKS;
    const held = await heldBackfillBlocks(this.ctx.db, this.ctx.network);
    const waiting = held >= bound;
    if (waiting && !this.holding)
      this.ctx.line(
        `history: ${held} backfilled blocks keep before-images for a reorg of the head (at most ${bound}); waiting for the head to move`,
      );
    this.holding = waiting;
    return waiting;
  }

  /**
   * Stores the blocks at `levels` below the floor that are not stored yet, whatever they hold (a whole range:
   * the rest of a network's history); returns how many it wrote.
   */
  async storeLevels(levels: number[]): Promise<number> {
    const floor = await historyFloor(this.ctx.db, this.ctx.network);
    if (floor === null) return 0;
    let written = 0;
    const todo = levels.filter((l) => l >= 1 && l < floor);
    for (let i = 0; i < todo.length; i += this.opts.concurrency) {
      const take = todo.slice(i, i + this.opts.concurrency);
      const stored = await storedLevels(this.ctx.db, this.ctx.network, take);
      const blocks = await Promise.all(
        take.filter((l) => !stored.has(l)).map((l) => fetchBlock(this.ctx, l)),
      );
      for (const block of blocks) if (await this.store(block)) written++;
    }
    return written;
  }

  /** Stops the walk in progress (the indexer stops, or a reorg made the stored chain change). */
  stop(): void {
    this.walk?.controller.abort();
    this.walk = null;
  }

  private start(job: BackfillJob, signal: AbortSignal): Walk {
    const useScan = job.source === 'scan' || !this.opts.source;
    const source = useScan ? this.scan() : this.opts.source!;
    // a cursor is the source's own: another source starts over
    const cursor = job.source === source.name ? job.cursor : null;
    const controller = new AbortController();
    const address = job.address;
    const pages = source.levels(address, {
      toLevel: job.toLevel,
      ...(cursor ? { cursor } : {}),
      signal: AbortSignal.any([signal, controller.signal]),
      // the wait is the backfill's state until the next page is saved (which clears the message)
      onWait: ({ ms, retryAfter, reason }) => {
        const seconds = Math.max(1, Math.round(ms / 1000));
        const message = `${source.name} rate-limited the history (${reason}); waiting ${seconds} s${retryAfter ? ' as its Retry-After asks' : ' (backing off)'}`;
        this.ctx.line(`history of ${address}: ${message}`);
        saveBackfill(this.ctx.db, this.ctx.network, address, { state: 'running', message }).catch(
          (err: unknown) => this.ctx.line(`history of ${address}: saving its state failed: ${String(err)}`),
        );
      },
    });
    const iterator = pages[Symbol.asyncIterator]();
    this.ctx.line(
      `history of ${job.address}: levels up to ${job.toLevel} from ${source.name}${cursor ? ', resumed' : ''}`,
    );
    return {
      job: { ...job, source: source.name, cursor },
      source,
      iterator,
      page: null,
      controller,
      blocks: job.blocks,
      found: cursor ? job.levelsFound : 0,
      pending: null,
    };
  }

  private scan(): HistorySource {
    return new ScanSource({ rpcUrl: this.opts.rpcUrl, concurrency: this.opts.concurrency });
  }

  /** The levels of a page that may be stored: below the ceiling and the floor (a source is never trusted). */
  private trusted(walk: Walk, levels: number[], floor: number): number[] {
    const ok = levels.filter((l) => Number.isSafeInteger(l) && l >= 1 && l <= walk.job.toLevel && l < floor);
    if (ok.length < levels.length)
      this.ctx.line(
        `history of ${walk.job.address}: ${walk.source.name} gave ${levels.length - ok.length} level(s) outside 1–${Math.min(walk.job.toLevel, floor - 1)}; ignored`,
      );
    return ok;
  }

  private async save(walk: Walk, page: HistoryPage): Promise<void> {
    const { covered, range } = page.progress;
    await saveBackfill(this.ctx.db, this.ctx.network, walk.job.address, {
      state: 'running',
      source: walk.source.name,
      cursor: page.cursor,
      fromLevel: range ? range.from : null,
      covered: covered ? covered.to - covered.from + 1 : 0,
      blocks: walk.blocks,
      levelsFound: walk.found,
    });
  }

  private async finish(walk: Walk): Promise<void> {
    const from =
      (
        await this.ctx.db
          .selectFrom('history_backfills')
          .select('from_level')
          .where('network', '=', this.ctx.network)
          .where('address', '=', walk.job.address)
          .executeTakeFirst()
      )?.from_level ?? 1;
    await saveBackfill(this.ctx.db, this.ctx.network, walk.job.address, {
      state: 'done',
      fromLevel: from,
      covered: walk.job.toLevel - from + 1,
      blocks: walk.blocks,
      levelsFound: walk.found,
    });
    this.ctx.line(
      `history of ${walk.job.address}: done (${walk.found} level(s) from ${walk.source.name}, ${walk.blocks} block(s) stored)`,
    );
    this.walk = null;
  }

  private async failed(walk: Walk, err: unknown): Promise<void> {
    this.walk = null;
    walk.controller.abort();
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof HistoryError && err.kind === 'aborted') return;
    // A source that cannot be reached or answers nonsense: the node itself is scanned instead.
    if (
      err instanceof HistoryError &&
      walk.source.name !== 'scan' &&
      (err.kind === 'unavailable' || err.kind === 'invalid')
    ) {
      this.ctx.line(`history of ${walk.job.address}: ${message}; scanning the node instead`);
      await saveBackfill(this.ctx.db, this.ctx.network, walk.job.address, {
        state: 'running',
        source: 'scan',
        cursor: null,
        covered: 0,
        message: `${walk.source.name} failed (${message.slice(0, 300)}); scanning the node`,
      });
      return;
    }
    const retryMs =
      err instanceof HistoryError && err.retryAfterMs !== null ? Math.max(err.retryAfterMs, 1000) : RETRY_MS;
    this.ctx.line(
      `history of ${walk.job.address}: ${message}; levels not read yet stay a gap, retried in ${Math.round(retryMs / 1000)} s`,
    );
    await saveBackfill(this.ctx.db, this.ctx.network, walk.job.address, {
      state: 'failed',
      message: message.slice(0, 500),
      retryAt: new Date(Date.now() + retryMs),
    });
    if (err instanceof RpcError && err.kind === 'unreachable') throw err;
  }

  /** Parses a block as forward indexing does and stores it below the floor; false when already stored. */
  private async store(block: FetchedBlock): Promise<boolean> {
    const ctx = this.ctx;
    let protocol: ProtocolRecord | undefined;
    let costPerByte = (await storedProtocol(ctx.db, ctx.network, block.protocol))?.costPerByte;
    if (costPerByte === undefined) {
      const c = await fetchConstants(ctx, block);
      costPerByte = c.costPerByte;
      protocol = protocolRecord(block, c);
    }
    const cache = await this.scriptsAt(block);
    const data = await buildBlockData(
      ctx.rpc,
      cache,
      ctx.registry.get(block.protocol).era,
      costPerByte,
      block,
    );
    return writeBackfillBlock(ctx.db, ctx.network, {
      block: blockRow(block),
      ...(protocol ? { protocol } : {}),
      data,
    });
  }

  /**
   * What the parser needs of the contracts a block calls and the constants its originations use: the
   * database's when it holds them, else the node's at the block's level (a contract originated before the
   * floor and not adopted), so that the block is parsed as a forward index parses it.
   */
  private async scriptsAt(block: FetchedBlock): Promise<ContractCache> {
    const ctx = this.ctx;
    const cache = new ContractCache(ctx.db, ctx.network);
    const refs = blockReferences(block.raw);
    await cache.load(refs.contracts, refs.constants);
    const at = `/chains/main/blocks/${block.level - 1}/context`;
    for (const a of refs.constants) {
      if (cache.constant(a) !== undefined) continue;
      try {
        cache.putConstant(a, micheline(await ctx.rpc.get(`${at}/global_constants/${a}`), `constant ${a}`));
      } catch (err) {
        if (!(err instanceof RpcError && err.kind === 'not_found')) throw err;
      }
    }
    const local: ChainContext = { ...ctx, cache };
    for (const a of refs.contracts) {
      if (cache.contract(a) !== undefined) continue;
      let script: { code?: unknown } | null = null;
      try {
        script = (await ctx.rpc.get(`${at}/contracts/${a}/script`)) as { code?: unknown } | null;
      } catch (err) {
        // not there before the block: originated in it (the parser knows it from its origination)
        if (!(err instanceof RpcError && err.kind === 'not_found')) throw err;
      }
      if (!script || typeof script !== 'object') continue;
      const where = `script of ${a} at level ${block.level - 1}`;
      const built = await buildWithConstants(local, block.level - 1, micheline(script.code, where), where);
      cache.put(a, built.info);
    }
    return cache;
  }
}
