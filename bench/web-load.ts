/**
 * What a browser really downloads and waits for (issue 18): the built product (`michelscope start`) in
 * Debian's chromium through playwright-core, each visit in a fresh browser context (cold cache), with the
 * network throttled through CDP to 20 Mbit/s both ways and 40 ms round trips (a second pass without
 * throttling: localhost).
 *
 * Pages: home (its recently called table, sandbox mode so that it lists sandboxnet's contracts), the seeded
 * FA1.2 contract's operations, storage and code tabs, and the code tab of the largest contract of
 * ../shared/fixtures/contracts (by its Micheline JSON size), originated into the sandbox with Taquito.
 * For each: bytes transferred as the browser counts them (CDP `encodedDataLength`: compressed bodies and
 * headers), of which JavaScript, the number of requests, and the time from the navigation's start to the
 * page's data shown (measured in the page: `performance.now()` at the first animation frame where the
 * data is in the DOM). One warm-up visit, then RUNS measured visits per page; medians are printed.
 *
 *   npm run build:web && node --import tsx bench/web-load.ts [RUNS]
 *   MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/web-load.ts   # reuse a running product
 *   MS_BENCH_FILES=1 …   # also list each page's JavaScript files and their transferred sizes
 *
 * bench/web-reference.ts imports the visit, the conditions and the product's start from here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import {
  defaultValue,
  largestFixtureContract,
  originateAsBootstrap,
  type Prim,
} from '../e2e/fixture-contracts';
import {
  ROOT,
  hasChromium,
  hasWebBuild,
  launchBrowser,
  startServer,
  tempDataDir,
  waitFor,
  type RunningServer,
} from '../e2e/harness';
import { raisePriority } from './priority';

/** The machine a web benchmark runs on, for its printout: cores, CPU model, Node, load average. */
export function machineLine(digits = 1): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(digits))
    .join(' ');
  return `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, load average ${load}`;
}

export const NETWORK = 'sandboxnet';
const FIXTURES = path.resolve(ROOT, '../shared/fixtures/contracts');
/** 20 Mbit/s in bytes per second, 40 ms round trip. */
export const THROTTLED = { latency: 40, downloadThroughput: 20e6 / 8, uploadThroughput: 20e6 / 8 };

/** A DOM condition, evaluated in the page, that is true once the page shows its data. */
export interface Target {
  name: string;
  path: string;
  shown: string;
}

export const HOME_SHOWN = `document.querySelector('table[aria-label^="Recently called contracts"] tbody a[href*="/KT1"]')`;
export const OPS_SHOWN = `document.querySelector('ul[aria-label="Operation groups"] li[data-testid="opg-row"]')`;
export const STORAGE_SHOWN = `document.querySelector('[role="tree"][aria-label="Storage"] [role="treeitem"]')`;
// a highlighted token, once every line is in the page: the light view's (a token span of a [data-n] line;
// its plain lines far from the screen have none) or CodeMirror's (.cm-line)
export const CODE_SHOWN = `document.querySelector('[role="region"][aria-label="Michelson code"][aria-busy="false"] :is([data-n] .ms-text > span[class^="ms-"], .cm-line span)')`;

export interface Visit {
  ms: number;
  /** The data was first shown by the server's page (our app's server rendering), not by the app. */
  server: boolean;
  /** When the page's HTML had arrived (navigation timing's responseEnd). */
  htmlMs: number;
  bytes: number;
  jsBytes: number;
  requests: number;
  jsRequests: number;
  /** Every JavaScript file the visit loaded, with its transferred size, largest first. */
  jsFiles: { name: string; bytes: number }[];
  /** Uncaught errors of the page (only with `tolerateErrors`: otherwise they fail the visit). */
  errors: string[];
}

