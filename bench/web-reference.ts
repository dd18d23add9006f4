/**
 * Our web app against the original Better Call Dev app (issue 36 part 2): the same pages as bench/web-load.ts
 * (home, the seeded FA1.2 contract's operations, storage and code tabs, the largest fixture contract's code
 * tab), the same API data (both apps read the one product started here, sandbox mode), the same throttle
 * (CDP 20 Mbit/s, 40 ms round trips) and the same measure: the time from the navigation's start to the first
 * animation frame where the page's data is in the DOM, each visit in a fresh browser context (cold cache).
 * Per page one warm-up visit of each app, then RUNS pairs of visits alternating ours / theirs (the order
 * swapped every pair); prints the medians and the ratio ours / original.
 *
 * The original app is the built output of scripts/build-bcd-reference.sh (baking-bad/bcd, Vue 2), served
 * here by a small static server (node:http, history fallback to index.html, brotli / gzip as our server
 * sends its own files) on a port of its own; its service URLs, built in as a placeholder origin
 * (MICHELSCOPE-BUILD.txt of the build), are replaced with the product's origin as the files are served. Our
 * product answers it cross-origin (config `cors`, default true). The product is configured with sandboxnet
 * only (no mainnet, ghostnet): BCD's home shows the first network's recently called contracts.
 *
 *   npm run build:web && node scripts/build-server.mjs
 *   VJSF_SRC=/tmp/vjsf scripts/build-bcd-reference.sh /tmp/bcd-ui /tmp/bcd-ui/dist   (sources: its header)
 *   BCD_DIST=/tmp/bcd-ui/dist node --import tsx bench/web-reference.ts [RUNS]
 *   MS_BENCH_URL=http://127.0.0.1:PORT …   # reuse a running product (sandbox mode)
 *   MS_BENCH_LOCAL=1 …                       # also a pass without throttling
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { freePort, hasChromium, hasWebBuild, launchBrowser } from '../e2e/harness';
import { raisePriority } from './priority';
import { machineLine, median, startBenchProduct, visit, type Target, type Visit } from './web-load';

const RUNS = Number(process.argv[2] ?? 5);
const BCD_DIST = process.env.BCD_DIST;
const LOCAL_PASS = process.env.MS_BENCH_LOCAL === '1';

/**
 * The original app's "data shown" conditions, by the tab (the path's last segment), found in its source
 * (baking-bad/bcd at the pinned commit) and checked in the running app:
 * - home: a contract link in a row of the "Recently called contracts" table (RecentlyCalledContracts.vue);
 * - operations: an operation group's panel header (ContentItem.vue, rendered once the skeleton is gone);
 * - storage: a node label of the storage tree (MiguelTreeView.vue's v-treeview);
 * - code: a highlighted token in CodeMirror once every chunk of the code is in it (CodeTab.vue feeds the
 *   editor 35,000 characters per timer tick and shows "Rendering: N%" until the last one), as ours
 *   counts its code shown once every line is in the page.
 */
const BCD_SHOWN: Record<string, string> = {
  home: `document.querySelector('.recently-called tr.table-row a[href*="/KT1"]')`,
  operations: `document.querySelector('.op-panel .v-expansion-panel-header')`,
  storage: `document.querySelector('.v-treeview .v-treeview-node__label')`,
  code: `(!document.querySelector('.rendering-percents') && document.querySelector('.CodeMirror .CodeMirror-code pre span[class^="cm-"]'))`,
};
const tabOf = (p: string) => (p === '/' ? 'home' : (p.split('/').pop() ?? ''));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};
const TEXT = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

interface StaticFile {
  type: string;
  body: Buffer;
  br?: Buffer;
  gz?: Buffer;
  immutable: boolean;
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const rel = `${prefix}/${name}`;
    return statSync(path.join(dir, name)).isDirectory() ? listFiles(path.join(dir, name), rel) : [rel];
  });
}

/** The origin the build calls (MICHELSCOPE-BUILD.txt, written by scripts/build-bcd-reference.sh). */
function builtOrigin(dist: string): string {
  const info = path.join(dist, 'MICHELSCOPE-BUILD.txt');
  const origin = existsSync(info) ? /^origin: (\S+)$/m.exec(readFileSync(info, 'utf8'))?.[1] : undefined;
  if (!origin)
    throw new Error(`${info} missing or without "origin:": build with scripts/build-bcd-reference.sh`);
  return origin;
}

/**
 * Serves the built BCD app from memory on a free port: its service origin replaced with `apiOrigin`, text
 * files compressed once (brotli quality 11 and gzip, above 1 kB, as our build's files), history fallback to
 * index.html. Source maps are not served (a browser without devtools does not ask for them).
 */
