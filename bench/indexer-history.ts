/**
 * History backfill write benchmark (issue 32): the Backfiller's own writes, i.e. the blocks below a network's
 * forward floor stored through `writeBackfillBlock`, which since 9fd5702 keep before-images (undo_log) as a
 * forward block does. A fake node (`servePrepared` of bench/dense-chain.ts, a worker thread, no latency)
 * serves N blocks built from the real mainnet Seoul (11610082) and Tallinn (11680082) fixture blocks, as
 * bench/indexer-blocks.ts and bench/indexer-backfill.ts do. Each run indexes a network of its own: the real
 * indexer (startIndexer) starts at the node's head (level N: the forward floor), then a Backfiller with no
 * history source stores levels N−1 down to 1 (`storeLevels`, `BENCH_CONCURRENCY` blocks fetched at once,
 * written one by one, newest first as a scan walks). The head does not move, so every backfilled block keeps
 * its images (db/write undo.ts pruneBackfilled drops them only when a forward block is written).
 *
 * Per run: blocks/s, the indexer process's CPU per block (its threads: the fake node's worker, and PGlite's
 * work on PGlite), on PostgreSQL also the CPU of the server's backends this process used (/proc, when the
 * server runs on this machine), and the before-images the backfilled blocks hold (undo_log rows and bytes).
 * Then the median of the runs. There is no switch for the images: to compare with a backfill that takes none,
 * run this file in a copy of the tree before 9fd5702 (bench/RESULTS.md says how it was done).
 *
 *   npx tsx bench/indexer-history.ts [blocks=200] [runs=3]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/indexer-history.ts 200 3
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { startIndexer } from '../packages/indexer/src/index';
import { ProtocolRegistry } from '../packages/indexer/src/protocols/registry';
import { NodeRpc } from '../packages/indexer/src/rpc/client';
import { Backfiller } from '../packages/indexer/src/sync/backfill';
import { ContractCache } from '../packages/indexer/src/sync/block-data';
import { FakeNode, hasFixtures, SEOUL, TALLINN, waitFor } from '../packages/indexer/test/fake-node';
import { servePrepared } from './dense-chain';

const blocks = Number(process.argv[2] ?? 200);
const runs = Number(process.argv[3] ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
if (!hasFixtures) {
  console.error('bench: ../shared/fixtures is absent; nothing to index');
  process.exit(1);
}
const url = process.env.DATABASE_URL;
const app = `bench_history_${process.pid}`;
const schema = `bench_${Date.now()}`;
const sep = url?.includes('?') ? '&' : '?';
const handle = url
  ? await openDatabase({ databaseUrl: `${url}${sep}application_name=${app}`, schema })
  : await openDatabase();
const db = handle.db;
await migrateToLatest(db);
const node = new FakeNode().build({
  branch: 'history',
  from: 1,
  to: blocks,
  protocols: [
    { hash: SEOUL, from: 1 },
    { hash: TALLINN, from: Math.floor(blocks / 2) },
  ],
});
const served = await servePrepared(node, { latencyMs: 0 });

/** CPU (ms) of the PostgreSQL backends this process has open (null: not readable here, or PGlite). */
const serverCpuMs = async (): Promise<Map<number, number> | null> => {
  if (!url) return null;
  const r = await sql<{
    pid: number;
  }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${app}`.execute(db);
  const out = new Map<number, number>();
  for (const { pid } of r.rows) {
    try {
      // utime and stime, in clock ticks (100 a second), after the command's closing parenthesis
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {
      return null;
    }
  }
  return out;
};
const diffCpu = (a: Map<number, number> | null, b: Map<number, number> | null) =>
  a && b ? [...b].reduce((s, [pid, ms]) => s + ms - (a.get(pid) ?? 0), 0) : null;
const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows[0]!;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const backend = url ? 'postgresql' : 'pglite (memory)';
console.log(
  `${backend}: ${blocks} blocks (the head stored forward, ${blocks - 1} backfilled), ${runs} runs, ` +
    `${concurrency} blocks fetched at once`,
);
const rates: number[] = [];
const cpus: number[] = [];
const serverCpus: number[] = [];
for (let run = 1; run <= runs; run++) {
  const network = `hist_${run}`;
  const indexer = startIndexer({
    db,
    network,
    rpcUrl: served.url,
    startLevel: 'head',
    historySource: false,
    pollIntervalMs: 50,
    log: () => {},
  });
  await waitFor(() => indexer.status().level === blocks, 120_000, `the head (${blocks})`);
  await indexer.stop();
  const backfiller = new Backfiller(
    {
      db,
      network,
      rpc: new NodeRpc(served.url, { timeoutMs: 30_000, signal: new AbortController().signal }),
      registry: new ProtocolRegistry(),
      line: () => {},
      cache: new ContractCache(db, network),
      costPerByte: new Map<string, number>(),
    },
    { source: null, rpcUrl: served.url, concurrency },
  );
  const levels = Array.from({ length: blocks - 1 }, (_, i) => blocks - 1 - i);
  const load0 = loadavg()[0]!;
  const server0 = await serverCpuMs();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const written = await backfiller.storeLevels(levels);
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const server = diffCpu(server0, await serverCpuMs());
  if (written !== blocks - 1) {
    console.error(`bench: ${written} blocks backfilled, not ${blocks - 1}`);
    process.exit(1);
  }
  const ops = await one(
    sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM operations WHERE network = ${network} AND level < ${blocks}`,
  );
  const undo = await one(
    sql<{ n: number; bytes: number; levels: number }>`SELECT count(*)::int AS n,
      coalesce(sum(pg_column_size(rows)), 0)::int AS bytes, count(DISTINCT level)::int AS levels
      FROM undo_log WHERE network = ${network} AND level < ${blocks}`,
  );
  const rate = (written * 1000) / ms;
  const cpuPerBlock = (cpu.user + cpu.system) / 1000 / written;
  rates.push(rate);
  cpus.push(cpuPerBlock);
  if (server !== null) serverCpus.push(server / written);
  console.log(
    `run ${run}: ${written} blocks in ${(ms / 1000).toFixed(1)} s = ${rate.toFixed(1)} blocks/s, ` +
      `${Math.round((ops.n * 1000) / ms)} operations/s (${ops.n}); process CPU ${cpuPerBlock.toFixed(1)} ms/block` +
      (server !== null ? `, PostgreSQL backends' CPU ${(server / written).toFixed(1)} ms/block` : '') +
      `; before-images held: ${undo.n} rows of ${undo.levels} levels, ${(undo.bytes / 1024).toFixed(0)} KiB ` +
      `(${(undo.bytes / written / 1024).toFixed(1)} KiB a block); load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
}
console.log(
  `median of ${runs}: ${median(rates).toFixed(1)} blocks/s, process CPU ${median(cpus).toFixed(1)} ms/block` +
    (serverCpus.length ? `, PostgreSQL backends' CPU ${median(serverCpus).toFixed(1)} ms/block` : ''),
);
await served.stop();
if (url) await sql.raw(`DROP SCHEMA "${schema}" CASCADE`).execute(db);
await handle.close();