export async function visit(
  browser: Browser,
  base: string,
  target: Target,
  throttle: boolean,
  tolerateErrors = false,
): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (throttle) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...THROTTLED });
  const types = new Map<string, string>();
  const urls = new Map<string, string>();
  const sizes = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    urls.set(e.requestId, e.response.url);
  });
  cdp.on('Network.loadingFinished', (e) => sizes.set(e.requestId, e.encodedDataLength));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${base}${target.path}`, { waitUntil: 'commit' });
    // when the data shows: the time, and whether the server's page (#ms-ssr) or the app's showed it
    const handle = await page.waitForFunction(
      `(${target.shown}) ? { ms: performance.now(), server: !!document.getElementById('ms-ssr') } : false`,
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const { ms, server } = (await handle.jsonValue()) as { ms: number; server: boolean };
    const htmlMs = await page.evaluate<number>(
      `performance.getEntriesByType('navigation')[0]?.responseEnd ?? NaN`,
    );
    // Requests still in flight when the data shows count with what they transfer.
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
    let bytes = 0;
    let jsBytes = 0;
    let jsRequests = 0;
    const jsFiles: Visit['jsFiles'] = [];
    for (const [id, size] of sizes) {
      bytes += size;
      if (types.get(id) === 'Script') {
        jsBytes += size;
        jsRequests++;
        jsFiles.push({ name: new URL(urls.get(id) ?? '', base).pathname, bytes: size });
      }
    }
    jsFiles.sort((a, b) => b.bytes - a.bytes);
    if (errors.length > 0 && !tolerateErrors)
      throw new Error(`page errors on ${target.path}: ${errors.join('; ')}`);
    return { ms, server, htmlMs, bytes, jsBytes, requests: sizes.size, jsRequests, jsFiles, errors };
  } finally {
    await context.close();
  }
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** The product the pages are read from, with the pages to visit. */
export interface BenchProduct {
  server: RunningServer;
  targets: Target[];
  stop: () => Promise<void>;
}

/**
 * Starts the built product in sandbox mode (or uses MS_BENCH_URL), waits for the seeded FA1.2 contract and
 * its operations, originates the largest fixture contract and returns the pages: home, the FA1.2 contract's
 * operations, storage and code tabs, the largest fixture's code tab. `config`: more of the product's
 * configuration file (beside `sandbox_mode: true`).
 */
export async function startBenchProduct(config: Record<string, unknown> = {}): Promise<BenchProduct> {
  let server: RunningServer;
  let dataDir = '';
  if (process.env.MS_BENCH_URL) {
    const url = process.env.MS_BENCH_URL;
    server = { url, port: Number(new URL(url).port), output: () => '', stop: async () => {} };
  } else {
    dataDir = await tempDataDir();
    const configFile = path.join(dataDir, 'bench-config.json');
    writeFileSync(configFile, JSON.stringify({ sandbox_mode: true, ...config }));
    server = await startServer({ dataDir, timeoutMs: 170_000, env: { MICHELSCOPE_CONFIG: configFile } });
  }
  const stop = async () => {
    await server.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const fa12 = await waitFor('the seeded FA1.2 contract and its operations', 180_000, async () => {
      const res = await fetch(`${server.url}/v1/helpers/contracts/${NETWORK}?tags=fa1-2`);
      if (!res.ok) return undefined;
      const { address } = (await res.json()) as { address: string };
      const opg = await fetch(`${server.url}/v1/contract/${NETWORK}/${address}/opg`);
      return opg.ok && ((await opg.json()) as unknown[]).length >= 3 ? address : undefined;
    });
    const targets: Target[] = [
      { name: 'home', path: '/', shown: HOME_SHOWN },
      { name: 'contract operations', path: `/${NETWORK}/${fa12}/operations`, shown: OPS_SHOWN },
      { name: 'contract storage', path: `/${NETWORK}/${fa12}/storage`, shown: STORAGE_SHOWN },
      { name: 'contract code', path: `/${NETWORK}/${fa12}/code`, shown: CODE_SHOWN },
    ];
    const big = largestFixtureContract(FIXTURES);
    if (big) {
      const code = JSON.parse(readFileSync(big.file, 'utf8')) as Prim[];
      const storageType = code.find((s) => s.prim === 'storage')?.args?.[0];
      if (!storageType) throw new Error(`${big.file} has no storage section`);
      const address = await originateAsBootstrap(
        `${server.url}/rpc/${NETWORK}`,
        code,
        defaultValue(storageType),
      );
      await waitFor(`${address} indexed`, 180_000, async () => {
        const res = await fetch(`${server.url}/v1/contract/${NETWORK}/${address}`);
        return res.status === 200 ? true : undefined;
      });
      const name = `largest fixture code (${path.relative(path.resolve(ROOT, '..'), big.file)}, ${big.bytes} B)`;
      targets.push({ name, path: `/${NETWORK}/${address}/code`, shown: CODE_SHOWN });
    } else {
      console.warn(`${FIXTURES} not found: the largest fixture contract is not measured`);
    }
    return { server, targets, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function main() {
  const RUNS = Number(process.argv[2] ?? 3);
  /** MS_BENCH_FILES=1: also list the JavaScript files of each page's first visit (throttled pass). */
  const LIST_FILES = process.env.MS_BENCH_FILES === '1';
  if (!hasChromium || !hasWebBuild) {
    console.warn('chromium or apps/web/dist missing (apt-get install chromium; npm run build:web)');
    process.exit(0);
  }
  console.log(raisePriority());
  const { server, targets, stop } = await startBenchProduct();
  const browser = await launchBrowser();
  try {
    console.log(`${machineLine()}; ${RUNS} cold visits per page, medians`);
    for (const throttle of [true, false]) {
      console.log(
        throttle ? '\nthrottled: 20 Mbit/s, 40 ms RTT' : '\nlocalhost, no throttling (transfer as above)',
      );
      console.log('page | time to data | transferred | of which JS | requests (JS)');
      for (const target of targets) {
        await visit(browser, server.url, target, throttle); // warm-up (server caches, chromium)
        const runs: Visit[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await visit(browser, server.url, target, throttle));
        const kB = (b: number) => `${(b / 1000).toFixed(1)} kB`;
        console.log(
          `${target.name} | ${Math.round(median(runs.map((r) => r.ms)))} ms | ` +
            `${kB(median(runs.map((r) => r.bytes)))} | ${kB(median(runs.map((r) => r.jsBytes)))} | ` +
            `${median(runs.map((r) => r.requests))} (${median(runs.map((r) => r.jsRequests))})`,
        );
        if (LIST_FILES && throttle) {
          for (const f of runs[0]?.jsFiles ?? []) console.log(`    ${kB(f.bytes).padStart(9)}  ${f.name}`);
        }
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
}

// run as a script (bench/web-reference.ts imports the pieces above)
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
