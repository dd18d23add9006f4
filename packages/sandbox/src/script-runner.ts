// Script runs (run_code, trace_code, views, simulations, preapply, forge, pack, typecheck) in a pool of
// worker threads (piscina), each on a snapshot of the chain (script-host.ts), so that the chain's own
// thread keeps baking and answering while they run. Every run has a wall-clock limit: past it, its worker
// is terminated (piscina aborts the task and starts a new worker) and the RPC answers a clear error;
// `unlimited_gas` is bounded by it too. Runs are admitted fairly between clients (FairScheduler, issue 34;
// the client is the request's address, or the API request's that caused it, see CLIENT_HEADER): each client's
// runs wait in its own queue, served in turn; a client runs on one worker at most while its runs average over
// 0.5 s (so one stays for others), on all of them while they are shorter; at most `perClient` queued or running
// and 20 s of run time a minute while others want the pool (then 429); at most `maxQueue` wait, each at most the
// time limit plus QUEUE_GRACE_MS (then 503).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { bundledWorker, FairScheduler, SchedulerRefusal } from '@michelscope/interpreter';
import { blockOf } from './block-id';
import { RpcError, type NodeError } from './operation-types';
import type { Sandbox } from './sandbox';
import type { HostSnapshot } from './script-host';

export interface ScriptRunnerOptions {
  /** Wall-clock limit of one run, in ms (default 10,000). */
  timeLimitMs?: number;
  /** Worker threads (default 2). */
  threads?: number;
  /** Runs waiting for a worker, all clients together, before new ones are refused (default 32). */
  maxQueue?: number;
  /** A client's runs queued or running at most (default 8; then 429). */
  perClient?: number;
  /** A client's run time per minute while others want the pool, in ms (default 20,000; then 429). */
  budgetMs?: number;
  /**
   * Requests come through the chain worker's forwarder (chain-host-plugin.ts), which names their client in
   * CLIENT_HEADER; without, a request's client is its own address.
   */
  clientHeader?: boolean;
}

/** The client a forwarded request runs for (set by chain-host-plugin.ts only, never taken from outside). */
export const CLIENT_HEADER = 'x-michelscope-client';

export interface ScriptTask {
  /** Path under `/chains/:chain/blocks/:block/helpers/`, e.g. `scripts/run_code`. */
  path: string;
  params: Record<string, string>;
  body: unknown;
  host: HostSnapshot;
  /** The worker posts one message here when it starts the run. */
  started?: MessagePort;
}

/** A full queue (piscina's `maxQueue`) → 503; anything else is rethrown. */
function busy(e: unknown): unknown {
  if (!/queue is at limit/i.test(e instanceof Error ? e.message : String(e))) return e;
  return new RpcError(503, [
    {
      kind: 'temporary',
      id: 'sandbox.busy',
      msg: 'sandboxnet is busy: too many script runs are waiting; retry shortly',
    },
  ]);
}

export type ScriptResult = { ok: true; json: string } | { ok: false; status: number; errors: NodeError[] };

/** Helpers that run on the head state plus the mempool rather than on the named block's state. */
const ON_MEMPOOL = new Set(['scripts/simulate_operation', 'scripts/run_operation', 'preapply/operations']);

/** How much longer than the time limit a run may wait for a worker (a new worker takes 1 s to boot, several on a loaded machine). */
export const QUEUE_GRACE_MS = 10_000;

/** The workers' module and its task function: in the server bundle its bundled entry, else a boot through tsx. */
const BUNDLED = bundledWorker('script-task');
// unbundled: a CommonJS entry (script-task-entry.cjs says why) that imports the tsx boot (script-task-boot.mjs)
const BOOT = BUNDLED?.href ?? new URL('./script-task-entry.cjs', import.meta.url).href;
const TASK = BUNDLED ? 'runScriptTask' : 'default';

export class ScriptRunner {
  private readonly pool: Piscina<ScriptTask, ScriptResult>;
  readonly timeLimitMs: number;
  private readonly clientHeader: boolean;
  readonly scheduler: FairScheduler;

