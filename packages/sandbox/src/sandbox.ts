// The sandbox chain: head state, mempool, baking timer and persistence.
// Over ~400 lines because Sandbox is one stateful class (head, mempool, baking timer, persistence) whose
// methods all guard the same head and mempool invariants; the parts that are not state (applying, baking,
// storing, voting) already live in their own modules.
import { PrefixV2 } from '@taquito/utils';
import { BAKER, genesisState } from './accounts';
import { applyOperation } from './apply';
import { bake, genesisContext, nextContext } from './block-builder';
import { ChainStore, StorageError, type StoredBlock } from './chain-store';
import { decodeSigned } from './decode';
import { MempoolRejections, type RejectedOperation, type RejectionClass } from './mempool-rejections';
import { blake2b256, encodeB58 } from './hashing';
import type { OperationEntry } from './operation-types';
import { RpcError } from './operation-types';
import { CHAIN_ID, MAX_OPERATIONS_TTL, PROTOCOL } from './protocol';
import { Kv, State, type Changes } from './state';
import { runSeed, seedBlocks } from './seed/index';
import { computeListings, listingsLevel, type Listings } from './voting';

const SEED_ROUNDS = 24;

export interface SandboxOptions {
  dataDir: string;
  blockTimeMs?: number;
  log?: (line: string) => void;
  /** Originate and call the demo contracts when the chain is created (default false). */
  seed?: boolean;
  /** Bake a block as soon as an operation is accepted, besides the timer (default false). */
  bakeOnInject?: boolean;
  /** Reopen only (a restarted chain worker): a missing block log fails instead of creating a new chain. */
  mustExist?: boolean;
}

/** Predecessor of genesis: a fixed hash (the node uses genesis itself, which we cannot hash). */
const GENESIS_PREDECESSOR = encodeB58(
  blake2b256(new TextEncoder().encode('michelscope sandboxnet genesis')),
  PrefixV2.BlockHash,
);

/** Blocks baked right after genesis when a chain is created. */
const INITIAL_BLOCKS = 2;

interface PendingOperation {
  hash: string;
  branch: string;
  contents: OperationEntry['contents'];
  signature: string;
}

function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A snapshot written by sandbox v0 held only implicit accounts. */
function ledgerV0(ledger: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [pkh, a] of Object.entries((ledger ?? {}) as Record<string, object>)) out[`a:${pkh}`] = a;
  return out;
}

/** Seconds of a block timestamp. */
function seconds(timestamp: string): bigint {
  return BigInt(Math.floor(Date.parse(timestamp) / 1000));
}

/** What turns the head state into the state at the end of `level`: the undo logs of later blocks. */
function undoSince(headLevel: number, level: number, block: (l: number) => StoredBlock | undefined): Changes {
  const overrides: Changes = {};
  for (let l = headLevel; l > level; l--) {
    const undo = block(l)?.undo;
    if (undo) Object.assign(overrides, undo);
  }
  return overrides;
}

/** The sandbox cannot persist its chain (issue 34): what failed, and since when (ms since the epoch). */
export interface StorageFault {
  message: string;
  /** The error's code, e.g. ENOSPC, EACCES, ENOENT. */
  code?: string;
  since: number;
}

const text = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A state a script run in another thread rebuilds: the head state's JSON plus overrides. */
export interface StateSnapshot {
  /** Identifies `json` (the head block's hash), so that a worker parses each head state once. */
  version: string;
  json: string;
  overrides: Changes;
}

export class Sandbox {
  readonly blockTimeMs: number;
  private state: State;
  private mempool: PendingOperation[] = [];
  private readonly rejections = new MempoolRejections();
  private mempoolState: State;
  private timer: NodeJS.Timeout | undefined;
  /** Test-only: the timer bakes nothing (see pauseBaking). */
  private paused = false;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly headListeners = new Set<(block: StoredBlock) => void>();
  private fault: StorageFault | null = null;
  private readonly storageListeners = new Set<(fault: StorageFault | null) => void>();

  private constructor(
    private readonly store: ChainStore,
    state: State,
    private readonly log: (line: string) => void,
    blockTimeMs: number,
    private readonly bakeOnInject = false,
  ) {
    this.state = state;
    this.mempoolState = state.fork();
    this.blockTimeMs = blockTimeMs;
  }

