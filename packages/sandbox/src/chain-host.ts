// The main thread's side of the chain worker (chain-worker.ts): spawns it, forwards RPC requests to it
// as messages, bounds the requests in progress and the time each may take. A request that exceeds the
// time limit means the worker is stuck in a computation: it is terminated and a new one reopens the
// chain from its store (blocks.jsonl + state.json, crash-safe by design); every request in progress is
// answered with a clear error.
import { Worker } from 'node:worker_threads';
import { bundledWorker } from '@michelscope/interpreter';
import type { ChainWorkerData, FromWorker, RpcRequest, RpcResponse, ToWorker } from './chain-protocol';
import type { SandboxOptions, StorageFault } from './sandbox';
import { QUEUE_GRACE_MS } from './script-runner';

export interface SandboxWorkerOptions extends SandboxOptions {
  /** Wall-clock limit of one script run, in ms (default 10,000): past it the run is stopped (504). */
  timeLimitMs?: number;
  /**
   * Wall-clock limit of one RPC request, in ms (default 2 × timeLimitMs + 15 s): past it the chain worker itself
   * is stuck (e.g. in a block application) and is recreated.
   */
  requestTimeoutMs?: number;
  /** Requests in progress or waiting before new ones are refused with 503 (default 64). */
  maxPending?: number;
  /** Largest request body (bytes, default 4 MiB). */
  bodyLimit?: number;
}

/** A request the chain worker cannot take or did not finish: answered `{"message"}` with `status`. */
export class SandboxUnavailableError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

interface Pending {
  resolve(r: RpcResponse): void;
  reject(e: Error): void;
  timer?: NodeJS.Timeout;
}

interface Stream {
  onChunk(data: string): void;
  onEnd(response?: RpcResponse): void;
}

// the chain worker's script: in the server bundle its bundled entry, else the boot that registers tsx
const WORKER_BOOT = bundledWorker('chain-worker') ?? new URL('./worker-boot.mjs', import.meta.url);
const CHAIN_WORKER = new URL('./chain-worker.ts', import.meta.url).href;

/** A restarted chain worker that cannot find its chain tries again after this long. */
const REOPEN_RETRY_MS = 5_000;

export class SandboxWorker {
  private worker!: Worker;
  private ready!: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly streams = new Map<number, Stream>();
  private started = false;
  private stopping = false;
  private level = -1;
  private fault: StorageFault | null = null;
  private lastFault: StorageFault | undefined;
  private opened = false;
  private reopenFailed = false;
  private readonly log: (line: string) => void;
  private readonly timeoutMs: number;
  private readonly maxPending: number;

  private constructor(private readonly opts: SandboxWorkerOptions) {
    this.log = opts.log ?? (() => {});
    // Past a script run's longest wait and run (script-runner.ts), with a margin.
    this.timeoutMs = opts.requestTimeoutMs ?? 2 * (opts.timeLimitMs ?? 10_000) + QUEUE_GRACE_MS + 5000;
    this.maxPending = opts.maxPending ?? 64;
  }

  /** Starts the worker and waits until the chain is open (created and seeded on first start). */
  static async open(opts: SandboxWorkerOptions): Promise<SandboxWorker> {
    const host = new SandboxWorker(opts);
    host.ready = host.spawn();
    await host.ready;
    return host;
  }

  /** The head level (as of the last block the worker reported). */
  get headLevel(): number {
    return this.level;
  }

  /** Why the chain cannot be stored (no block is baked meanwhile), as the worker last reported; or null. */
  get storageFault(): StorageFault | null {
    return this.fault;
  }

  /** The latest storage fault, kept after it ended (undefined: none since the start). */
  get lastStorageFault(): StorageFault | undefined {
    return this.lastFault;
  }

  /** Starts baking (now and after every restart). */
  start(): void {
    this.started = true;
    this.send({ type: 'start' });
  }

  private send(m: ToWorker): void {
    // Between a restart's terminate and the new worker there is none: `spawn` re-sends `start`.
    (this.worker as Worker | undefined)?.postMessage(m);
  }

