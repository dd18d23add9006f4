// The debugger's recordings run in a pool of worker threads (piscina), never on the thread that serves the
// API: each has a wall-clock limit (past it, its worker is terminated and the route answers 504). Runs are
// admitted fairly between clients (FairScheduler, client = request.ip): each client's runs wait in its own
// queue, served in turn, at most one of them running while others wait, at most 2 queued or running (then
// 429), charged their run time (at most `budgetMs` per minute, then 429); at most `maxQueue` wait (then 503).
// The worker asks the chain it needs (contracts, big-map types and values, Sapling sizes, global constants)
// through a port; this side answers from the database and the node RPC, at the block the call runs at.
// Over ~400 lines because DebugRunner is one class: the pool, its fair admission and the chain bridge that
// answers the worker share the same per-run state (the block position, the client's budget, the port).
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { bundledWorker, FairScheduler, SchedulerRefusal } from '@michelscope/interpreter';
import {
  balanceChangeInBlock,
  bigMapEntryInBlock,
  getBigMap,
  getContractScript,
  latestStorage,
  previousStorage,
  storageAsOf,
  storageInBlock,
  storageSpaceInBlock,
  type BlockPosition,
} from '@michelscope/db/read';
import { ADDRESS_PATTERN, toMicheline, type Micheline } from '@michelscope/michelson';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { fullScript } from '../services/contracts';
import { isArchiveNode, nodeRpc, NodeRpcError } from '../services/node-rpc';
import type { MetadataError } from './error-meaning';
import type { DebugCall } from './record';
import type { RecordedResult } from './replay';
import type { BundleCall, BundleStart, WhatIfTask } from './whatif';
import type { ChainAnswer, ChainQuery, DebugEcho, DebugTask, DebugTaskResult } from './worker';
import type { DebugResult, WhatIfResult } from '@michelscope/api-types';
import type { ValidatedJson } from '../validated-json';
import { groupEntry, type GroupEffects } from './group-state';
import type { SecuritySummary } from '../security/analyse';

/** A worker's answer that is sent: checked JSON text. */
type Answered = Extract<DebugTaskResult, { json: unknown } | { whatIf: unknown } | { security: unknown }>;
/** A what-if bundle, with the inputs its answer echoes (typed as the answer's). */
export type WhatIfRunTask = WhatIfTask & { inputs: WhatIfResult['inputs'] };

/** A replay's position in its block, with what its group's earlier (backtracked) operations had left. */
export type ReplayPosition = BlockPosition & { group?: GroupEffects | undefined };

export interface DebugRunnerOptions {
  /** Wall-clock limit of one recording, in ms (default 10,000). */
  timeLimitMs?: number;
  /** Worker threads (default 2: a client runs on one at most while others wait, so one stays for them). */
  threads?: number;
  /** Recordings waiting, all clients together (default 8). */
  maxQueue?: number;
  /** A client's recordings queued or running at most (default 2). */
  perClient?: number;
  /** A client's run time per minute, in ms (default 20,000): past it, 429 until older runs age out. */
  budgetMs?: number;
}

/** What the routes call for one client (its `request.ip`): the runner's methods, admitted for that client. */
export interface ClientDebugRunner {
  record: DebugRunner['record'];
  whatIf: DebugRunner['whatIf'];
  security: DebugRunner['security'];
}

/** The workers' module and its task function: in the server bundle its bundled entry, else a boot through tsx. */
const BUNDLED = bundledWorker('debug-worker');
// unbundled: a CommonJS entry (worker-entry.cjs says why) that imports the tsx boot (worker-boot.mjs)
const BOOT = BUNDLED?.href ?? new URL('./worker-entry.cjs', import.meta.url).href;
const TASK = BUNDLED ? 'runDebugTask' : 'default';
/** A worker takes about a second to boot (several on a loaded machine): a run may wait this long for one. */
const QUEUE_GRACE_MS = 15_000;
/** How long a storage read from the node may take (a lookup's answer is awaited by the worker for 10 s at most). */
const STORAGE_RPC_TIMEOUT_MS = 5_000;

const ID_RE = /^-?\d{1,19}$/;
const HASH_RE = /^expr[1-9A-HJ-NP-Za-km-z]{50}$/;
/** The product's address kinds (@michelscope/michelson's one validator): the API accepts the same. */
const ADDRESS_RE = ADDRESS_PATTERN;