export async function serveBcd(
  dist: string,
  apiOrigin: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const from = builtOrigin(dist);
  const files = new Map<string, StaticFile>();
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  await Promise.all(
    listFiles(dist)
      .filter((rel) => !rel.endsWith('.map'))
      .map(async (rel) => {
        const ext = path.extname(rel);
        let body = readFileSync(path.join(dist, rel));
        if (TEXT.has(ext)) body = Buffer.from(body.toString('utf8').replaceAll(from, apiOrigin));
        const file: StaticFile = {
          type: TYPES[ext] ?? 'application/octet-stream',
          body,
          // Vue CLI names its js/css/img/fonts with content hashes
          immutable: /^\/(js|css|img|fonts)\/.*\.[0-9a-f]{8}\./.test(rel),
        };
        if (TEXT.has(ext) && body.length > 1024) {
          file.br = await br(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
          file.gz = await gz(body, { level: 9 });
        }
        files.set(rel, file);
      }),
  );
  const index = files.get('/index.html');
  if (!index) throw new Error(`${dist}/index.html missing`);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = files.get(pathname) ?? (path.extname(pathname) === '' ? index : undefined);
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const accept = String(req.headers['accept-encoding'] ?? '');
    const [body, encoding] =
      file.br && /\bbr\b/.test(accept)
        ? [file.br, 'br']
        : file.gz && /\bgzip\b/.test(accept)
          ? [file.gz, 'gzip']
          : [file.body, undefined];
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': body.length,
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main() {
  if (!BCD_DIST || !existsSync(path.join(BCD_DIST, 'index.html'))) {
    console.error(
      `BCD_DIST ${BCD_DIST ? `(${BCD_DIST}) has no index.html` : 'is not set'}: build the original app first, ` +
        'VJSF_SRC=… scripts/build-bcd-reference.sh /tmp/bcd-ui /tmp/bcd-ui/dist, then BCD_DIST=/tmp/bcd-ui/dist',
    );
    process.exit(2);
  }
  if (!Number.isInteger(RUNS) || RUNS < 1) {
    console.error('usage: BCD_DIST=… node --import tsx bench/web-reference.ts [RUNS]');
    process.exit(2);
  }
  if (!hasChromium || !hasWebBuild) {
    console.error('chromium or apps/web/dist missing (apt-get install chromium; npm run build:web)');
    process.exit(2);
  }
  console.log(raisePriority());
  // sandboxnet only: BCD's home lists the recently called contracts of the first network of /v1/config
  // (mainnet by default), ours those of sandboxnet in sandbox mode; with one network both show the same
  const product = await startBenchProduct({ networks: { mainnet: false, ghostnet: false } });
  const bcd = await serveBcd(BCD_DIST, product.server.url);
  const browser = await launchBrowser();
  try {
    console.log(`${machineLine(2)}; ${RUNS} cold visits per page and app, alternating, medians`);
    console.log(`ours: ${product.server.url}, original (BCD build ${BCD_DIST}): ${bcd.url}`);
    for (const throttle of LOCAL_PASS ? [true, false] : [true]) {
      console.log(throttle ? '\nthrottled: 20 Mbit/s, 40 ms RTT' : '\nlocalhost, no throttling');
      console.log(
        'page | ours: time to data | original: time to data | ratio | ours: transferred (requests) | original: transferred (requests)',
      );
      for (const target of product.targets) {
        const shown = BCD_SHOWN[tabOf(target.path)];
        if (!shown) throw new Error(`no condition for the original app's page ${target.path}`);
        const theirs: Target = { ...target, shown };
        const visitOurs = () => visit(browser, product.server.url, target, throttle);
        // a visit of the original app that never shows the data (60 s) is counted, not fatal
        let failed = 0;
        const failures: string[] = [];
        const visitTheirs = async (): Promise<Visit | undefined> => {
          try {
            return await visit(browser, bcd.url, theirs, throttle, true);
          } catch (e) {
            failed++;
            failures.push((e as Error).message.split('\n')[0] ?? '');
            return undefined;
          }
        };
        await visitOurs(); // warm-up (server caches, chromium)
        await visitTheirs();
        failed = 0;
        const ours: Visit[] = [];
        const orig: Visit[] = [];
        const theirsInto = async () => {
          const v = await visitTheirs();
          if (v) orig.push(v);
        };
        for (let i = 0; i < RUNS; i++) {
          if (i % 2 === 0) {
            ours.push(await visitOurs());
            await theirsInto();
          } else {
            await theirsInto();
            ours.push(await visitOurs());
          }
        }
        if (orig.length === 0) {
          console.log(`${target.name} | the original app never showed the data: ${failures.join('; ')}`);
          continue;
        }
        const ms = (vs: Visit[]) => median(vs.map((v) => v.ms));
        const kB = (vs: Visit[]) => `${(median(vs.map((v) => v.bytes)) / 1000).toFixed(1)} kB`;
        const reqs = (vs: Visit[]) => median(vs.map((v) => v.requests));
        console.log(
          `${target.name} | ${Math.round(ms(ours))} ms | ${Math.round(ms(orig))} ms | ` +
            `${(ms(ours) / ms(orig)).toFixed(2)} | ${kB(ours)} (${reqs(ours)}) | ${kB(orig)} (${reqs(orig)})`,
        );
        const all = (vs: Visit[]) => vs.map((v) => Math.round(v.ms)).join(', ');
        console.log(`    runs: ours ${all(ours)}; original ${all(orig)}`);
        // ours: who showed the data first (s: the server's page, a: the app) and when the HTML had arrived
        console.log(
          `    ours, shown by / HTML at: ${ours.map((v) => `${v.server ? 's' : 'a'} ${Math.round(v.htmlMs)} ms`).join(', ')}`,
        );
        const errors = orig.flatMap((v) => v.errors);
        if (errors.length > 0)
          console.log(`    original app's page errors: ${[...new Set(errors)].join('; ')}`);
        if (failed > 0)
          console.log(
            `    original app: ${failed} of ${RUNS} visits without the data in 60 s (left out of its median)`,
          );
        if (failures.length > failed) console.log(`    original app's warm-up visit failed: ${failures[0]}`);
      }
    }
    console.log(
      `\nload average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await browser.close();
    await bcd.close();
    await product.stop();
  }
}

// run as a script (not when imported for serveBcd)
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main();
