import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { createClient } from '@michelscope/client';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const hasWebBuild = existsSync(path.join(ROOT, 'apps/web/dist/index.html'));

/**
 * Whether a browser suite can run here; prints why not (tagged with the suite's name) when it cannot. Under
 * CI it cannot skip: the suite fails (so does the run's global setup, e2e/global-setup.ts).
 */
export function canBrowse(suite: string): boolean {
  const ok = hasChromium && hasWebBuild;
  const why = `[e2e ${suite}] needs chromium and apps/web/dist (npm run build:web)`;
  if (!ok && process.env.CI) throw new Error(`${why}: under CI it does not skip`);
  if (!ok) console.warn(`${why}: skipped.`);
  return ok;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const tempDataDir = () => mkdtemp(path.join(os.tmpdir(), 'ms-e2e-'));

/**
 * A DATA_DIR that holds the demo seed already baked and indexed: a copy of the run's template
 * (e2e/global-setup.ts). A product started on it resumes the chain at the seed's last block with its index
 * there too, instead of baking and indexing the seed again. Without a template (a suite run without the
 * e2e config), an empty DATA_DIR: the product seeds it on its first start.
 */
export async function seededDataDir(): Promise<string> {
  const dir = await tempDataDir();
  const template = inject('e2eTemplate');
  if (template) await cp(template, dir, { recursive: true });
  return dir;
}

/** The server bundle (scripts/build-server.mjs, built by the run's global setup) and how to start it. */
const SERVER_BUNDLE = path.join(ROOT, 'apps/server/dist/main.mjs');
const serverCommand = (): string[] =>
  existsSync(SERVER_BUNDLE)
    ? ['--enable-source-maps', SERVER_BUNDLE, 'start']
    : ['--import', 'tsx', 'apps/server/src/main.ts', 'start'];

export interface RunningServer {
  url: string;
  port: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `michelscope start` as a user would (real sandbox, indexers, DB, API and web app), from the server
 * bundle as `npm start` runs it.
 */
export async function startServer(opts: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  /** How long to wait for the first answer of /v1/config (default 60 s; a loaded machine needs more). */
  timeoutMs?: number;
}): Promise<RunningServer> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const port = opts.port ?? (await freePort());
  const child: ChildProcess = spawn(process.execPath, serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: opts.dataDir, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const client = createClient({ baseUrl: url });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      await client.unwrap(client.GET('/v1/config'));
      break;
    } catch {
      /* not listening yet (or not answering 2xx: ApiError) */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${Math.round(timeoutMs / 1000)} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Head {
  network: string;
  level: number;
  synced: boolean;
}

/** `GET /v1/head` through the typed client (an answer other than 2xx throws its ApiError). */
export async function heads(url: string): Promise<Head[]> {
  const client = createClient({ baseUrl: url });
  return client.unwrap(client.GET('/v1/head'));
}

/** Polls until `check` returns a value (not undefined), or fails after `ms`. */
export async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

let axeSource: string | undefined;

/**
 * Runs axe-core in the page (all rules, colour contrast included) and returns its serious and critical
 * violations as readable lines: `rule: help (selectors)`. An empty list means the page passes.
 */
export async function axeViolations(page: import('playwright-core').Page): Promise<string[]> {
  if (axeSource === undefined) {
    const { createRequire } = await import('node:module');
    const { readFile } = await import('node:fs/promises');
    const require = createRequire(import.meta.url);
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  }
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  // Let finite transitions end first (a dialog fading in has low contrast mid-way); endless ones are ignored.
  await page.evaluate(() => {
    interface Anim {
      effect: { getComputedTiming(): { endTime?: number | string } } | null;
      finished: Promise<unknown>;
    }
    const doc = (globalThis as unknown as { document: { getAnimations(): Anim[] } }).document;
    const finite = doc
      .getAnimations()
      .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    return Promise.race([
      Promise.all(finite.map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 3_000)),
    ]);
  });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.targets.slice(0, 5).join(', ')})`);
}

export interface ProductSession {
  /** The product's DATA_DIR (tests may write their own files there). */
  readonly dataDir: string;
  readonly server: RunningServer;
  readonly browser: Browser;
}

/** The external explorer the shared product links sandboxnet's contracts to (read-pages checks the links). */
export const SHARED_EXPLORER = 'https://explorer.example';
/** The IPFS gateway of the shared product (read-data checks the metadata links through it). */
export const SHARED_IPFS_GATEWAY = 'https://gw.example/ipfs';

/**
 * The configuration of the run's shared product (e2e/global-setup.ts): the public networks unreachable, and
 * sandboxnet with its statistics and an external explorer (read-pages' Statistics tab and explorer links).
 */
export const SHARED_CONFIG = {
  networks: {
    mainnet: { rpc_url: 'http://127.0.0.1:9' },
    ghostnet: { rpc_url: 'http://127.0.0.1:9' },
    sandboxnet: { rpc_url: 'embedded', stats: true, start_level: 0, explorer_url: SHARED_EXPLORER },
  },
};
/** The shared product's environment besides its configuration file. */
export const SHARED_ENV = { IPFS_GATEWAY: SHARED_IPFS_GATEWAY };

/**
 * The URL of a product a read-only suite can use instead of starting its own: `envVar` (a product started by
 * hand, e.g. MS_E2E_URL) or else the run's shared product; '' when there is neither (the suite starts one).
 */
export function sharedProductUrl(envVar: string): string {
  return process.env[envVar] || inject('e2eShared') || '';
}

/**
 * For the describe block it is called in: starts the product on a seeded DATA_DIR (with `config` as its
 * michelscope.config.json when given) and a browser before its tests
 * and stops both, removing the directory, after them. Before the tests, the explorer has indexed the whole
 * demo seed: the sandbox bakes the seed before the server listens, so its head then is the seed's last block,
 * and the tests, which compare the node's blocks with the pages, start once the indexed head has reached it
 * (the head's `synced` flag only says that a recent block is indexed, and the seed's blocks are all recent).
 *
 * `shared`: a suite that sends nothing to the chain and changes no setting uses the run's shared product
 * (started once by e2e/global-setup.ts with SHARED_CONFIG, from the same seed) instead of starting its own;
 * its `dataDir` is then an empty folder of its own for the files it writes. The suites before it used the
 * same product (its chain has grown by their time), so a shared suite finds its contracts by what they are
 * and reads what it compares at the same level.
 */
export function syncedSandboxSession(
  opts: { config?: Record<string, unknown>; shared?: boolean } = {},
): ProductSession {
  const session = {} as { dataDir?: string; server: RunningServer; browser: Browser };
  beforeAll(async () => {
    const shared = opts.shared ? inject('e2eShared') : '';
    if (shared) {
      session.dataDir = await tempDataDir();
      const url = new URL(shared);
      session.server = { url: url.origin, port: Number(url.port), output: () => '', stop: async () => {} };
    } else {
      session.dataDir = await seededDataDir();
      // `config`: a michelscope.config.json of the suite's own (in its DATA_DIR)
      const env: Record<string, string> = opts.shared ? { ...SHARED_ENV } : {};
      const config = opts.shared ? SHARED_CONFIG : opts.config;
      if (config) {
        env.MICHELSCOPE_CONFIG = path.join(session.dataDir, 'michelscope.config.json');
        await writeFile(env.MICHELSCOPE_CONFIG, JSON.stringify(config));
      }
      session.server = await startServer({ dataDir: session.dataDir, env, timeoutMs: 240_000 });
    }
    session.browser = await launchBrowser();
    await waitIndexedToNodeHead(session.server.url);
  }, 600_000);
  afterAll(async () => {
    await session.browser?.close();
    await session.server?.stop();
    if (session.dataDir) await rm(session.dataDir, { recursive: true, force: true });
  });
  return session as ProductSession;
}

/** Waits until the product's index of sandboxnet has reached the level its node is at now. */
export async function waitIndexedToNodeHead(url: string): Promise<void> {
  const node = (await (await fetch(`${url}/rpc/sandboxnet/chains/main/blocks/head/header`)).json()) as {
    level: number;
  };
  await waitFor(`sandboxnet indexed up to the node's block ${node.level}`, 300_000, async () =>
    (await heads(url)).find((h) => h.network === 'sandboxnet' && h.level >= node.level) ? true : undefined,
  );
}