export class DebugRunner {
  private readonly pool: Piscina<DebugTask, DebugTaskResult>;
  readonly timeLimitMs: number;
  readonly scheduler: FairScheduler;
  constructor(
    private readonly ctx: ApiContext,
    opts: DebugRunnerOptions = {},
  ) {
    this.timeLimitMs = opts.timeLimitMs ?? 10_000;
    const threads = opts.threads ?? 2;
    this.pool = new Piscina({
      filename: BOOT,
      name: TASK,
      minThreads: 0,
      maxThreads: threads,
      maxQueue: opts.maxQueue ?? 8,
      idleTimeout: 60_000,
    });
    this.scheduler = new FairScheduler({
      slots: threads,
      runningPerClient: Math.max(1, threads - 1),
      perClient: opts.perClient ?? 2,
      maxQueued: opts.maxQueue ?? 8,
      maxWaitMs: QUEUE_GRACE_MS,
      budgetMs: opts.budgetMs ?? 20_000,
      windowMs: 60_000,
      noun: 'recording',
    });
  }

  /** The runner for one client (`request.ip`): its runs are admitted fairly among all clients'. */
  forClient(client: string): ClientDebugRunner {
    return {
      record: (...a) => this.recordAs(client, ...a),
      whatIf: (...a) => this.whatIfAs(client, ...a),
      security: (...a) => this.securityAs(client, ...a),
    };
  }

  /**
   * Records `call` on `network` at `block` (a level or 'head'); with `bundle`, from an overridden state after
   * the bundle's earlier calls; with `at` (a replay), the state at `block` changed by the operations of the next
   * block before the replayed one (contracts' storage and balance, big-map entries).
   */
  record(
    ...a: Parameters<DebugRunner['recordAs']> extends [string, ...infer R] ? R : never
  ): Promise<ValidatedJson<DebugResult>> {
    return this.recordAs('anonymous', ...a);
  }

  private recordAs(
    client: string,
    network: string,
    block: string,
    call: DebugCall,
    extra: DebugEcho,
    errors: MetadataError[] = [],
    recorded?: RecordedResult,
    bundle?: { start: BundleStart; before: BundleCall[]; call?: BundleCall },
    at?: ReplayPosition,
  ): Promise<ValidatedJson<DebugResult>> {
    return this.run(client, network, block, at, {
      call,
      errors,
      extra,
      ...(recorded ? { recorded } : {}),
      ...(bundle ? { bundle } : {}),
    }).then((out) => {
      if ('json' in out) return out.json;
      throw new HttpError(500, 'the debug worker answered a recording with a what-if');
    });
  }

  /** Runs a what-if bundle (whatif.ts) on `network` at `block`; the answer's JSON text, checked. */
  whatIf(network: string, block: string, task: WhatIfRunTask): Promise<ValidatedJson<WhatIfResult>> {
    return this.whatIfAs('anonymous', network, block, task);
  }

  private whatIfAs(
    client: string,
    network: string,
    block: string,
    task: WhatIfRunTask,
  ): Promise<ValidatedJson<WhatIfResult>> {
    return this.run(client, network, block, undefined, { whatif: task, errors: [] }).then((out) => {
      if ('whatIf' in out) return out.whatIf;
      throw new HttpError(500, 'the debug worker answered a what-if with a recording');
    });
  }

  /** A contract's permission and upgrade-risk summary, analysed in a worker (security/analyse.ts). */
  security(script: Micheline[], storage: Micheline | undefined): Promise<SecuritySummary> {
    return this.securityAs('anonymous', script, storage);
  }

  private securityAs(
    client: string,
    script: Micheline[],
    storage: Micheline | undefined,
  ): Promise<SecuritySummary> {
    return this.run(client, '', 'head', undefined, { security: { script, storage }, errors: [] }).then(
      (out) => {
        if ('security' in out) return out.security;
        throw new HttpError(500, 'the debug worker answered a security summary with a recording');
      },
    );
  }

  private run(
    client: string,
    network: string,
    block: string,
    at: ReplayPosition | undefined,
    what: Pick<DebugTask, 'call' | 'bundle' | 'whatif' | 'security' | 'errors' | 'extra' | 'recorded'>,
  ): Promise<Answered> {
    return this.scheduler
      .run(client, () => this.runNow(network, block, at, what))
      .catch((e: unknown) => {
        if (e instanceof SchedulerRefusal)
          throw new HttpError(e.status, `the debugger refused the recording: ${e.message}`);
        throw e;
      });
  }

