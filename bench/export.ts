/**
 * Streamed export (issue 21 part 3): `GET /v1/contract/{network}/{address}/operations/export` of an account
 * with 1,000,000 operations, through the real API listening on a local port, read by `fetch` as a stream.
 * Prints the rows, bytes, time and the API process's heap and RSS before and at their peak during the
 * export, and (with --expose-gc) the heap after a forced collection every 100,000 rows: what the process
 * retains, which is flat when memory is constant (the peak also counts garbage not yet collected).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_export node --expose-gc --import tsx bench/export.ts [rows]
 *   FORMATS=csv … (one format); without DATABASE_URL: PGlite in memory
 *
 * Data (schema `bench_export`, generated once): one contract and `rows` applied calls to it (default
 * 1,000,000), one per level.
 */
import Fastify from 'fastify';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { apiPlugin } from '@michelscope/api';

const url = process.env.DATABASE_URL;
const NET = 'mainnet';
const ACCOUNT = 'KT1BenchExportxxxxxxxxxxxxxxxxxxxxxx';
const SAMPLE = 100_000;

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1_000_000);
  // without DATABASE_URL: PGlite in memory (its WASM memory is an ArrayBuffer: RSS, not the JS heap)
  const handle = url
    ? await openDatabase({ databaseUrl: url, schema: `bench_export_${n}`, maxConnections: 4 })
    : await openDatabase();
  console.log(`[bench] ${handle.kind}, ${n} rows`);
  const db = handle.db;
  await migrateToLatest(db);
  const have = await sql<{ c: string }>`SELECT count(*) AS c FROM operations`.execute(db);
  if (Number(have.rows[0]!.c) !== n) {
    const t0 = performance.now();
    await sql
      .raw(
        `INSERT INTO protocols (network, hash, start_level, chain_id, cost_per_byte,
        hard_gas_limit_per_operation, hard_storage_limit_per_operation, time_between_blocks, constants)
      VALUES ('${NET}', 'PtBench', 0, 'NetXbench', 250, 1040000, 60000, 8, '{}') ON CONFLICT DO NOTHING`,
      )
      .execute(db);
    await sql
      .raw(
        `INSERT INTO accounts (network, address, type, level, last_action)
      VALUES ('${NET}', '${ACCOUNT}', 'contract', 1, now()) ON CONFLICT DO NOTHING`,
      )
      .execute(db);
    await sql
      .raw(
        `INSERT INTO operations (network, level, timestamp, protocol_id, hash, counter, content_index, kind,
        status, source, destination, entrypoint, amount, fee, burned, consumed_gas)
      SELECT '${NET}', l, timestamp '2026-01-01' + l * interval '8 seconds', p.id, 'oBench' || l, l, 0, 'transaction',
        'applied', 'tz1bench' || (l % 1000), '${ACCOUNT}', 'transfer', l % 5000000, 1000 + l % 700, 0, 1000000 + l
      FROM generate_series(1, ${n}) l, protocols p ORDER BY l`,
      )
      .execute(db);
    await sql.raw('VACUUM ANALYZE operations').execute(db);
    console.log(`[bench] ${n} operations generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const app = Fastify({ logger: false });
  await app.register(apiPlugin, {
    db,
    networks: [
      {
        name: NET,
        rpcUrl: 'http://127.0.0.1:9/x',
        publicRpcUrl: 'http://127.0.0.1:9/x',
        statsEnabled: false,
      },
    ],
    rateLimit: false,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const formats = (process.env.FORMATS ?? 'csv,json').split(',') as Array<'csv' | 'json'>;
  for (const format of formats) {
    global.gc?.();
    const before = process.memoryUsage();
    let peakHeap = before.heapUsed;
    let peakRss = before.rss;
    const t0 = performance.now();
    const res = await fetch(`${address}/v1/contract/${NET}/${ACCOUNT}/operations/export?format=${format}`);
    const reader = res.body!.getReader();
    let bytes = 0;
    let newlines = 0;
    let nextSample = SAMPLE;
    /** Heap after a forced collection every SAMPLE rows: what the process retains, not its garbage. */
    const retained: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
      if (global.gc && newlines >= nextSample) {
        global.gc();
        const g = process.memoryUsage();
        retained.push(`${Math.round(newlines / 1000)}k:${(g.heapUsed / 1048576).toFixed(1)}`);
        nextSample += SAMPLE;
      }
    }
    const s = (performance.now() - t0) / 1000;
    const mb = (x: number) => (x / 1048576).toFixed(0);
    console.log(
      `${format}: ${newlines - (format === 'csv' ? 1 : 2)} rows, ${mb(bytes)} MB in ${s.toFixed(1)} s ` +
        `(${Math.round(n / s)} rows/s); heap ${mb(before.heapUsed)} → peak ${mb(peakHeap)} MB, ` +
        `RSS ${mb(before.rss)} → peak ${mb(peakRss)} MB`,
    );
    if (retained.length) console.log(`  heap after gc (rows:MB): ${retained.join(' ')}`);
  }
  await app.close();
  await handle.close();
}

await main();
