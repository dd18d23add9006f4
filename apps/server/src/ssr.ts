/**
 * The server's rendering of pages (issue 18): a page's route with its data, as HTML, sent inside index.html
 * so that the browser shows the data as soon as the page arrives, before the app's code has loaded and run
 * (the app then replaces it: apps/web/src/app/ssr-markup.ts).
 *
 * The rendering runs in a worker thread (./ssr-worker.ts), never on the event loop that serves the API; its
 * API requests come back to this thread and are answered by `app.inject`. Every page is bounded: a page that
 * is not rendered within `budgetMs` (or when `maxInFlight` renders are already running) is sent without it:
 * with the API answers that came by then when there are some (the app takes them over), else as the plain
 * app shell with the route's API requests announced; a worker that has not answered a render within `hardLimitMs` (a page too large, a
 * loop) is terminated and replaced, and its memory is capped (`maxHeapMb`).
 */
import { Worker } from 'node:worker_threads';
import { bundledWorker } from '@michelscope/sandbox';

/** One API request of a page being rendered, answered in this thread. */
export type ApiCall = (request: { method: string; path: string; body?: string }) => Promise<{
  status: number;
  headers: Record<string, string>;
  body: string;
}>;

export interface RenderedPage {
  html: string;
  styles: string;
  /**
   * The API answers the page was rendered from (the web's dehydrated query cache) as JSON safe inside an
   * HTML `<script>` element (`<`, `>`, `&` and the JavaScript line separators escaped); absent when they
   * were not plain JSON or larger than ./page-data's MAX_PAGE_DATA_CHARS (the app then asks the API itself).
   */
  data?: string;
}

/** Messages to the worker. */
export type ToRenderer =
  | {
      type: 'render';
      id: number;
      request: { url: string; config: unknown; dark: boolean; budgetMs: number };
    }
  | { type: 'fetched'; id: number; status: number; headers: Record<string, string>; body: string };

/** Messages from the worker. */
export type FromRenderer =
  | { type: 'ready' }
  | { type: 'fetch'; id: number; method: string; path: string; body?: string }
  | { type: 'rendered'; id: number; page: RenderedPage | null; error?: string };

export interface PageRendererOptions {
  /** The web build's renderer: apps/web/dist-ssr/entry-server.js. */
  entry: string;
  api: ApiCall;
  /** Time a page waits for its rendering (data included); its head is sent meanwhile (./page-response.ts). */
  budgetMs?: number;
  maxInFlight?: number;
  hardLimitMs?: number;
  maxHeapMb?: number;
  log?: (line: string) => void;
}

/** The API paths a page may read while it is rendered. */
const API_PATHS = /^\/(v1|search\/v1|stats\/v1|metadata\/v1|rpc)\//;
/** How long before the budget the renderer sends the answers it has when its data is not all there. */
const ANSWERS_MARGIN_MS = 150;
/** After a renderer failed (it could not load, it ran out of memory), pages wait this long for a new one. */
const RESPAWN_PAUSE_MS = 5_000;
// the renderer's script: in the server bundle its bundled entry, else the boot that registers tsx
const WORKER_BOOT =
  bundledWorker('ssr-worker')?.href ?? import.meta.resolve('@michelscope/sandbox/worker-boot');
const WORKER_ENTRY = new URL('./ssr-worker.ts', import.meta.url).href;

interface Pending {
  resolve: (page: RenderedPage | null) => void;
  /** When the worker started on it (its loading time does not count). */
  started: number;
  /** How long it may take before the worker is replaced. */
  limitMs: number;
}

export class PageRenderer {
  private worker: Worker | null = null;
  private ready = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private watchdog: NodeJS.Timeout | null = null;
  private closed = false;
  private failedAt = 0;
  private readonly budgetMs: number;
  private readonly maxInFlight: number;
  private readonly hardLimitMs: number;
  /** API GETs being answered, by path: renders that need the same answer at once share one. */
  private readonly inFlight = new Map<string, ReturnType<ApiCall>>();

  constructor(private readonly opts: PageRendererOptions) {
    this.budgetMs = opts.budgetMs ?? 1_500;
    this.maxInFlight = opts.maxInFlight ?? 4;
    this.hardLimitMs = opts.hardLimitMs ?? 5_000;
  }

  /** Starts the worker and renders `warmUrl` once (the first rendering loads and compiles the renderer). */
  start(warmUrl: string, config: unknown): void {
    this.spawn();
    void this.render(warmUrl, config, true, 30_000);
  }

  /** Whether a page asked for now would be rendered (a worker ready, and room for one more render). */
  takes(): boolean {
    return !this.closed && this.worker !== null && this.ready && this.pending.size < this.maxInFlight;
  }

