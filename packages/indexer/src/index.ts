/**
 * @michelscope/indexer — follows a Tezos node's head and writes blocks, protocols and the indexer state
 * of one network into the database (the only writer). One `startIndexer` call per network.
 */
import type { Db } from '@michelscope/db';
import { ProtocolRegistry } from './protocols/registry';
import { NodeRpc } from './rpc/client';
import { BcdSource } from './history/bcd';
import type { HistorySource } from './history/source';
import { TzktSource } from './history/tzkt';
import { Backfiller } from './sync/backfill';
import { ContractCache } from './sync/block-data';
import { Follower } from './sync/follower';
import { StatusTracker, type IndexerStatus } from './sync/status';

export type { IndexerState, IndexerStatus } from './sync/status';
export type { ProtocolHandler, BlockHeader, ParsedBlock, ProtocolConstants } from './protocols/handler';
export { ProtocolRegistry, defaultHandler } from './protocols/registry';
export type { HistorySource, HistoryPage, HistoryQuery } from './history/source';
export { HistoryError } from './history/source';
export { InvalidNodeDataError } from './protocols/validate';

export interface IndexerOptions {
  db: Db;
  /** Network name, the key of its rows (`mainnet`, `sandboxnet`, …). */
  network: string;
  /** Node RPC base URL (the part before `/chains/main/…`). */
  rpcUrl: string;
  /** How often the node head is polled when caught up. Default 1000 ms. */
  pollIntervalMs?: number;
  /**
   * Where to start when the database holds nothing for this network: 'head' (default) = the node's
   * current head; a level; 'genesis', 0 or 1 = from genesis (level 1: the genesis block 0 carries no data).
   */
  startLevel?: number | 'head' | 'genesis';
  /** Log sink, one line per call. Default console.log. */
  log?: (line: string) => void;
  /** Timeout of one RPC request. Default 30000 ms. */
  rpcTimeoutMs?: number;
  /** Retry back-off while the RPC fails: first delay and cap. Default 1000 ms doubling to 60000 ms. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Minimum time between two progress lines while syncing. Default 5000 ms. */
  progressIntervalMs?: number;
  /** Blocks requested in parallel while catching up (written in order). Default 4. */
  fetchAhead?: number;
  /** Node requests per second at most (all of this indexer's). Default: no limit. */
  rpcRateLimit?: number;
  /**
   * A node that refuses requests for load (429, or 503 with Retry-After) pauses all of them: retries of one
   * request (default 6), first pause without Retry-After (default 1000 ms, doubling), longest pause (default
   * 60000 ms, also the cap of Retry-After).
   */
  rpcThrottle?: { retries?: number; initialMs?: number; maxMs?: number };
  /** Protocol handlers; default: every known mainnet/testnet protocol. */
  registry?: ProtocolRegistry;
  /** A protocol migration that re-reads contract scripts logs progress every this many. Default 1000. */
  migrationProgressEvery?: number;
  /**
   * Where the history of an adopted address is learnt (issue 32): a Better Call Dev-compatible API (`url` before
   * `/v1`; `network` its name there, default this network's), TzKT (`url` before `/v1`), a scan of the node
   * (the default), or `false` (no history is walked; the blocks a head reorg reverted below the floor are still
   * stored again). A source that fails falls back to the scan.
   */
  historySource?: HistorySourceConfig | HistorySource | false;
  /**
   * Backfilled blocks whose before-images may be held while the head does not move, past which the history
   * walk waits for it (default HELD_BACKFILL_BLOCKS, sync/backfill.ts).
   */
  heldBackfillBlocks?: number;
}

export type HistorySourceConfig =
  { kind: 'bcd'; url: string; network?: string } | { kind: 'tzkt'; url: string } | { kind: 'scan' };

/** The source of a config (null: the scan). */
export function historySourceOf(network: string, config: HistorySourceConfig): HistorySource | null {
  switch (config.kind) {
    case 'bcd':
      return new BcdSource({ baseUrl: config.url, network: config.network ?? network });
    case 'tzkt':
      return new TzktSource({ baseUrl: config.url });
    case 'scan':
      return null;
  }
}

