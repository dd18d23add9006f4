/**
 * API load benchmark (issue 7): autocannon with 50 connections against the real API (`apiPlugin` on Fastify,
 * as apps/server mounts it, in a child process) over PostgreSQL with the generated database of
 * `bench/api-data.ts` (≥ 1,000,000 operations), one run per route: contract, operation-group list, storage,
 * big-map keys, search suggest. Each request picks a random subject (contracts, accounts, pointers,
 * queries) so that the figures are not those of one cached row. Target: p99 ≤ 50 ms.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/api-load.ts [seconds per route]
 *
 * BENCH_SIZE=10m (issue 36) uses the mainnet-sized data of `bench/api-data.ts` and adds the routes of its hot
 * spots (the 1,000,000-operation contract, the 2,000,000-key big map, the 100,000-token FA2, search); run it
 * against a database of its own:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_10m BENCH_SIZE=10m npx tsx bench/api-load.ts 15
 *
 * BENCH_SCHEMA (default bench_api, bench_api_10m) is the PostgreSQL schema holding the data (kept between runs);
 * BENCH_ROUTES=contract,opg limits the routes; BENCH_CPU_PROF=<folder> writes a CPU profile of the API process.
 * search-prefix, search-address and search-words (the search route by kind of query) run only when named there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { apiPlugin, frameworkErrors } from '@michelscope/api';
import type { Db } from '@michelscope/db';
import { BENCH_NETWORK, BENCH_SIZE, contractSql, HOT, openBenchDb, SIZES } from './api-data';

const APP_NAME = 'ms-api-bench';
const url = process.env.DATABASE_URL;
/** The API's pool connections carry this application_name, to find their server processes. */
const apiUrl = url && `${url}${url.includes('?') ? '&' : '?'}application_name=${APP_NAME}`;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const schema =
  process.env.BENCH_SCHEMA ??
  (BENCH_SIZE === '10m' ? 'bench_api_10m' : SCALE === 1 ? 'bench_api' : 'bench_api_small');
const CONNECTIONS = 50;
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);