/**
 * Words of the element's text that the layout splits across two lines ('Collectio' / 'n'): a line that ends
 * inside a word. Long unbroken strings (hashes, addresses) may break anywhere and are not counted.
 */
export async function wordsBrokenAcrossLines(locator: import('playwright-core').Locator): Promise<string[]> {
  return locator.evaluate((el) => {
    const broken: string[] = [];
    const doc = el.ownerDocument;
    const walker = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const range = doc.createRange();
      let lastTop: number | undefined;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (
          lastTop !== undefined &&
          rect.top > lastTop + 2 &&
          /\S/.test(text[i - 1] ?? '') &&
          /\S/.test(text[i])
        ) {
          const start = text.lastIndexOf(' ', i) + 1;
          const end = text.indexOf(' ', i);
          const word = text.slice(start, end < 0 ? undefined : end);
          if (word.length <= 24) broken.push(word);
        }
        lastTop = rect.top;
      }
    }
    return broken;
  });
}

/**
 * How long one wait for the page may take. CI runs on a loaded 2-core machine (load 15–30 was seen), where a
 * page that shows in 2 s here takes 30 s and more: waits are auto-waiting locators and polls with this limit.
 */
export const UI_TIMEOUT = 90_000;

/**
 * Waits until the app has taken over the page the server rendered (apps/web/src/app/ssr-markup.ts): that
 * page is inert, so a test that presses keys or focuses an element itself (not through an action that waits
 * for an element to take input) waits for this first, as a reader who tabs would wait for a live page.
 */
