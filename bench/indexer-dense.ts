/**
 * Dense-chain ingest benchmark: the real indexer (startIndexer) follows a node on 127.0.0.1 serving N dense
 * Tallinn blocks of G real operation groups each (bench/dense-chain.ts), as JSON serialised before the run
 * (servePrepared). Measured end to end (HTTP, validation, parsing, the database transactions) into PGlite
 * (in memory or on disk) or PostgreSQL (DATABASE_URL); prints the CPU time of the indexer process and, on
 * PostgreSQL, of the run's server backends (by application_name, from /proc: same machine only).
 *
 *   npx tsx bench/indexer-dense.ts [blocks=200] [groupsPerBlock=200]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/indexer-dense.ts 330 250
 *   BENCH_PGLITE_DIR=/tmp/pglite-bench npx tsx bench/indexer-dense.ts 330 250   (PGlite on disk)
 *   BENCH_SQL=1 …   (also prints wall and backend CPU time per SQL statement; one connection) */
import { sql } from 'kysely';
import { openDatabase, migrateToLatest } from '@michelscope/db';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { hasFixtures, waitFor } from '../packages/indexer/test/fake-node';
import { denseNode, servePrepared } from './dense-chain';

const blocks = Number(process.argv[2] ?? 200);
const perBlock = Number(process.argv[3] ?? 200);
if (!hasFixtures) {
  console.error('bench: ../shared/fixtures is absent; nothing to index');
  process.exit(1);
}
const url = process.env.DATABASE_URL;
const schema = `bench_${Date.now()}`;
// PGlite: in memory, or on disk like production (${DATA_DIR}/pglite) with BENCH_PGLITE_DIR=<folder>.
const pgliteDir = process.env.BENCH_PGLITE_DIR;
// PostgreSQL: the server backends of this run are found by application name, for their CPU time.
if (url) process.env.PGAPPNAME = schema;
const handle = url
  ? // BENCH_SQL: one connection, so that the CPU time of its backend can be charged to each statement.
    await openDatabase({ databaseUrl: url, schema, ...(process.env.BENCH_SQL ? { maxConnections: 1 } : {}) })
  : await openDatabase(pgliteDir ? { dataDir: pgliteDir } : {});