/** Child process: the API on an ephemeral port; prints `{port}` to the parent. */
async function serve(): Promise<void> {
  const bench = await openBenchDb(apiUrl!, schema, log, 20);
  const db = bench.handle.db;
  // CPU spent so far by this process and by the PostgreSQL backends serving its pool, in ms
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    void sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${APP_NAME}`
      .execute(db)
      .then((r) => {
        const backends: Record<number, number> = {};
        for (const { pid } of r.rows) {
          try {
            const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
            backends[pid] = (Number(f[11]) + Number(f[12])) * 10; // utime + stime, 100 ticks/s
          } catch {
            /* ended */
          }
        }
        const u = process.cpuUsage();
        process.send!({ cpu: { api: (u.user + u.system) / 1000, backends } });
      });
  });
  const app = await benchApiApp(db);
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('SIGTERM', () => process.exit(0)); // a normal exit (writes --cpu-prof profiles)
  const address = app.server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0, counts: bench.counts });
}

interface Subjects {
  contracts: string[];
  accounts: string[];
  ptrs: number[];
  queries: string[];
  /** 10m: the hot spots' addresses, and keys of the hot big map (hash, text) for its filter */
  hot?: { contract: string; fa2: string; keyHashes: string[]; keyTexts: string[] };
}

/** Random subjects: a mix of hot (most operations / keys) and uniformly drawn ones. */
export async function subjects(): Promise<Subjects> {
  const bench = await openBenchDb(url!, schema, log, 2);
  const db = bench.handle.db;
  try {
    const rows = async (q: ReturnType<typeof sql<{ v: string }>>) =>
      (await q.execute(db)).rows.map((r) => r.v);
    const hot = await rows(sql`
      SELECT destination AS v FROM operations WHERE id > (SELECT max(id) - 100000 FROM operations)
      GROUP BY destination ORDER BY count(*) DESC LIMIT 20`);
    const random = await rows(sql`SELECT address AS v FROM contracts TABLESAMPLE SYSTEM (10) LIMIT 480`);
    const accounts = await rows(
      sql`SELECT address AS v FROM accounts TABLESAMPLE SYSTEM (5) WHERE type = 'account' LIMIT 500`,
    );
    const hotPtrs = await rows(sql`
      SELECT ptr::text AS v FROM big_map_states WHERE id > (SELECT max(id) - 100000 FROM big_map_states)
      GROUP BY ptr ORDER BY count(*) DESC LIMIT 20`);
    const ptrs = [
      ...hotPtrs.map(Number),
      ...Array.from({ length: 480 }, (_, i) => (i * 7919) % SIZES.contracts),
    ];
    const tokenWords = [
      'tezos',
      'punk',
      'ghost dragon',
      'quipu',
      'kolibri gem',
      'objkt',
      'plenty swap',
      'fx art',
    ];
    const queries = [
      ...random.slice(0, 100).map((a) => a.slice(0, 10)), // address prefix
      ...random.slice(100, 150), // whole address
      ...tokenWords,
      ...['youves vault', 'sirius', 'ctez', 'crunchy farm', 'market', 'transfer', 'ledger', 'dao 42'],
    ];
    let hotSpots: Subjects['hot'];
    if (HOT) {
      const keys = (
        await sql<{ key_hash: string; key_text: string }>`
          SELECT key_hash, key_text FROM big_map_states TABLESAMPLE SYSTEM (0.05) WHERE ptr = ${HOT.ptr} LIMIT 500`.execute(
          db,
        )
      ).rows;
      const address = async (j: number) =>
        (await rows(sql<{ v: string }>`SELECT ${sql.raw(contractSql(String(j)))} AS v`))[0]!;
      hotSpots = {
        contract: await address(HOT.contract),
        fa2: await address(HOT.fa2),
        keyHashes: keys.map((k) => k.key_hash),
        keyTexts: keys.map((k) => k.key_text),
      };
    }
    return { contracts: [...hot, ...random], accounts, ptrs, queries, hot: hotSpots };
  } finally {
    await bench.handle.close();
  }
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

interface RouteRun {
  name: string;
  path: string;
  /** Run only when BENCH_ROUTES names it. */
  byName?: boolean;
  request: () => { path: string; method?: 'GET' | 'POST'; body?: string };
}

export function routes(s: Subjects): RouteRun[] {
  const n = BENCH_NETWORK;
  return [
    {
      name: 'contract',
      path: `GET /v1/contract/${n}/{address}`,
      request: () => ({ path: `/v1/contract/${n}/${pick(s.contracts)}` }),
    },
    {
      name: 'opg',
      path: `GET /v1/contract/${n}/{address}/opg (contracts and implicit accounts, first page or ?last_id=)`,
      request: () => {
        const address = Math.random() < 0.7 ? pick(s.contracts) : pick(s.accounts);
        return { path: `/v1/contract/${n}/${address}/opg` };
      },
    },
    {
      name: 'storage',
      path: `GET /v1/contract/${n}/{address}/storage`,
      request: () => ({ path: `/v1/contract/${n}/${pick(s.contracts)}/storage` }),
    },
    {
      name: 'bigmap-keys',
      path: `GET /v1/bigmap/${n}/{ptr}/keys (first page, or offset ≤ 100)`,
      request: () => {
        const offset = Math.random() < 0.8 ? 0 : 10 * Math.floor(Math.random() * 10);
        return { path: `/v1/bigmap/${n}/${pick(s.ptrs)}/keys${offset ? `?offset=${offset}` : ''}` };
      },
    },
    {
      name: 'suggest',
      path: 'POST /search/v1/suggest {query} (address prefixes, addresses, names)',
      request: () => ({
        path: '/search/v1/suggest',
        method: 'POST',
        body: JSON.stringify({ query: pick(s.queries) }),
      }),
    },
    {
      name: 'search',
      path: 'POST /search/v1/search {query} (the suggest queries)',
      request: () => ({
        path: '/search/v1/search',
        method: 'POST',
        body: JSON.stringify({ query: pick(s.queries) }),
      }),
    },
    // the search route by kind of query (session 38: where its statements go), only when named in BENCH_ROUTES
    ...(
      [
        ['search-prefix', 'address prefixes', 0, 100],
        ['search-address', 'whole addresses', 100, 150],
        ['search-words', 'words', 150, s.queries.length],
      ] as const
    ).map(([name, what, from, to]) => ({
      name,
      path: `POST /search/v1/search {query} (${what} of the search queries)`,
      byName: true,
      request: () => ({
        path: '/search/v1/search',
        method: 'POST' as const,
        body: JSON.stringify({ query: pick(s.queries.slice(from, to)) }),
      }),
    })),
    ...(s.hot ? hotRoutes(s.hot) : []),
  ];
}

const randomInt = (n: number) => Math.floor(Math.random() * n);

/** The routes of the 10m data's hot spots (issue 36). */
function hotRoutes(h: NonNullable<Subjects['hot']>): RouteRun[] {
  const n = BENCH_NETWORK;
  const c = `/v1/contract/${n}/${h.contract}`;
  const keys = `/v1/bigmap/${n}/${HOT!.ptr}/keys`;
  const keyCount = Math.round(SIZES.bigMapKeys / 5);
  return [
    { name: 'hot-contract', path: `GET /v1/contract/{n}/{1M-op contract}`, request: () => ({ path: c }) },
    {
      name: 'hot-opg',
      path: `GET …/{1M-op contract}/opg (first page)`,
      request: () => ({ path: `${c}/opg` }),
    },
    {
      name: 'hot-opg-deep',
      path: `GET …/{1M-op contract}/opg?last_id= (keyset, 100,000–1,000,000 groups deep)`,
      request: () => {
        // the hot contract's groups are g = 8m + 1 (api-data.ts), with id 1 + g + ceil(g / 4)
        const g = 8 * randomInt(900_000) + 1;
        return { path: `${c}/opg?last_id=${1 + g + Math.ceil(g / 4)}` };
      },
    },
    {
      name: 'hot-storage',
      path: `GET …/{1M-op contract}/storage`,
      request: () => ({ path: `${c}/storage` }),
    },
    {
      name: 'hot-keys',
      path: `GET /v1/bigmap/{n}/{2M-key map}/keys (first page)`,
      request: () => ({ path: keys }),
    },
    {
      name: 'hot-keys-hash',
      path: `GET …/{2M-key map}/keys?search={key hash}`,
      request: () => ({ path: `${keys}?search=${pick(h.keyHashes)}` }),
    },
    {
      name: 'hot-keys-text',
      path: `GET …/{2M-key map}/keys?search={12 characters of a key's address}`,
      request: () => {
        const t = pick(h.keyTexts);
        const at = 3 + randomInt(t.length - 15);
        return { path: `${keys}?search=${t.slice(at, at + 12)}` };
      },
    },
    {
      name: 'hot-keys-offset',
      path: `GET …/{2M-key map}/keys?offset= (0–${keyCount.toLocaleString('en')}, offset paging)`,
      request: () => ({ path: `${keys}?offset=${randomInt(keyCount - 10)}` }),
    },
    {
      name: 'hot-keys-after',
      path: `GET …/{2M-key map}/keys?after={key hash} (keyset, 0–${keyCount.toLocaleString('en')} deep)`,
      request: () => ({ path: `${keys}?after=${pick(h.keyHashes)}` }),
    },
    {
      name: 'hot-keys-offset-10k',
      path: `GET …/{2M-key map}/keys?offset= (0–10,000)`,
      request: () => ({ path: `${keys}?offset=${randomInt(10_000)}` }),
    },
    {
      name: 'tokens',
      path: `GET /v1/contract/{n}/{100k-token FA2}/tokens (first page)`,
      request: () => ({ path: `/v1/contract/${n}/${h.fa2}/tokens` }),
    },
    {
      name: 'tokens-deep',
      path: `GET …/{100k-token FA2}/tokens?offset= (0–${(SIZES.fa2Tokens - 10).toLocaleString('en')})`,
      request: () => ({
        path: `/v1/contract/${n}/${h.fa2}/tokens?offset=${randomInt(SIZES.fa2Tokens - 10)}`,
      }),
    },
    {
      name: 'tokens-after',
      path: `GET …/{100k-token FA2}/tokens?after= (keyset, 0–${(SIZES.fa2Tokens - 10).toLocaleString('en')})`,
      request: () => ({
        path: `/v1/contract/${n}/${h.fa2}/tokens?after=${randomInt(SIZES.fa2Tokens - 10)}`,
      }),
    },
  ];
}