  private spawn(): Promise<void> {
    const { log: _log, requestTimeoutMs: _t, maxPending: _m, bodyLimit, timeLimitMs, ...options } = this.opts;
    const data: ChainWorkerData = {
      entry: CHAIN_WORKER,
      // a restart reopens the chain it had: never a new one in place of a removed folder
      options: this.opened ? { ...options, mustExist: true } : options,
      bodyLimit: bodyLimit ?? 4 * 1024 * 1024,
      timeLimitMs: timeLimitMs ?? 10_000,
    };
    const worker = new Worker(WORKER_BOOT, { workerData: data });
    this.worker = worker;
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromWorker) => {
        if (worker !== this.worker) return;
        switch (m.type) {
          case 'ready':
            this.level = m.headLevel;
            this.fault = null;
            this.opened = true;
            if (this.started) this.send({ type: 'start' });
            resolve();
            return;
          case 'failed':
            // a reopen that cannot find its chain is the storage fault the health route reports
            if (this.opened) {
              this.lastFault = this.fault = { message: m.message, since: this.fault?.since ?? Date.now() };
              this.reopenFailed = true;
            }
            reject(new Error(m.message));
            return;
          case 'log':
            this.log(m.line);
            return;
          case 'head':
            this.level = m.level;
            return;
          case 'storage':
            this.fault = m.fault;
            if (m.fault) this.lastFault = m.fault;
            return;
          case 'response':
            return this.settle(m.id, m.response);
          case 'chunk':
            this.streams.get(m.id)?.onChunk(m.data);
            return;
          case 'stopped':
            return;
        }
      });
      worker.on('error', (e) => {
        if (worker !== this.worker) return;
        reject(e);
        this.log(`sandbox: the chain worker failed: ${e.message}`);
      });
      worker.on('exit', (code) => {
        if (worker !== this.worker || this.stopping) return;
        reject(new Error(`the chain worker exited (${code})`));
        if (this.reopenFailed) {
          // its chain is not there: tried again quietly every few seconds (requests get 503 meanwhile)
          this.reopenFailed = false;
          setTimeout(() => {
            if (this.stopping || worker !== this.worker) return;
            this.ready = this.spawn();
            this.ready.catch(() => undefined);
          }, REOPEN_RETRY_MS).unref();
          return;
        }
        this.restart(`the chain worker exited (${code})`);
      });
    });
  }

  private settle(id: number, response: RpcResponse): void {
    const p = this.pending.get(id);
    if (p) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.resolve(response);
      return;
    }
    const s = this.streams.get(id);
    if (s) {
      this.streams.delete(id);
      s.onEnd(response);
    }
  }

  /** Terminates the worker and opens the chain again in a new one; requests in progress fail. */
  private restart(reason: string): void {
    const old = this.worker;
    this.log(`sandbox: ${reason}; restarting the chain worker from the stored chain`);
    this.worker = undefined as unknown as Worker;
    this.failAll(`sandboxnet was restarted: ${reason}`);
    this.ready = old.terminate().then(() => (this.stopping ? undefined : this.spawn()));
    this.ready.catch((e: unknown) =>
      this.log(`sandbox: the chain worker did not restart: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  private failAll(message: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new SandboxUnavailableError(503, message));
    }
    for (const [id, s] of this.streams) {
      this.streams.delete(id);
      s.onEnd();
    }
  }

  /** One RPC request (path under the RPC root); rejects with SandboxUnavailableError when busy or too slow. */
  request(request: RpcRequest): Promise<RpcResponse> {
    if (this.stopping) return Promise.reject(new SandboxUnavailableError(503, 'sandboxnet is stopping'));
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(
        new SandboxUnavailableError(
          503,
          `sandboxnet is busy: ${this.maxPending} requests are in progress; retry shortly`,
        ),
      );
    }
    const id = this.nextId++;
    return new Promise<RpcResponse>((resolve, reject) => {
      const p: Pending = { resolve, reject };
      this.pending.set(id, p);
      this.ready.then(
        () => {
          if (!this.pending.has(id)) return;
          p.timer = setTimeout(() => this.timedOut(id), this.timeoutMs);
          this.send({ type: 'request', id, request });
        },
        (e: unknown) => {
          this.pending.delete(id);
          reject(
            new SandboxUnavailableError(
              503,
              `sandboxnet is not running: ${e instanceof Error ? e.message : String(e)}`,
            ),
          );
        },
      );
    });
  }

  private timedOut(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    const s = Math.round(this.timeoutMs / 100) / 10;
    p.reject(
      new SandboxUnavailableError(
        504,
        `the request ran longer than the ${s} s time limit of sandboxnet and was stopped`,
      ),
    );
    this.restart(`a request exceeded the ${s} s time limit`);
  }

  /** `/monitor/heads/:chain`: `onChunk` gets the head now and each new head; returns the unsubscribe. */
  monitor(chain: string, stream: Stream): () => void {
    const id = this.nextId++;
    this.streams.set(id, stream);
    this.ready.then(
      () => {
        if (this.streams.has(id)) this.send({ type: 'monitor', id, chain });
      },
      () => {
        this.streams.delete(id);
        stream.onEnd();
      },
    );
    return () => {
      if (!this.streams.delete(id)) return;
      this.ready.then(
        () => this.send({ type: 'unmonitor', id }),
        () => undefined,
      );
    };
  }

  /** Stops baking, flushes the chain to disk and ends the worker. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    await this.ready.catch(() => undefined);
    this.stopping = true;
    const worker = this.worker;
    this.failAll('sandboxnet is stopping');
    if (!worker) return;
    const stopped = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 15_000);
      worker.on('message', (m: FromWorker) => {
        if (m.type === 'stopped') {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    worker.postMessage({ type: 'stop' } satisfies ToWorker);
    await stopped;
    await worker.terminate();
  }
}