  /** Loads the chain from `${dataDir}/sandbox/`, or creates genesis there. */
  static async open(opts: SandboxOptions): Promise<Sandbox> {
    const log = opts.log ?? (() => {});
    const blockTimeMs = opts.blockTimeMs ?? 2000;
    if (!Number.isFinite(blockTimeMs) || blockTimeMs < 100)
      throw new Error(`blockTimeMs must be at least 100 (got ${blockTimeMs})`);
    const store = ChainStore.open(opts.dataDir, opts.mustExist);
    if (store.headLevel < 0) {
      const state = genesisState();
      const genesis = await bake({
        level: 0,
        predecessor: GENESIS_PREDECESSOR,
        // Backdated so that the initial (and seed) blocks, one second apart, end near the wall clock.
        timestamp: isoSeconds(
          Date.now() - (INITIAL_BLOCKS + (opts.seed ? seedBlocks(SEED_ROUNDS) : 0)) * 1000 - 1000,
        ),
        operations: [],
        fees: 0n,
        context: genesisContext(state.kv.toJSON()),
      });
      store.append(genesis);
      store.writeSnapshot({ level: 0, hash: genesis.hash, state: state.kv.toJSON() });
      log(`sandbox: created chain ${CHAIN_ID}, genesis ${genesis.hash}`);
      const sandbox = new Sandbox(store, state, log, blockTimeMs, opts.bakeOnInject);
      // A few blocks at once, so that `head~2` (Taquito's branch) exists from the start.
      for (let i = 1; i <= INITIAL_BLOCKS; i++)
        await sandbox.bakeAt(Date.parse(genesis.header.timestamp) + i * 1000);
      if (opts.seed) {
        try {
          const seeded = await runSeed(sandbox, SEED_ROUNDS);
          log(
            `sandbox: demo seed: ${seeded.operations} operations, contracts ${Object.entries(seeded.contracts)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}, smart rollup ${seeded.rollup}`,
          );
        } catch (e) {
          log(`sandbox: demo seed failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      return sandbox;
    }
    const snap = store.readSnapshot();
    let state: State;
    let from: number;
    if (snap && snap.level <= store.headLevel && store.hashAt(snap.level) === snap.hash) {
      state = new State(Kv.fromJSON(snap.state ?? ledgerV0(snap.ledger)));
      from = snap.level + 1;
    } else {
      state = genesisState();
      from = 1;
    }
    for (let level = from; level <= store.headLevel; level++) {
      if (!store.hasOperations(level)) continue;
      const redo = store.get(level)!.redo;
      if (!redo) {
        log(
          `sandbox: block ${level} has no state log (written by an older sandbox); its changes are not replayed`,
        );
        continue;
      }
      for (const [k, v] of Object.entries(redo)) state.kv.set(k, v);
    }
    if (from <= store.headLevel) {
      store.writeSnapshot({
        level: store.headLevel,
        hash: store.hashAt(store.headLevel)!,
        state: state.kv.toJSON(),
      });
      log(`sandbox: replayed blocks ${from}..${store.headLevel} onto the state snapshot`);
    }
    log(`sandbox: reopened chain ${CHAIN_ID} at level ${store.headLevel}`);
    return new Sandbox(store, state, log, blockTimeMs, opts.bakeOnInject);
  }

  get headLevel(): number {
    return this.store.headLevel;
  }

  get head(): StoredBlock {
    return this.store.get(this.store.headLevel)!;
  }

  /**
   * Why the chain cannot be stored now (a full disk, a refused write, its folder removed), or null. While
   * set, no block is baked: each bake (the timer's every blockTimeMs) first checks the store and fails the
   * same way without a block, silently; the first one that stores its block clears it.
   */
  get storageFault(): StorageFault | null {
    return this.fault;
  }

  /** Calls `listener` when the storage fault starts, changes or ends (null); returns the unsubscribe. */
  onStorageFault(listener: (fault: StorageFault | null) => void): () => void {
    this.storageListeners.add(listener);
    return () => this.storageListeners.delete(listener);
  }

  private setFault(e: StorageError): void {
    const previous = this.fault;
    if (previous?.message === e.message) return;
    this.fault = {
      message: e.message,
      ...(e.code ? { code: e.code } : {}),
      since: previous?.since ?? Date.now(),
    };
    this.log(`sandbox: storage failed, no block is baked until it works again: ${e.message}`);
    for (const listener of this.storageListeners) listener(this.fault);
  }

  private clearFault(level: number): void {
    if (!this.fault) return;
    this.fault = null;
    this.log(`sandbox: storage works again, baking resumed at level ${level}`);
    for (const listener of this.storageListeners) listener(null);
  }

  /** Logs a failed bake, unless it is the storage fault (said once, by setFault). */
  private readonly bakeFailed = (e: unknown): void => {
    if (!(e instanceof StorageError)) this.log(`sandbox: baking failed: ${text(e)}`);
  };

  /** Starts baking a block every blockTimeMs. */
  start(): void {
    if (this.timer || this.closed) return;
    const tick = () => {
      if (this.paused) return;
      this.bakeBlock().then(() => undefined, this.bakeFailed);
    };
    this.timer = setInterval(tick, this.blockTimeMs);
  }

  /** Stops the timer, waits for a bake in progress and flushes the state to disk. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    await this.exclusive(async () => {
      try {
        this.store.writeSnapshot({
          level: this.headLevel,
          hash: this.head.hash,
          state: this.state.kv.toJSON(),
        });
      } catch (e) {
        // every stored block has its snapshot already: this one only saves a replay
        this.log(`sandbox: no state snapshot at stop: ${text(e)}`);
      } finally {
        this.closed = true;
        this.store.close();
      }
    });
  }

  /** Runs `fn` after every earlier bake/injection has finished. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new Error('the sandbox is stopped');
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Bakes one block now with the mempool's operations; returns the block in the node's shape. */
  bakeBlock(): Promise<StoredBlock> {
    return this.bakeAt(Date.now());
  }

  private bakeAt(nowMs: number): Promise<StoredBlock> {
    return this.exclusive(async () => {
      try {
        // a folder removed under the open log would take blocks no one can read back
        this.store.ensureWritable();
        return await this.bakeStored(nowMs);
      } catch (e) {
        if (e instanceof StorageError) this.setFault(e);
        throw e;
      }
    });
  }

  /**
   * Bakes and stores one block; the head state and the mempool move only once the block and the state
   * snapshot are written, so a failed write leaves the chain where it was (its block dropped from the log).
   */
  private async bakeStored(nowMs: number): Promise<StoredBlock> {
    const pred = this.head;
    const level = pred.header.level + 1;
    let ms = Math.max(nowMs, Date.parse(pred.header.timestamp) + 1000);
    if (this.forkFloor?.level === level) ms = Math.max(ms, this.forkFloor.ms);
    this.forkFloor = undefined;
    const timestamp = isoSeconds(ms);
    const blockState = this.state.fork();
    const entries: OperationEntry[] = [];
    let fees = 0n;
    for (const op of this.mempool) {
      const work = blockState.fork();
      try {
        const applied = applyOperation(work, op.contents, {
          hash: op.hash,
          level,
          now: seconds(timestamp),
          listings: () => this.listingsAt(level - 1),
        });
        work.commit();
        fees += applied.fees;
        entries.push({
          protocol: PROTOCOL,
          chain_id: CHAIN_ID,
          hash: op.hash,
          branch: op.branch,
          contents: applied.contents,
          signature: op.signature,
        });
      } catch (e) {
        this.log(`sandbox: dropped operation ${op.hash}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (fees > 0n) blockState.credit(BAKER.pkh, fees);
    const redo = blockState.kv.changes();
    const undo: Changes = {};
    for (const k of Object.keys(redo)) undo[k] = this.state.kv.get(k) ?? null;
    const block = await bake({
      level,
      predecessor: pred.hash,
      timestamp,
      operations: entries,
      fees,
      context: nextContext(pred.header.context, redo),
    });
    if (entries.length > 0 || Object.keys(redo).length > 0) Object.assign(block, { redo, undo });
    const next = this.state.kv.toJSON();
    for (const [k, v] of Object.entries(redo)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    this.store.append(block);
    try {
      this.store.writeSnapshot({ level: block.header.level, hash: block.hash, state: next });
    } catch (e) {
      // a block without its snapshot would be replayed on open; dropped instead, as if never baked
      try {
        this.store.truncate(level - 1);
      } catch {
        // the log keeps it: a reopen replays its changes onto the older snapshot
      }
      throw e;
    }
    blockState.commit();
    this.mempool = [];
    this.mempoolState = this.state.fork();
    this.rejections.newHead();
    this.clearFault(level);
    for (const listener of this.headListeners) listener(block);
    return block;
  }

  /** After `forkFrom`: the first block of the new branch is later than the discarded one. */
  private forkFloor: { level: number; ms: number } | undefined;

  /**
   * Test-only control (no RPC serves it): forks the chain at `level`, as a reorg does on a real
   * network. The blocks above `level` are discarded (their state changes undone, the block log
   * truncated, the snapshot rewritten) and the mempool emptied; the next blocks make another branch
   * from there. The first of them gets a timestamp after the discarded block's at its level, so its
   * hash differs even when it holds the same operations. Returns the discarded blocks.
   */
  forkFrom(level: number): Promise<StoredBlock[]> {
    return this.exclusive(async () => {
      if (!Number.isInteger(level) || level < 0 || level > this.headLevel)
        throw new Error(`cannot fork at level ${level}: the head is at ${this.headLevel}`);
      const discarded: StoredBlock[] = [];
      for (let l = this.headLevel; l > level; l--) {
        const block = this.store.get(l)!;
        discarded.unshift(block);
        for (const [k, v] of Object.entries(block.undo ?? {})) this.state.kv.set(k, v);
      }
      if (discarded.length === 0) return [];
      this.store.truncate(level);
      this.forkFloor = { level: level + 1, ms: Date.parse(discarded[0]!.header.timestamp) + 1000 };
      this.historic.clear();
      this.mempool = [];
      this.mempoolState = this.state.fork();
      this.rejections.newHead();
      this.store.writeSnapshot({ level, hash: this.head.hash, state: this.state.kv.toJSON() });
      this.log(`sandbox: forked at level ${level}, ${discarded.length} block(s) discarded`);
      return discarded;
    });
  }

  /**
   * Test-only control (no RPC serves it): until `resumeBaking()`, neither the timer nor `bakeOnInject`
   * bakes, so injected operations stay in the mempool (`/chains/main/mempool/pending_operations`), as
   * on a node whose bakers have not included them yet. `bakeBlock()` still bakes them at once.
   */
  pauseBaking(): void {
    this.paused = true;
  }

  /** Ends `pauseBaking()`: the timer bakes again (the mempool's operations go in its next block). */
  resumeBaking(): void {
    this.paused = false;
  }

  get bakingPaused(): boolean {
    return this.paused;
  }

  /** Bakes the next block one second after the head (the seed uses it to fill a backdated chain). */
  bakeNext(): Promise<StoredBlock> {
    return this.bakeAt(Date.parse(this.head.header.timestamp) + 1000);
  }

  /** Level, timestamp (s) and hash context for applying an operation on top of the head. */
  nextBlockContext(): { level: number; now: bigint; listings: () => Listings } {
    const head = this.head.header;
    return {
      level: head.level + 1,
      listings: () => this.listingsAt(head.level),
      now: seconds(head.timestamp) + BigInt(Math.max(1, Math.round(this.blockTimeMs / 1000))),
    };
  }

  /**
   * Validates a signed operation (JSON string of hex) and adds it to the mempool. Like the node,
   * only validation errors (signature, counter, fees, limits) refuse it; an operation that fails
   * when applied is accepted and included with a `failed` receipt.
   * Returns its hash; throws RpcError with the node's error body when refused.
   */
  async inject(body: unknown): Promise<string> {
    const hash = await this.injectOnly(body);
    if (this.bakeOnInject && !this.paused) this.bakeBlock().catch(this.bakeFailed);
    return hash;
  }

  private injectOnly(body: unknown): Promise<string> {
    return this.exclusive(async () => {
      try {
        return await this.validate(body);
      } catch (e) {
        if (e instanceof RpcError) await this.rejections.record(body, e);
        throw e;
      }
    });
  }

  private async validate(body: unknown): Promise<string> {
    const op = await decodeSigned(body, this.mempoolState);
    const branchLevel = this.store.levelOf(op.branch);
    if (branchLevel === undefined) {
      throw new RpcError(500, [
        { kind: 'branch', id: 'node.prevalidation.operation_branch_unknown', branch: op.branch },
      ]);
    }
    if (this.headLevel - branchLevel >= MAX_OPERATIONS_TTL) {
      throw new RpcError(500, [
        { kind: 'branch', id: 'node.prevalidation.outdated_operation', branch: op.branch },
      ]);
    }
    if (this.mempool.some((p) => p.hash === op.hash)) {
      throw new RpcError(500, [
        { kind: 'temporary', id: 'node.prevalidation.operation_already_known', operation: op.hash },
      ]);
    }
    const work = this.mempoolState.fork();
    applyOperation(work, op.contents, { hash: op.hash, ...this.nextBlockContext() });
    work.commit();
    this.mempool.push({ hash: op.hash, branch: op.branch, contents: op.contents, signature: op.signature });
    this.log(`sandbox: accepted ${op.hash}`);
    return op.hash;
  }

  /** Calls `listener` with each newly baked block; returns the unsubscribe function. */
  onHead(listener: (block: StoredBlock) => void): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  pendingOperations(): PendingOperation[] {
    return this.mempool.map((p) => ({ ...p }));
  }

  /** Operations refused at injection since start, by the node's mempool class. */
  rejectedOperations(): Record<RejectionClass, RejectedOperation[]> {
    return this.rejections.snapshot();
  }

  block(level: number): StoredBlock | undefined {
    return this.store.get(level);
  }

  levelOf(hash: string): number | undefined {
    return this.store.levelOf(hash);
  }

  /** The state as of the end of block `level` (read-only; undo logs of later blocks applied). */
  stateAt(level: number): State {
    if (level >= this.headLevel) return this.state;
    // A few recent answers are kept: an indexer asks several things of the same block in a row.
    const key = `${this.headLevel}:${level}`;
    const cached = this.historic.get(key);
    if (cached) return cached;
    const state = new State(Kv.overlay(this.state.kv, this.undoAt(level)));
    this.historic.set(key, state);
    if (this.historic.size > 8) this.historic.delete(this.historic.keys().next().value!);
    return state;
  }

  private readonly historic = new Map<string, State>();

  /**
   * The voting listings a context at the end of block `level` reads: computed from the state of the period's
   * listings level (genesis, then each period's last block), kept per block hash (a fork recomputes).
   */
  listingsAt(level: number): Listings {
    const at = listingsLevel(level);
    const key = this.store.hashAt(at) ?? String(at);
    let found = this.listingsCache.get(key);
    if (!found) {
      found = computeListings(this.stateAt(at));
      this.listingsCache.set(key, found);
      if (this.listingsCache.size > 4) this.listingsCache.delete(this.listingsCache.keys().next().value!);
    }
    return found;
  }

  private readonly listingsCache = new Map<string, Listings>();

  private undoAt(level: number): Changes {
    return undoSince(this.headLevel, level, (l) =>
      this.store.hasOperations(l) ? this.store.get(l) : undefined,
    );
  }

  private headJson: { version: string; json: string } | undefined;

  /**
   * The state of `stateAt(level)` (or of `pendingState()`) as data for another thread: the head state's
   * JSON, made once per head, plus the undo logs of later blocks (or the mempool's changes).
   */
  snapshot(level: number | 'pending'): StateSnapshot {
    const version = this.head.hash;
    if (this.headJson?.version !== version)
      this.headJson = { version, json: JSON.stringify(this.state.kv.toJSON()) };
    const overrides =
      level === 'pending'
        ? this.mempoolState.kv.changes()
        : level >= this.headLevel
          ? {}
          : this.undoAt(level);
    return { ...this.headJson, overrides };
  }

  /** The state including operations waiting in the mempool (what a simulation runs on). */
  pendingState(): State {
    return this.mempoolState;
  }
}
