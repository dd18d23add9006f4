/**
 * Backfill (catch-up) benchmark: the real indexer (startIndexer) indexes N blocks built from the real
 * mainnet Seoul/Tallinn fixture blocks (as bench/indexer-blocks.ts) from a node that answers every request
 * after a fixed latency, like a remote public or archive node (`servePrepared` of bench/dense-chain.ts: a
 * worker thread, JSON serialised before the run). For each latency and each fetch-ahead (1 = one block at a
 * time) it prints blocks/s, operations/s, the requests the node had in flight (mean and most), the
 * process CPU per block (and its share of the wall time: well below the event loop's busy share, the
 * process was waiting for a core), how busy the event loop was and GC per block.
 * PGlite (in memory) or PostgreSQL (DATABASE_URL); each run indexes a network of its own from level 1.
 *
 *   npx tsx bench/indexer-backfill.ts [blocks=200]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/indexer-backfill.ts 200
 *   BENCH_LATENCIES=50,150 BENCH_AHEAD=1,4,8,16 BENCH_JITTER=0.5 …   (jitter: ± that share of the latency)
 *   BENCH_INDEXER_SRC=<dir>,<dir> …   (copies of packages/indexer/src, e.g. an older commit's, run in turn)
 */
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { FakeNode, hasFixtures, SEOUL, TALLINN, waitFor } from '../packages/indexer/test/fake-node';
import { servePrepared } from './dense-chain';

const blocks = Number(process.argv[2] ?? 200);
const list = (v: string | undefined, d: number[]) => (v ? v.split(',').map(Number) : d);
const latencies = list(process.env.BENCH_LATENCIES, [50, 150]);
const aheads = list(process.env.BENCH_AHEAD, [1, 4, 8, 16]);
const jitter = Number(process.env.BENCH_JITTER ?? 0);
if (!hasFixtures) {
  console.error('bench: ../shared/fixtures is absent; nothing to index');
  process.exit(1);
}
const url = process.env.DATABASE_URL;
const schema = `bench_${Date.now()}`;
const handle = url ? await openDatabase({ databaseUrl: url, schema }) : await openDatabase();
await migrateToLatest(handle.db);
const node = new FakeNode().build({
  branch: 'backfill',
  from: 1,
  to: blocks,
  protocols: [
    { hash: SEOUL, from: 1 },
    { hash: TALLINN, from: Math.floor(blocks / 2) },
  ],
});
// BENCH_INDEXER_SRC=<dir>[,<dir>…]: copies of packages/indexer/src to compare, run in turn for each setting
const sources = await Promise.all(
  (process.env.BENCH_INDEXER_SRC ?? 'packages/indexer/src').split(',').map(async (dir) => {
    const src = path.resolve(dir);
    const mod = (await import(
      pathToFileURL(path.join(src, 'index.ts')).href
    )) as typeof import('../packages/indexer/src/index');
    return { name: path.relative(process.cwd(), src), startIndexer: mod.startIndexer };
  }),
);
const count = async (t: string, network: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.table(t)} WHERE network = ${network}`.execute(handle.db)
    ).rows[0]!.n,
  );

const backend = url ? 'postgresql' : 'pglite (memory)';
console.log(
  `${backend}: ${blocks} blocks, latencies ${latencies.join('/')} ms${jitter ? ` ± ${jitter * 100} %` : ''}, ` +
    `fetch-ahead ${aheads.join('/')} (${sources.map((x) => x.name).join(' against ')})`,
);
for (const latencyMs of latencies) {
  const served = await servePrepared(node, { latencyMs, jitterMs: latencyMs * jitter });
  const base = new Map<string, number>();
  for (const fetchAhead of aheads)
    for (const [i, { name, startIndexer }] of sources.entries()) {
      const network = `bf_${latencyMs}_${fetchAhead}_${i}`;
      const load0 = loadavg()[0]!;
      const cpu0 = process.cpuUsage();
      await served.stats();
      const started = performance.now();
      const elu0 = performance.eventLoopUtilization();
      // garbage collection on the indexer's thread (pauses of the main thread, from perf_hooks)
      let gcMs = 0;
      const gcObserver = new PerformanceObserver((entries) => {
        for (const e of entries.getEntries()) gcMs += e.duration;
      });
      gcObserver.observe({ entryTypes: ['gc'] });
      const indexer = startIndexer({
        db: handle.db,
        network,
        rpcUrl: served.url,
        startLevel: 1,
        log: () => {},
        pollIntervalMs: 50,
        fetchAhead,
      });
      await waitFor(
        () => indexer.status().level === blocks || indexer.status().state === 'unreachable',
        3_600_000,
        `level ${blocks}`,
      );
      const ms = performance.now() - started;
      const cpu = process.cpuUsage(cpu0);
      const elu = performance.eventLoopUtilization(elu0).utilization;
      gcObserver.disconnect();
      const stats = await served.stats();
      const status = indexer.status();
      await indexer.stop();
      if (status.level !== blocks) {
        console.error(`bench: indexing stopped at level ${status.level}: ${status.lastError}`);
        process.exit(1);
      }
      const ops = await count('operations', network);
      const rate = (blocks * 1000) / ms;
      if (fetchAhead === 1) base.set(name, rate);
      const one = base.get(name);
      console.log(
        `${sources.length > 1 ? `${name}: ` : ''}latency ${latencyMs} ms, fetch-ahead ${String(fetchAhead).padStart(2)}: ${(ms / 1000).toFixed(1)} s = ` +
          `${rate.toFixed(1)} blocks/s, ${Math.round((ops * 1000) / ms)} operations/s (${ops} operations)` +
          (one ? `, ×${(rate / one).toFixed(2)} of fetch-ahead 1` : '') +
          (i > 0 && base.get(sources[0]!.name)
            ? ` (×${(rate / base.get(sources[0]!.name)!).toFixed(2)} of ${sources[0]!.name}'s)`
            : '') +
          `; node: ${stats.requests} requests, ${(stats.area / ms).toFixed(1)} in flight on average, ${stats.maxInFlight} at most; ` +
          `indexer process CPU ${((cpu.user + cpu.system) / 1000 / blocks).toFixed(1)} ms/block (${Math.round((cpu.user + cpu.system) / 10 / ms)} % of the wall time), event loop busy ${Math.round(elu * 100)} %, GC ${(gcMs / blocks).toFixed(1)} ms/block; ` +
          `load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  await served.stop();
}
if (url) await sql.raw(`DROP SCHEMA "${schema}" CASCADE`).execute(handle.db);
await handle.close();
