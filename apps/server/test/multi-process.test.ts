/**
 * More than one machine (issue 36 part 4): the product as separate processes over one PostgreSQL — `michelscope
 * sandbox` (the node), one `michelscope indexer --network sandboxnet` and two `michelscope api`, real child
 * processes of the server bundle (scripts/bundle-node.mjs, as `npm start` runs it) — behind a round-robin
 * proxy made here. Through it: both API processes answer and the head advances as the indexer indexes; a share
 * written through one is read through the other; a live subscriber of either hears the blocks the indexer (a
 * third process) commits; the rate limit is one per client across both (counted in PostgreSQL); pages are
 * rendered on the server by either (a stand-in web build, `WEB_DIST_DIR`); and the process started with
 * `DATABASE_READ_URL` reads through that connection (pg_stat_activity, by its application_name) while its
 * writes go to the primary. docs/DEPLOY.md describes the layout.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL): under CI its absence fails with one line, elsewhere the file skips.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import {
  createTestDatabase,
  databaseUrl,
  dropTestDatabase,
  withAdmin,
} from '../../../packages/db/src/test-databases';
import { copySeededChain } from '@michelscope/sandbox/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleNode, SERVER_ENTRIES } from '../../../scripts/bundle-node.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PG = process.env.TEST_DATABASE_URL;
const CI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
/** API requests per client and minute: small, so that the test can pass it. */
const LIMIT = 40;
const REPLICA_APP = 'ms_replica_b';

/** The stand-in web build's renderer: the contract's address and indexed level, read through the API. */
const RENDERER = `
export async function renderPage({ url }) {
  const [, network, address] = new URL(url).pathname.split('/');
  const res = await fetch('/v1/contract/' + network + '/' + address);
  const c = await res.json();
  return { html: '<p>contract ' + c.address + ' at level ' + c.level + ' (' + res.status + ')</p>', styles: '' };
}
`;