export async function appTookOver(page: Page): Promise<void> {
  await page.locator('#ms-ssr').waitFor({ state: 'detached', timeout: UI_TIMEOUT });
}

/**
 * Clicks an operation card's 'Show details' and waits until its details have opened in full: the height
 * animation over, nothing clipped. A reader clicks a link inside once they see it; a click in the middle of
 * the animation can land on whatever is under the pointer by the time the browser handles it.
 */
export async function showDetails(button: Locator): Promise<void> {
  // read first: the button's name changes once it is clicked ('Hide details')
  const id = await button.getAttribute('aria-controls');
  if (!id) throw new Error('the details button names no region it controls (aria-controls)');
  await button.click();
  // a string: the root tsconfig has no DOM library
  const open = `(() => {
    const region = document.getElementById(${JSON.stringify(id)});
    if (!region) return false;
    const height = region.getBoundingClientRect().height;
    return height > 0 && height + 1 >= region.scrollHeight && getComputedStyle(region).overflow !== 'hidden';
  })()`;
  await button.page().waitForFunction(open, undefined, { timeout: UI_TIMEOUT, polling: 'raf' });
}

/** Collects uncaught page errors and console errors of the app; `check()` fails when there was one. */
export function watchErrors(page: Page, allow?: RegExp) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !allow?.test(m.text())) errors.push(`console error: ${m.text()}`);
  });
  return {
    errors,
    check() {
      if (errors.length > 0) throw new Error(errors.join('\n'));
    },
  };
}

/**
 * Pages of the app for the tests of the describe block it is called in: each with UI_TIMEOUT as its default
 * wait, and watched: after each test its pages are closed, and the test fails if any of them had an uncaught
 * page error or an app console error (whatever the test itself checked).
 */
export function appPages(session: ProductSession): {
  /** `allow`: console errors the test expects (the browser's own line for an answer it asked for, e.g. a 400) */
  open(opts?: { allow?: RegExp }): Promise<Page>;
} {
  let opened: { page: Page; watch: ReturnType<typeof watchErrors> }[] = [];
  afterEach(async () => {
    const pages = opened;
    opened = [];
    for (const p of pages) await p.page.close().catch(() => undefined);
    const errors = pages.flatMap((p) => p.watch.errors);
    if (errors.length > 0) throw new Error(`the app reported errors:\n${errors.join('\n')}`);
  });
  return {
    async open(opts = {}) {
      const page = await session.browser.newPage();
      page.setDefaultTimeout(UI_TIMEOUT);
      page.setDefaultNavigationTimeout(UI_TIMEOUT);
      opened.push({ page, watch: watchErrors(page, opts.allow) });
      return page;
    },
  };
}