/** Responses received by every load run so far (for the CPU-per-request window). */
let completed = 0;

function load(
  port: number,
  r: RouteRun,
  seconds: number,
  connections = CONNECTIONS,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => {
              const next = r.request();
              return { ...req, method: next.method ?? 'GET', path: next.path, body: next.body };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)),
    );
    instance.on('response', () => completed++);
  });
}

interface CpuSample {
  api: number;
  backends: Record<number, number>;
}

function cpuSample(child: ChildProcess): Promise<CpuSample> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      const cpu = (m as { cpu?: CpuSample }).cpu;
      if (!cpu) return;
      child.off('message', on);
      resolve(cpu);
    };
    child.on('message', on);
    child.send('cpu');
  });
}

/** CPU ms (API process + its PostgreSQL backends, those alive at both samples) between two samples. */
function cpuBetween(a: CpuSample, b: CpuSample): { api: number; pg: number } {
  let pg = 0;
  for (const [pid, ms] of Object.entries(b.backends))
    if (a.backends[Number(pid)] !== undefined) pg += ms - a.backends[Number(pid)]!;
  return { api: b.api - a.api, pg };
}

async function main(): Promise<void> {
  if (!url) {
    console.error('DATABASE_URL=postgres://… is required (the benchmark measures PostgreSQL)');
    process.exit(2);
  }
  const seconds = Number(process.argv[2] ?? 20);
  const only = process.env.BENCH_ROUTES?.split(',');
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve'], {
    // BENCH_CPU_PROF=<folder>: a V8 CPU profile of the API process, written there when it ends
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    env: process.env,
  });
  try {
    const started = await new Promise<{ port: number; counts: Record<string, number> }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { port: number; counts: Record<string, number> }));
      child.once('exit', (code) => reject(new Error(`API process exited with ${code}`)));
    });
    log(`[bench] API on port ${started.port}, data: ${JSON.stringify(started.counts)}`);
    const s = await subjects();
    const table: string[] = [];
    for (const r of routes(s)) {
      if (only ? !only.includes(r.name) : r.byName) continue;
      await load(started.port, r, 3); // warm-up (caches, JIT, pool), not recorded
      const before = loadavg()[0]!;
      const running = load(started.port, r, seconds);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the pool's connections are all busy
      const c0 = await cpuSample(child);
      const g0 = process.cpuUsage();
      const t0 = performance.now();
      const done0 = completed;
      await new Promise((resolve) => setTimeout(resolve, (seconds - 3) * 1000));
      const c1 = await cpuSample(child);
      const g1 = process.cpuUsage(g0);
      const requests = completed - done0;
      const cpu = cpuBetween(c0, c1);
      const wall = performance.now() - t0;
      const res = await running;
      const after = loadavg()[0]!;
      // one connection: the time of a request without queueing behind the 49 others
      const one = await load(started.port, r, Math.max(3, Math.round(seconds / 4)), 1);
      const line =
        `| ${r.name}: ${r.path} | ${res.requests.average.toFixed(0)} | ${res.latency.p50} ms | ${res.latency.p99} ms | ` +
        `${res['2xx']} / ${res.non2xx + res.errors + res.timeouts} | ${one.latency.p50} ms / ${one.latency.p99} ms | ` +
        `${((cpu.api + cpu.pg) / requests).toFixed(2)} ms (${(cpu.api / requests).toFixed(2)} + ${(cpu.pg / requests).toFixed(2)}) | ` +
        `${((100 * (cpu.api + cpu.pg)) / wall).toFixed(0)} % | ${((g1.user + g1.system) / 1000 / requests).toFixed(2)} ms | ` +
        `${before.toFixed(1)}–${after.toFixed(1)} |`;
      table.push(line);
      log(`[bench] ${r.name}: ${line}`);
    }
    console.log(
      `\n${CONNECTIONS} connections, ${seconds} s per route, ${new Date().toISOString()}\n` +
        '| route | req/s | p50 | p99 | 2xx / other | 1 connection: p50 / p99 | CPU per request (API + PostgreSQL) | CPU used (of 200 %) | load generator CPU per request | load avg (1 min) |\n' +
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n' +
        table.join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
  }
}

// run as a script (also the API's child process), not when imported (bench/api-serial.ts)
const isEntry = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntry && process.argv[2] === 'serve') void serve();
else if (isEntry)
  void main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });

/** The real API (`apiPlugin` on Fastify, as apps/server mounts it) over the bench data, rate limit off. */
export async function benchApiApp(db: Db): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024, frameworkErrors });
  await app.register(apiPlugin, {
    db,
    networks: [
      {
        name: BENCH_NETWORK,
        rpcUrl: 'http://127.0.0.1:9/unreachable',
        publicRpcUrl: 'http://127.0.0.1:9/unreachable',
        statsEnabled: true,
      },
    ],
    // one client IP sends everything: the per-IP limit (600/min by default) would answer 429
    rateLimit: false,
  });
  return app;
}