/** A shared call (api-types `SharedCall`), told apart by `n`. */
const shareState = (address: string, n: string) => ({
  v: 1,
  network: 'sandboxnet',
  address,
  entrypoint: 'default',
  data: { default: { n } },
  settings: { source: '', sender: '', amount: '' },
  what_if: {
    overrides: {
      storageMode: 'none',
      storageText: '',
      storageForm: {},
      balance: '',
      now: '',
      level: '',
      source: '',
      sender: '',
      amount: '',
      chainId: '',
      bigMaps: [],
    },
    bundle: [],
  },
  show: 'simulation',
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

interface Child {
  name: string;
  proc: ChildProcess;
  out: string[];
}

/** Every child started, ready or not: afterAll stops them all. */
const children: Child[] = [];
/**
 * How long a child may take to start: generous, for a 2-core machine running other suites at once (a guard, not a
 * budget: in session 35's CI, with both cores busy 99.8 % of the time, an API process had not printed its ready
 * line 90 s after its spawn while the indexer and the other API process started beside it).
 */
const READY_MS = 180_000;

/** A child `michelscope <args>` of the bundle; resolves once a line matches `ready`. */
function start(
  name: string,
  main: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<Child> {
  const proc = spawn(process.execPath, [main, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const child: Child = { name, proc, out: [] };
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`${name} not ready in ${READY_MS / 1000} s:\n${child.out.slice(-20).join('\n')}`)),
      READY_MS,
    );
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        child.out.push(line);
        if (ready.test(line)) {
          clearTimeout(timer);
          resolve(child);
        }
      }
    };
    proc.stdout.on('data', onLine);
    proc.stderr.on('data', onLine);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}):\n${child.out.slice(-20).join('\n')}`));
    });
  });
}

async function stop(child: Child | undefined): Promise<void> {
  if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.proc.once('exit', () => r()));
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A round-robin HTTP proxy (what any load balancer does), naming the upstream in `x-upstream`. */
function roundRobin(upstreams: number[]): Promise<http.Server> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const port = upstreams[next++ % upstreams.length]!;
    const up = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': String(port) });
        answer.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Answer {
  status: number;
  upstream: string;
  body: string;
}

async function get(port: number, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { headers });
  return { status: res.status, upstream: res.headers.get('x-upstream') ?? '', body: await res.text() };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The levels of the `head` events a live connection to `port` receives, as they come. */
function subscribe(port: number): { levels: number[]; close(): void } {
  const levels: number[] = [];
  const req = http.get(
    { host: '127.0.0.1', port, path: '/v1/live/sandboxnet', headers: { accept: 'text/event-stream' } },
    (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString();
        let i: number;
        while ((i = buf.indexOf('\n\n')) !== -1) {
          const event = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (/^event: head$/m.test(event)) levels.push(Number(/^id: (\d+)$/m.exec(event)?.[1]));
        }
      });
    },
  );
  req.on('error', () => undefined);
  return { levels, close: () => req.destroy() };
}

if (!PG) {
  if (CI)
    it('runs the multi-process layout', () => {
      throw new Error('TEST_DATABASE_URL is not set: the multi-process test needs PostgreSQL');
    });
  else
    describe.skip('more than one process (TEST_DATABASE_URL is not set: needs PostgreSQL)', () => {
      console.log('[multi-process] skipped: TEST_DATABASE_URL is not set (it needs PostgreSQL)');
      it('runs the multi-process layout', () => undefined);
    });
} else {
  describe('more than one process over one PostgreSQL', { timeout: 90_000 }, () => {
    const dirs: string[] = [];
    let database = '';
    let dbUrl = '';
    let proxy: http.Server;
    let proxyPort = 0;
    let portA = 0;
    let portB = 0;
    let contract = '';

    beforeAll(async () => {
      const started = Date.now();
      const work = mkdtempSync(path.join(tmpdir(), 'ms-multi-'));
      dirs.push(work);
      // the server bundle, as `npm start` runs it (scripts/build-server.mjs's entries)
      const cache = path.join(ROOT, 'node_modules/.cache');
      mkdirSync(cache, { recursive: true });
      const outdir = mkdtempSync(path.join(cache, 'ms-multi-server-'));
      dirs.push(outdir);
      const bundled = bundleNode({
        outdir,
        entries: SERVER_ENTRIES,
      });
      // a fresh database: a copy of the run's migrated template (or migrated here)
      const created = await createTestDatabase(PG, inject('msPgTemplate'));
      database = created.name;
      dbUrl = databaseUrl(PG, database);
      if (!created.migrated) {
        const handle = await openDatabase({ databaseUrl: dbUrl, maxConnections: 1 });
        await migrateToLatest(handle.db).finally(() => handle.close());
      }
      // the node: the run's seeded demo chain (its contracts' addresses are in the seed's log line)
      const sandboxDir = path.join(work, 'sandbox');
      const seedLines: string[] = [];
      const copied = await copySeededChain(sandboxDir, (l) => seedLines.push(l));
      // a stand-in web build whose renderer reads the API (the real one is e2e/server-render.e2e.ts's)
      const web = path.join(work, 'web');
      mkdirSync(path.join(web, 'dist', '.vite'), { recursive: true });
      mkdirSync(path.join(web, 'dist-ssr'));
      writeFileSync(path.join(web, 'package.json'), '{"type":"module"}');
      writeFileSync(
        path.join(web, 'dist', '.vite', 'route-preload.json'),
        JSON.stringify({ routes: [{ path: '/:network/:address', files: [], rendered: true }] }),
      );
      writeFileSync(
        path.join(web, 'dist', 'index.html'),
        '<!doctype html><html><head><title>Michelscope</title></head><body><div id="root"></div></body></html>',
      );
      writeFileSync(path.join(web, 'dist-ssr', 'entry-server.js'), RENDERER);

      const [nodePort, a, b] = [await freePort(), await freePort(), await freePort()];
      portA = a;
      portB = b;
      const config = path.join(work, 'michelscope.config.json');
      writeFileSync(
        config,
        JSON.stringify({
          networks: {
            sandboxnet: { rpc_url: `http://127.0.0.1:${nodePort}` },
            mainnet: false,
            ghostnet: false,
          },
          sandbox: { block_time_ms: 1000, seed: !copied },
          // distinct clients through the proxy: the test names them in X-Forwarded-For
          trust_proxy: ['loopback'],
          rate_limit: { max: LIMIT, time_window_ms: 60_000, pages: 1000 },
        }),
      );
      const main = path.join(outdir, 'main.mjs');
      await bundled;
      const base = { MICHELSCOPE_CONFIG: config, WEB_DIST_DIR: path.join(web, 'dist') };
      const node = await start(
        'sandbox',
        main,
        ['sandbox', '--port', String(nodePort)],
        { ...base, DATA_DIR: sandboxDir },
        /node RPC at/,
      );
      seedLines.push(...node.out);
      contract = /(KT1[1-9A-HJ-NP-Za-km-z]{33})/.exec(seedLines.find((l) => /demo seed:/.test(l)) ?? '')![1]!;
      const db = { ...base, DATABASE_URL: dbUrl };
      await Promise.all([
        start('indexer', main, ['indexer', '--network', 'sandboxnet'], db, /\[db\]/),
        start('api A', main, ['api'], { ...db, PORT: String(portA) }, /\[api\] serving/),
        start(
          'api B',
          main,
          ['api'],
          {
            ...db,
            PORT: String(portB),
            DATABASE_READ_URL: `${dbUrl}?application_name=${REPLICA_APP}`,
          },
          /\[api\] serving/,
        ),
      ]);
      proxy = await roundRobin([portA, portB]);
      proxyPort = (proxy.address() as AddressInfo).port;
      console.log(`[multi-process] 4 processes up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 420_000);

    afterAll(async () => {
      proxy?.close();
      await Promise.all(children.map(stop));
      if (database) await dropTestDatabase(PG, database).catch(() => undefined);
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    const client = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
    /** The indexed level of sandboxnet an answer of GET /v1/health (not cached) names. */
    const level = (a: Answer) =>
      (JSON.parse(a.body) as { networks: { indexer: { level: number | null } }[] }).networks[0]?.indexer
        .level ?? 0;
    // each poll its own client, so that polling never meets the rate limit
    let polls = 0;
    const health = (port: number) => {
      polls += 1;
      return get(port, '/v1/health', { 'x-forwarded-for': `198.18.${(polls >> 8) & 255}.${polls & 255}` });
    };

    it('both API processes answer through the proxy, and the head advances as the other process indexes', async () => {
      const first = await until('an indexed head', async () => {
        const r = await health(proxyPort);
        return level(r) > 0 ? r : undefined;
      });
      const second = await health(proxyPort);
      expect(level(second)).toBeGreaterThanOrEqual(level(first));
      expect(new Set([first.upstream, second.upstream])).toEqual(new Set([String(portA), String(portB)]));
      const later = await until('a higher head', async () => {
        const r = await health(proxyPort);
        return level(r) > level(second) ? r : undefined;
      });
      expect(level(later)).toBeGreaterThan(level(first));
    });

    it('a live subscriber of either process hears the blocks the indexer commits', async () => {
      const head = level(await health(portA));
      const onA = subscribe(portA);
      const onB = subscribe(portB);
      try {
        await until('a new head on A and on B', async () =>
          onA.levels.some((l) => l > head) && onB.levels.some((l) => l > head) ? true : undefined,
        );
      } finally {
        onA.close();
        onB.close();
      }
    });

    it('a share written through A is read through B', async () => {
      const state = shareState(contract, String(Date.now()));
      const posted = await fetch(`http://127.0.0.1:${portA}/v1/shares`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...client(3) },
        body: JSON.stringify(state),
      });
      expect(posted.status, await posted.clone().text()).toBe(200);
      const { id } = (await posted.json()) as { id: string };
      const read = await get(portB, `/v1/shares/${id}`, client(3));
      expect(read.status).toBe(200);
      expect((JSON.parse(read.body) as { state: unknown }).state).toEqual(state);
    });

    it('the rate limit is one per client across both processes (counted in PostgreSQL)', async () => {
      const answers: Answer[] = [];
      for (let i = 0; i < LIMIT + 2; i++) answers.push(await get(proxyPort, '/v1/config', client(4)));
      // the first LIMIT requests, half on each process, pass; the next ones fail on both
      expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual(Array(LIMIT).fill(200));
      const over = answers.slice(LIMIT);
      expect(over.map((a) => a.status)).toEqual([429, 429]);
      expect(new Set(over.map((a) => a.upstream)).size).toBe(2);
      // another client still has its whole budget
      expect((await get(proxyPort, '/v1/config', client(5))).status).toBe(200);
    });

    it('either process renders a contract page on the server, from the index', async () => {
      const rendered = new Map<string, string>();
      await until('a rendered page from each process', async () => {
        const r = await get(proxyPort, `/sandboxnet/${contract}`, { accept: 'text/html', ...client(6) });
        if (r.status === 200 && r.body.includes('id="ms-ssr"')) rendered.set(r.upstream, r.body);
        return rendered.size === 2 ? true : undefined;
      });
      for (const body of rendered.values())
        expect(body).toMatch(new RegExp(`<p>contract ${contract} at level \\d+ \\(200\\)</p>`));
    });

    it("B's reads go through DATABASE_READ_URL's connection; its writes to the primary", async () => {
      const replicaQueries = () =>
        withAdmin(PG, async (admin) => {
          const { rows } = await admin.query<{ query: string }>(
            `SELECT query FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`,
            [database, REPLICA_APP],
          );
          return rows.map((r) => r.query);
        });
      // A's reads never use it; B's contract page reads do
      const onB = await get(portB, `/v1/contract/sandboxnet/${contract}`, client(7));
      expect(onB.status).toBe(200);
      const queries = await replicaQueries();
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.some((q) => /\b(contracts|accounts|blocks|scripts)\b/.test(q))).toBe(true);
      // the read connection is read-only: the share (a write) went to the primary, and reads back from B
      const posted = await fetch(`http://127.0.0.1:${portB}/v1/shares`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...client(7) },
        body: JSON.stringify(shareState(contract, 'replica')),
      });
      expect(posted.status).toBe(200);
    });
  });
}