  /** The page at `url` (absolute), or null when it could not be rendered within the budget. */
  render(
    url: string,
    config: unknown,
    dark: boolean,
    budgetMs = this.budgetMs,
  ): Promise<RenderedPage | null> {
    if (this.closed || this.pending.size >= this.maxInFlight) return Promise.resolve(null);
    // a renderer that failed to load is not reloaded on every page
    if (!this.worker && Date.now() - this.failedAt < RESPAWN_PAUSE_MS) return Promise.resolve(null);
    const worker = this.worker ?? this.spawn();
    if (!this.ready && budgetMs === this.budgetMs) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise<RenderedPage | null>((resolve) => {
      const timer = setTimeout(() => {
        done(null);
      }, budgetMs);
      const done = (page: RenderedPage | null) => {
        clearTimeout(timer);
        resolve(page);
      };
      this.pending.set(id, {
        resolve: done,
        started: Date.now(),
        limitMs: Math.max(this.hardLimitMs, budgetMs),
      });
      // the renderer stops waiting for data a little before the budget, so that the answers that came reach
      // the page (without markup) before it is sent without them
      worker.postMessage({
        type: 'render',
        id,
        request: { url, config, dark, budgetMs: Math.max(0, budgetMs - ANSWERS_MARGIN_MS) },
      } satisfies ToRenderer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    for (const p of this.pending.values()) p.resolve(null);
    this.pending.clear();
    await this.worker?.terminate();
    this.worker = null;
  }

  private spawn(): Worker {
    const worker = new Worker(new URL(WORKER_BOOT), {
      workerData: { entry: WORKER_ENTRY, rendererEntry: this.opts.entry },
      env: { ...process.env, NODE_ENV: 'production' },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxHeapMb ?? 512 },
    });
    this.worker = worker;
    this.ready = false;
    worker.on('message', (m: FromRenderer) => {
      if (worker !== this.worker) return;
      if (m.type === 'ready') {
        this.ready = true;
        for (const p of this.pending.values()) p.started = Date.now();
      } else if (m.type === 'fetch') void this.answer(worker, m);
      else {
        if (m.error) this.opts.log?.(`[ssr] ${m.error.slice(0, 300)}`);
        this.pending.get(m.id)?.resolve(m.page);
        this.pending.delete(m.id);
      }
    });
    worker.on('error', (e) => {
      this.failedAt = Date.now();
      void this.replace(worker, `failed: ${e.message}`);
    });
    worker.on('exit', () => void this.replace(worker, null));
    worker.unref();
    this.watchdog ??= setInterval(
      () => {
        const now = Date.now();
        for (const p of this.pending.values()) {
          if (this.ready && now - p.started > p.limitMs && this.worker) {
            void this.replace(this.worker, `a page took more than ${p.limitMs} ms: renderer restarted`);
            return;
          }
        }
      },
      Math.min(1_000, this.hardLimitMs / 2),
    );
    this.watchdog.unref();
    return worker;
  }

  private async replace(worker: Worker, why: string | null): Promise<void> {
    if (worker !== this.worker) return;
    if (why) this.opts.log?.(`[ssr] ${why}`);
    this.worker = null;
    this.ready = false;
    for (const p of this.pending.values()) p.resolve(null);
    this.pending.clear();
    await worker.terminate();
  }

  private async answer(worker: Worker, m: Extract<FromRenderer, { type: 'fetch' }>): Promise<void> {
    let reply: ToRenderer;
    if (!API_PATHS.test(m.path) || (m.method !== 'GET' && m.method !== 'POST')) {
      reply = { type: 'fetched', id: m.id, status: 403, headers: {}, body: '{"message":"not an API path"}' };
    } else {
      try {
        const res = await this.apiCall(m);
        reply = { type: 'fetched', id: m.id, ...res };
      } catch (e) {
        reply = {
          type: 'fetched',
          id: m.id,
          status: 502,
          headers: {},
          body: JSON.stringify({ message: String(e) }),
        };
      }
    }
    if (worker === this.worker) worker.postMessage(reply);
  }

  /** One API request of a render; a GET already being answered for another render is shared. */
  private apiCall(m: { method: string; path: string; body?: string }): ReturnType<ApiCall> {
    const call = () =>
      this.opts.api({ method: m.method, path: m.path, ...(m.body !== undefined ? { body: m.body } : {}) });
    if (m.method !== 'GET') return call();
    const shared = this.inFlight.get(m.path);
    if (shared) return shared;
    const answer = call().finally(() => this.inFlight.delete(m.path));
    this.inFlight.set(m.path, answer);
    return answer;
  }
}
