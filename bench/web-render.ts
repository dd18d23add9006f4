/**
 * Web rendering in a real browser (issue 9): the built product (`michelscope start`, web app from
 * apps/web/dist) and Debian's chromium through playwright-core.
 *
 *  (a) the code tab of the largest contract of ../shared/fixtures/contracts (by its Micheline JSON size),
 *      originated into the sandbox with Taquito: from the click on the Code tab until every chunk is in
 *      the editor (no 'Rendering: N%' left) and the visible lines are highlighted; then until the last
 *      line is shown highlighted after a jump to the end. Target: ≤ 1 s.
 *  (b) the storage tab of a contract whose storage is a 10,000-node tree (a list of 3,333 pairs), also
 *      originated by the benchmark: from the click on the Storage tab until the first tree rows show.
 *
 * Each figure is split into "after the API answer" (the browser's own work) and "total" (with the API
 * request). One warm-up, then RUNS measured runs in fresh pages; median and best are printed.
 *
 *   npm run build:web && node --import tsx bench/web-render.ts [RUNS]
 *   MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/web-render.ts   # reuse a running product
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
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

const NETWORK = 'sandboxnet';
const RUNS = Number(process.argv[2] ?? 5);
const FIXTURES = path.resolve(ROOT, '../shared/fixtures/contracts');
const TREE_ITEMS = 3333; // list of 3,333 pairs: 1 + 3,333 × 3 = 10,000 nodes

if (!existsSync(FIXTURES)) {
  console.warn(`${FIXTURES} not found: nothing to benchmark`);
  process.exit(0);
}
if (!hasChromium || !hasWebBuild) {
  console.warn('chromium or apps/web/dist missing (apt-get install chromium; npm run build:web)');
  process.exit(0);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

interface Run {
  total: number;
  afterApi: number;
  extra?: number;
}

/** Opens the operations tab, then measures from the click on `tab` until `done` resolves. */
async function measureTab(
  server: RunningServer,
  page: Page,
  address: string,
  tab: string,
  apiPath: RegExp,
  done: (page: Page) => Promise<void>,
): Promise<Run> {
  await page.goto(`${server.url}/${NETWORK}/${address}/operations`);
  const link = page.getByRole('tablist', { name: 'Account tabs' }).getByRole('tab', { name: tab });
  await link.waitFor({ timeout: 60_000 });
  const answered = page.waitForResponse((r) => apiPath.test(new URL(r.url()).pathname), { timeout: 60_000 });
  const t0 = performance.now();
  await link.click();
  await answered;
  const t1 = performance.now();
  await done(page);
  const t2 = performance.now();
  return { total: t2 - t0, afterApi: t2 - t1 };
}

async function main() {
  const big = largestFixtureContract(FIXTURES);
  if (!big) throw new Error('no code.json under the fixtures');
  const code = JSON.parse(readFileSync(big.file, 'utf8')) as Prim[];
  const storageType = code.find((s) => s.prim === 'storage')?.args?.[0];
  if (!storageType) throw new Error(`${big.file} has no storage section`);

  let server: RunningServer;
  let dataDir = '';
  if (process.env.MS_BENCH_URL) {
    const url = process.env.MS_BENCH_URL;
    server = { url, port: Number(new URL(url).port), output: () => '', stop: async () => {} };
  } else {
    dataDir = await tempDataDir();
    server = await startServer({ dataDir, timeoutMs: 170_000 });
  }
  const browser = await launchBrowser();
  try {
    const rpc = `${server.url}/rpc/${NETWORK}`;
    const codeAddress = await originateAsBootstrap(rpc, code, defaultValue(storageType));
    const treeCode = [
      { prim: 'parameter', args: [{ prim: 'unit' }] },
      {
        prim: 'storage',
        args: [{ prim: 'list', args: [{ prim: 'pair', args: [{ prim: 'nat' }, { prim: 'nat' }] }] }],
      },
      {
        prim: 'code',
        args: [[{ prim: 'CDR' }, { prim: 'NIL', args: [{ prim: 'operation' }] }, { prim: 'PAIR' }]],
      },
    ];
    const treeStorage = Array.from({ length: TREE_ITEMS }, (_, i) => ({
      prim: 'Pair',
      args: [{ int: String(i) }, { int: String(i % 64) }],
    }));
    const treeAddress = await originateAsBootstrap(rpc, treeCode, treeStorage);
    for (const address of [codeAddress, treeAddress]) {
      await waitFor(`${address} indexed`, 180_000, async () => {
        const res = await fetch(`${server.url}/v1/contract/${NETWORK}/${address}`);
        return res.status === 200 ? true : undefined;
      });
    }
    const codeText = await (await fetch(`${server.url}/v1/contract/${NETWORK}/${codeAddress}/code`)).text();
    const codeChars = (JSON.parse(codeText) as string).length;
    const storageBody = await (
      await fetch(`${server.url}/v1/contract/${NETWORK}/${treeAddress}/storage`)
    ).text();

    const codeRuns: Run[] = [];
    const treeRuns: Run[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const run = await measureTab(server, page, codeAddress, 'Code', /\/code$/, async (p) => {
        const region = p.locator('[role="region"][aria-label="Michelson code"][aria-busy="false"]');
        await region.waitFor({ timeout: 60_000 });
        await region.locator('.cm-line span').first().waitFor({ timeout: 60_000 });
      });
      // Then the last line, highlighted, after a jump to the end of the code.
      const t = performance.now();
      await page.locator('.cm-scroller').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.locator('.cm-line').last().locator('span').first().waitFor({ timeout: 60_000 });
      run.extra = performance.now() - t;
      if (i > 0) codeRuns.push(run);
      await page.close();

      const page2 = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const tree = await measureTab(server, page2, treeAddress, 'Storage', /\/storage$/, async (p) => {
        await p
          .getByRole('tree', { name: 'Storage' })
          .getByRole('treeitem')
          .nth(5)
          .waitFor({ timeout: 60_000 });
      });
      if (i > 0) treeRuns.push(tree);
      await page2.close();
    }

    const fmt = (xs: number[]) => `${Math.round(median(xs))} ms (best ${Math.round(Math.min(...xs))} ms)`;
    const rel = path.relative(path.resolve(ROOT, '..'), big.file);
    console.log(
      `machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `(a) code tab of ${rel} (${big.bytes} bytes of Micheline JSON, ${codeChars} characters of Michelson, ${Math.ceil(codeChars / 35_000)} chunks), ${RUNS} runs:`,
    );
    console.log(`    click → fully rendered and highlighted: ${fmt(codeRuns.map((r) => r.total))}`);
    console.log(`    of which after the API answer:        ${fmt(codeRuns.map((r) => r.afterApi))}`);
    console.log(`    jump to the end → last line highlighted: ${fmt(codeRuns.map((r) => r.extra ?? 0))}`);
    console.log(
      `(b) storage tab, 10,000-node tree (${TREE_ITEMS} pairs, ${storageBody.length} bytes of /storage JSON), ${RUNS} runs:`,
    );
    console.log(`    click → first tree rows shown: ${fmt(treeRuns.map((r) => r.total))}`);
    console.log(`    of which after the API answer: ${fmt(treeRuns.map((r) => r.afterApi))}`);
  } finally {
    await browser.close();
    await server.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