  constructor(
    private readonly sandbox: Sandbox,
    opts: ScriptRunnerOptions = {},
  ) {
    this.timeLimitMs = opts.timeLimitMs ?? 10_000;
    this.clientHeader = opts.clientHeader ?? false;
    this.pool = new Piscina({
      filename: BOOT,
      name: TASK,
      minThreads: 1,
      maxThreads: opts.threads ?? 2,
      maxQueue: opts.maxQueue ?? 32,
      idleTimeout: 60_000,
    });
    const threads = opts.threads ?? 2;
    this.scheduler = new FairScheduler({
      slots: threads,
      runningPerClient: Math.max(1, threads - 1),
      lendMaxMs: 500,
      perClient: opts.perClient ?? 8,
      maxQueued: opts.maxQueue ?? 32,
      maxWaitMs: this.timeLimitMs + QUEUE_GRACE_MS,
      budgetMs: opts.budgetMs ?? 20_000,
      windowMs: 60_000,
      noun: 'script run',
    });
  }

  /** The client a request runs for (see `clientHeader`). */
  clientOf(req: { ip: string; headers: Record<string, string | string[] | undefined> }): string {
    const named = this.clientHeader ? req.headers[CLIENT_HEADER] : undefined;
    return typeof named === 'string' && named !== '' ? named : req.ip;
  }

  /** Runs the helper at `path` for a request of `client`; returns its JSON answer or throws the node's RpcError. */
  async run(
    path: string,
    params: Record<string, string>,
    body: unknown,
    client = 'anonymous',
  ): Promise<string> {
    // the chain's state is taken when the run's turn comes (a refused run costs nothing)
    return this.scheduler
      .run(client, () => this.runNow(this.task(path, params, body)))
      .catch((e: unknown) => {
        if (!(e instanceof SchedulerRefusal)) throw e;
        throw new RpcError(e.status, [
          {
            kind: 'temporary',
            id: e.status === 429 ? 'sandbox.client_share_exceeded' : 'sandbox.busy',
            msg: `sandboxnet refused the script run: ${e.message}`,
          },
        ]);
      });
  }

  private task(path: string, params: Record<string, string>, body: unknown): ScriptTask {
    const block = blockOf(this.sandbox, params);
    const level = block.header.level;
    return {
      path,
      params: { ...params, block: String(level) },
      body,
      host: {
        headLevel: this.sandbox.headLevel,
        block: { hash: block.hash, header: block.header },
        state: this.sandbox.snapshot(ON_MEMPOOL.has(path) ? 'pending' : level),
        // Data only (a function cannot cross threads): the next block's listings, computed here.
        next: (({ level, now, listings }) => ({ level, now, listings: listings() }))(
          this.sandbox.nextBlockContext(),
        ),
        listings: this.sandbox.listingsAt(level),
      },
    };
  }

  private async runNow(task: ScriptTask): Promise<string> {
    // The limit counts from the moment a worker starts the run (it says so on `started`), not while the
    // run waits for a worker or a new worker boots (at most QUEUE_GRACE_MS more than the limit, then 503).
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let stopped: 'waited' | 'ran' | undefined;
    const stop = (why: 'waited' | 'ran') => () => {
      stopped = why;
      abort.abort();
    };
    let timer = setTimeout(stop('waited'), this.timeLimitMs + QUEUE_GRACE_MS);
    port1.once('message', () => {
      clearTimeout(timer);
      timer = setTimeout(stop('ran'), this.timeLimitMs);
    });
    let result: ScriptResult;
    try {
      result = await this.pool.run(
        { ...task, started: port2 },
        { transferList: [port2], signal: abort.signal },
      );
    } catch (e) {
      throw stopped ? this.stopped(stopped) : busy(e);
    } finally {
      clearTimeout(timer);
      port1.close();
    }
    if (!result.ok) throw new RpcError(result.status, result.errors);
    return result.json;
  }

  private stopped(why: 'waited' | 'ran'): RpcError {
    const s = Math.round(this.timeLimitMs / 100) / 10;
    if (why === 'waited')
      return new RpcError(503, [
        {
          kind: 'temporary',
          id: 'sandbox.busy',
          msg: `sandboxnet is busy: no script worker was free for ${s} s`,
        },
      ]);
    return new RpcError(504, [
      {
        kind: 'temporary',
        id: 'sandbox.time_limit_exceeded',
        msg: `the script ran longer than the ${s} s time limit of sandboxnet and was stopped`,
      },
    ]);
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