export interface IndexerHandle {
  /** Stops polling, aborts pending RPC calls and waits; the block being written is finished first. */
  stop(): Promise<void>;
  status(): IndexerStatus;
  /**
   * An address request was queued for this network (db `address_requests`): read it from the node now rather
   * than at the next poll (the follower looks at the queue once a second anyway).
   */
  wake(): void;
  /** Called on every state change and stored block; returns the unsubscribe function. */
  onProgress(cb: (s: IndexerStatus) => void): () => void;
}

/** Starts indexing one network in the background; throws only for invalid options, never rejects later (see status() and the log). */
export function startIndexer(opts: IndexerOptions): IndexerHandle {
  const log = opts.log ?? ((line: string) => console.log(line));
  const status = new StatusTracker(opts.network, log, opts.progressIntervalMs ?? 5000);
  const controller = new AbortController();
  const startLevel = opts.startLevel === 'genesis' ? 1 : (opts.startLevel ?? 'head');
  if (startLevel !== 'head' && (!Number.isSafeInteger(startLevel) || startLevel < 0)) {
    throw new TypeError(
      `startLevel must be 'head', 'genesis' or a non-negative integer, got ${String(startLevel)}`,
    );
  }
  const rpc = new NodeRpc(opts.rpcUrl, {
    timeoutMs: opts.rpcTimeoutMs ?? 30_000,
    signal: controller.signal,
    ...(opts.rpcRateLimit !== undefined ? { rateLimit: opts.rpcRateLimit } : {}),
    ...(opts.rpcThrottle ? { throttle: opts.rpcThrottle } : {}),
    log: (line) => status.line(line),
  });
  const ctx = {
    db: opts.db,
    network: opts.network,
    rpc,
    registry: opts.registry ?? new ProtocolRegistry(),
    line: (t: string) => status.line(t),
    cache: new ContractCache(opts.db, opts.network),
    costPerByte: new Map<string, number>(),
    ...(opts.migrationProgressEvery ? { migrationProgressEvery: opts.migrationProgressEvery } : {}),
  };
  const fetchAhead = Math.max(1, Math.floor(opts.fetchAhead ?? 4));
  const history = opts.historySource ?? { kind: 'scan' as const };
  // without a history source no history is walked, but blocks a reorg reverted below the floor (history_redo,
  // left by a run that had one) are still stored again: the node gives them
  const backfill = new Backfiller(
    // its own parse cache: scripts it reads from the node at old levels stay its own
    { ...ctx, cache: new ContractCache(opts.db, opts.network) },
    {
      source:
        history === false ? null : 'levels' in history ? history : historySourceOf(opts.network, history),
      rpcUrl: opts.rpcUrl,
      concurrency: fetchAhead,
      walks: history !== false,
      ...(opts.heldBackfillBlocks !== undefined ? { heldBlocks: opts.heldBackfillBlocks } : {}),
    },
  );
  const follower = new Follower(
    ctx,
    status,
    {
      pollIntervalMs: opts.pollIntervalMs ?? 1000,
      startLevel,
      backoffInitialMs: opts.backoff?.initialMs ?? 1000,
      backoffMaxMs: opts.backoff?.maxMs ?? 60_000,
      syncGap: 2,
      fetchAhead,
      backfill,
    },
    controller.signal,
  );
  const done = follower.run().catch((err: unknown) => {
    status.line(`stopped on an unexpected error: ${err instanceof Error ? err.message : String(err)}`);
  });
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        controller.abort();
        await done;
        const level = status.get().level;
        status.setState('stopped', `stopped${level === null ? '' : ` at level ${level}`}`);
      })();
      return stopping;
    },
    status: () => status.get(),
    wake: () => follower.wake(),
    onProgress: (cb) => status.subscribe(cb),
  };
}

export {
  startMetadataResolver,
  backoffDelay,
  type MetadataResolverOptions,
  type MetadataResolverHandle,
} from './metadata/resolver';
export { parseMetadataUri, MetadataError, type MetadataUri } from './metadata/uri';