await migrateToLatest(handle.db);
const { node, distinctGroups } = denseNode(blocks, perBlock);
// BENCH_SQL=1: total time per SQL statement (first 90 characters), printed at the end; on PostgreSQL also
// the CPU time of the (single) backend, read from /proc around each statement (10 ms ticks: a sampled sum).
const sqlTimes = new Map<string, { n: number; ms: number; cpu: number }>();
const starts = new Map<unknown, { t: number; cpu: number; text: string }>();
let sqlPid = 0;
const pidCpu = () => {
  if (!sqlPid) return 0;
  const f = readFileSync(`/proc/${sqlPid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
if (url && process.env.BENCH_SQL)
  sqlPid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(handle.db)).rows[0]!.pid;
const db = process.env.BENCH_SQL
  ? handle.db.withPlugin({
      transformQuery(args) {
        const n = args.node as {
          kind: string;
          sqlFragments?: readonly string[];
          parameters?: readonly unknown[];
        };
        const first = JSON.stringify(n.parameters?.[0] ?? '').match(/"name":"(\w+)"/)?.[1] ?? '';
        const text = `${(n.sqlFragments ? n.sqlFragments.join('?') : n.kind).replace(/\s+/g, ' ').trim().slice(0, 90)} [${first}]`;
        starts.set(args.queryId, { t: performance.now(), cpu: pidCpu(), text });
        return args.node;
      },
      async transformResult(args) {
        const s = starts.get(args.queryId);
        if (s) {
          starts.delete(args.queryId);
          const key = s.text;
          const e = sqlTimes.get(key) ?? { n: 0, ms: 0, cpu: 0 };
          e.n++;
          e.ms += performance.now() - s.t;
          e.cpu += pidCpu() - s.cpu;
          sqlTimes.set(key, e);
        }
        return Promise.resolve(args.result);
      },
    })
  : handle.db;
const served = await servePrepared(node);
const rpcUrl = served.url;
/** CPU seconds (user + system) of this run's PostgreSQL backends, by pid (same machine: /proc). */
async function backendCpu(): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!url) return out;
  const r = await sql<{
    pid: number;
  }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${schema}`.execute(handle.db);
  for (const { pid } of r.rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // not on this machine
    }
  }
  return out;
}
const pg0 = await backendCpu();
// BENCH_INDEXER_SRC=<dir>: another copy of packages/indexer/src (e.g. an older commit's) for before/after.
const indexerSrc = path.resolve(process.env.BENCH_INDEXER_SRC ?? 'packages/indexer/src');
const { startIndexer } = (await import(
  pathToFileURL(path.join(indexerSrc, 'index.ts')).href
)) as typeof import('../packages/indexer/src/index');
const load0 = loadavg()[0]!;
const cpu0 = process.cpuUsage();
const started = performance.now();
const elu0 = performance.eventLoopUtilization();
// garbage collection on the indexer's thread (pauses of the main thread, from perf_hooks)
let gcMs = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
});
gcObserver.observe({ entryTypes: ['gc'] });
const indexer = startIndexer({
  db,
  network: 'bench',
  rpcUrl,
  startLevel: 1,
  log: () => {},
  pollIntervalMs: 50,
});
await waitFor(
  () => indexer.status().level === blocks || indexer.status().state === 'unreachable',
  3_600_000,
  `level ${blocks}`,
);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpu0);
const elu = performance.eventLoopUtilization(elu0).utilization;
gcObserver.disconnect();
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const status = indexer.status();
await indexer.stop();
const pg1 = await backendCpu();
const pgCpu = [...pg1].reduce((n, [pid, t]) => n + t - (pg0.get(pid) ?? 0), 0);
await served.stop();
if (status.level !== blocks) {
  console.error(`bench: indexing stopped at level ${status.level}: ${status.lastError}`);
  process.exit(1);
}
const count = async (t: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.table(t)} WHERE network = 'bench'`.execute(handle.db)
    ).rows[0]!.n,
  );
const ops = await count('operations');
const diffs = await count('big_map_diffs');
console.log(
  `${url ? 'postgresql' : pgliteDir ? 'pglite (disk)' : 'pglite (memory)'}: ${blocks} blocks × ${perBlock} groups (${distinctGroups} distinct real groups): ${ops} operations, ` +
    `${diffs} big-map diffs in ${seconds.toFixed(1)} s = ${(blocks / seconds).toFixed(2)} blocks/s, ${Math.round(ops / seconds)} operations/s; ` +
    `indexer process CPU ${cpuSeconds.toFixed(1)} s = ${((cpuSeconds * 1000) / blocks).toFixed(1)} ms/block (event loop busy ${Math.round(elu * 100)} %, GC ${(gcMs / blocks).toFixed(1)} ms/block); ` +
    (url
      ? `PostgreSQL backends CPU ${pgCpu.toFixed(1)} s = ${((pgCpu * 1000) / blocks).toFixed(1)} ms/block; `
      : '') +
    `load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)} (${path.relative(process.cwd(), indexerSrc)})`,
);
if (process.env.BENCH_SQL) {
  const top = [...sqlTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 60);
  for (const [text, e] of top)
    console.log(
      `${e.ms.toFixed(0).padStart(7)} ms ${e.cpu.toFixed(0).padStart(7)} ms CPU ${String(e.n).padStart(6)}× ${text}`,
    );
}
if (url && !process.env.BENCH_KEEP) await sql.raw(`DROP SCHEMA "${schema}" CASCADE`).execute(handle.db);
else if (url) console.log(`kept schema ${schema}`);
await handle.close();