  private async runNow(
    network: string,
    block: string,
    at: ReplayPosition | undefined,
    what: Pick<DebugTask, 'call' | 'bundle' | 'whatif' | 'security' | 'errors' | 'extra' | 'recorded'>,
  ): Promise<Answered> {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const flagView = new Int32Array(flag);
    const abort = new AbortController();
    // the time limit counts from when a worker starts the run (it says so first), not while it waits for one
    let timer = setTimeout(() => abort.abort(), this.timeLimitMs + QUEUE_GRACE_MS);
    port1.on('message', (q: ChainQuery | { method: 'started' }) => {
      if (q.method === 'started') {
        clearTimeout(timer);
        timer = setTimeout(() => abort.abort(), this.timeLimitMs);
        return;
      }
      void this.answer(network, block, q, at)
        .then((value): ChainAnswer => ({ ok: true, value }))
        .catch((e: unknown): ChainAnswer => ({
          ok: false,
          message: e instanceof Error ? e.message : String(e),
        }))
        .then((a) => {
          port1.postMessage(a);
          Atomics.store(flagView, 0, 1);
          Atomics.notify(flagView, 0);
        });
    });
    const task: DebugTask = {
      ...what,
      port: port2,
      flag,
      lookupTimeoutMs: Math.min(10_000, this.timeLimitMs),
      maxLookups: 10_000,
    };
    try {
      const out = await this.pool.run(task, { transferList: [port2], signal: abort.signal });
      if ('lookupError' in out) throw new HttpError(502, `chain lookup failed: ${out.lookupError}`);
      if ('invalid' in out) throw new HttpError(400, out.invalid);
      // a bug, never a silently wrong body: the answer names the first field that does not match
      if ('schemaError' in out)
        throw new HttpError(500, `the debugger's answer does not match its schema: ${out.schemaError}`);
      return out;
    } catch (e) {
      if (abort.signal.aborted)
        throw new HttpError(
          504,
          `the call ran longer than the debugger's ${Math.round(this.timeLimitMs / 1000)} s limit and was stopped`,
        );
      if (/queue is at limit/i.test(e instanceof Error ? e.message : String(e)))
        throw new HttpError(503, 'the debugger is busy: too many recordings are waiting; retry shortly');
      throw e;
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  private async answer(network: string, block: string, q: ChainQuery, at?: ReplayPosition): Promise<unknown> {
    const ctx = this.ctx;
    const rpc = (path: string) =>
      nodeRpc(ctx, network, `/chains/main/blocks/${block}/context${path}`).catch((e: unknown) => {
        if (e instanceof NodeRpcError && e.status === 404) return null;
        throw e;
      });
    switch (q.method) {
      case 'contract': {
        if (!ADDRESS_RE.test(q.address)) return null;
        // a contract the replay's group originated (backtracked since): the origination's script and balance
        const originated = at?.group?.originated.get(q.address);
        const s = originated?.script ?? (await getContractScript(ctx.readDb, network, q.address));
        if (!s) return null;
        const views: Record<string, { input: unknown; output: unknown; code: unknown }> = {};
        for (const v of Array.isArray(s.views) ? s.views : []) {
          const args = (v as { args?: unknown[] }).args ?? [];
          const name = (args[0] as { string?: string } | undefined)?.string;
          if (name) views[name] = { input: args[1], output: args[2], code: args[3] };
        }
        const storage = await this.storageAt(network, block, q.address, at);
        let balance = originated
          ? String(originated.balance)
          : await rpc(`/contracts/${q.address}/balance`).catch(() => null);
        if (at && typeof balance === 'string' && /^\d+$/.test(balance))
          balance = String(
            BigInt(balance) + (await balanceChangeInBlock(ctx.readDb, network, q.address, at)),
          );
        return {
          parameter: toMicheline(s.parameter),
          storageType: toMicheline(s.storage),
          ...(storage !== undefined ? { storage } : {}),
          ...(typeof balance === 'string' ? { balance } : {}),
          views,
        };
      }
      case 'bigMapTypes': {
        if (!ID_RE.test(q.id)) return null;
        const b = await getBigMap(ctx.readDb, network, Number(q.id));
        return b ? { key: toMicheline(b.key_type), value: toMicheline(b.value_type) } : null;
      }
      case 'bigMapGet': {
        if (!ID_RE.test(q.id) || !HASH_RE.test(q.keyHash)) return null;
        // a replay: the entry as its group's earlier operations, then the block's, left it (following copies)
        let ptr = Number(q.id);
        const inGroup = groupEntry(at?.group, ptr, q.keyHash);
        if (inGroup && 'value' in inGroup) return inGroup.value;
        if (inGroup) ptr = inGroup.ptr;
        let where: BlockPosition | undefined = at;
        for (let hops = 0; where && hops < 8; hops++) {
          const e = await bigMapEntryInBlock(ctx.readDb, network, ptr, q.keyHash, where);
          if (!e) break;
          if ('value' in e) return e.value;
          if ('fresh' in e) return null;
          ({ ptr, at: where } = e.from);
        }
        return rpc(`/big_maps/${ptr}/${q.keyHash}`);
      }
      case 'script': {
        if (!ADDRESS_RE.test(q.address) || !q.address.startsWith('KT1')) return null;
        const originated = at?.group?.originated.get(q.address);
        const s = originated?.script ?? (await getContractScript(ctx.readDb, network, q.address));
        if (!s) return null;
        if (originated) {
          // originated in the replay's group: the bytes its origination used and paid for, then its calls'
          const inBlock = await storageSpaceInBlock(ctx.readDb, network, q.address, at!);
          return {
            code: fullScript(s),
            used: String(inBlock.used ?? originated.storageSize),
            paid: String(originated.paid + inBlock.paid),
          };
        }
        const space = (what: string) =>
          rpc(`/contracts/${q.address}/storage/${what}`).then(
            (v) => (typeof v === 'string' && /^\d+$/.test(v) ? v : null),
            () => null,
          );
        const [used, paid, inBlock] = await Promise.all([
          space('used_space'),
          space('paid_space'),
          at ? storageSpaceInBlock(ctx.readDb, network, q.address, at) : undefined,
        ]);
        // a replay: the bytes as the block's earlier operations (its group's included) left them, not the level
        // before's: what the replayed call's storage accounting starts from
        if (!inBlock) return { code: fullScript(s), used, paid };
        return {
          code: fullScript(s),
          used: inBlock.used !== undefined ? String(inBlock.used) : used,
          paid: paid !== null ? String(Number(paid) + inBlock.paid) : null,
        };
      }
      case 'balance': {
        if (!ADDRESS_RE.test(q.address)) return null;
        const originated = at?.group?.originated.get(q.address);
        if (originated && at)
          return String(
            originated.balance + (await balanceChangeInBlock(ctx.readDb, network, q.address, at)),
          );
        const b = await rpc(`/contracts/${q.address}/balance`);
        return typeof b === 'string' ? b : null;
      }
      case 'bigMapBytes': {
        if (!ID_RE.test(q.id)) return null;
        // the raw context's counter of the map's bytes (what a copy of it costs)
        const b = await rpc(`/raw/json/big_maps/index/${q.id}/total_bytes`);
        return typeof b === 'string' || typeof b === 'number' ? String(b) : null;
      }
      case 'saplingBytes': {
        if (!ID_RE.test(q.id)) return null;
        // the raw context's counter of the state's bytes (Octez Storage.Sapling.Total_bytes: what a copy or a
        // removal of it counts); none (404): unknown, counted as 0
        const b = await rpc(`/raw/json/sapling/index/${q.id}/total_bytes`);
        return typeof b === 'string' || typeof b === 'number' ? String(b) : null;
      }
      case 'globalConstant':
        if (!HASH_RE.test(q.hash)) return null;
        return rpc(`/global_constants/${q.hash}`);
    }
  }

  /**
   * A contract's storage where the run starts, read once. A replay: what its group's earlier operations left,
   * else its last call in the block before the replayed one, else the end of the level before. A past level's
   * end (the replay's level before, or a run pinned to a level): from the node's context when the node is an
   * archive (it keeps every level's), else the index's last stored storage at or before the level. At the head:
   * the index's latest, else the node's.
   */
  private async storageAt(
    network: string,
    block: string,
    address: string,
    at: ReplayPosition | undefined,
  ): Promise<Micheline | undefined> {
    const db = this.ctx.readDb;
    const fromGroup = at?.group?.storage.get(address);
    if (fromGroup !== undefined) return fromGroup;
    const level = /^\d+$/.test(block) ? Number(block) : undefined;
    const archive = level !== undefined && (await isArchiveNode(this.ctx, network));
    if (at && !archive) {
      const prev = await previousStorage(db, network, address, at.beforeId);
      if (prev?.storage != null) return toMicheline(prev.storage);
    } else if (at) {
      const inBlock = await storageInBlock(db, network, address, at);
      if (inBlock != null) return toMicheline(inBlock);
    } else if (!archive) {
      const stored =
        level === undefined
          ? await latestStorage(db, network, address)
          : await storageAsOf(db, network, address, level);
      if (stored?.storage != null) return toMicheline(stored.storage);
    }
    const node = await nodeRpc(
      this.ctx,
      network,
      `/chains/main/blocks/${block}/context/contracts/${address}/storage`,
      undefined,
      STORAGE_RPC_TIMEOUT_MS,
    ).catch(() => undefined);
    return node == null ? undefined : toMicheline(node);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
