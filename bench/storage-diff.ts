/**
 * Storage diff between two levels (issue 21): the answer time of
 * `GET /v1/contract/{network}/{address}/storage/diff?from=&to=` and of its big-map key pages
 * (`…/storage/diff/big_map/{ptr}`) for a contract whose ledger big map has 100,000 keys and 10,000 key
 * changes between the two levels, on PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/storage-diff.ts [rounds]
 *
 * Data (schema `bench_storage_diff`, generated once with set-based SQL, kept between runs): the contract is
 * originated at level 1 with 100,000 ledger keys; levels 2–1,001 write 100 keys each (100,000 diffs of history
 * before `from` = 1,001); levels 1,002–1,101 write 10,000 diffs (9,000 keys changed to a new value, 500
 * removed, 500 new keys) — the diff to measure, with `to` = 1,101; levels 1,102–2,101 write 100,000 more
 * diffs (history after `to`). Another contract's big map gets 500 diffs in every level (1,000,000 diffs), so
 * that a read by level alone would pay for every contract's diffs. The real API (Fastify `inject`, one
 * PostgreSQL connection pool) answers; each request runs `rounds` times after one warm-up, median and max
 * are printed.
 */
import Fastify from 'fastify';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '@michelscope/db';
import { apiPlugin } from '@michelscope/api';

const url = process.env.DATABASE_URL;
const SCHEMA = process.env.BENCH_SCHEMA ?? 'bench_storage_diff';
const NET = 'mainnet';
const VERSION = 'storage-diff-1';
const CONTRACT = 'KT1BenchLedgerxxxxxxxxxxxxxxxxxxxxxx';
const OTHER = 'KT1BenchTwoxxxxxxxxxxxxxxxxxxxxxxxxx';
const KEYS = 100_000;
const FROM = 1001;
const TO = 1101;

const key = (i: string) => `jsonb_build_object('string', 'tz1' || substr(md5('k' || ${i}), 1, 33))`;
const keyHash = (i: string) => `'expr' || md5('h' || ${i}) || substr(md5('x' || ${i}), 1, 18)`;
const int = (v: string) => `jsonb_build_object('int', (${v})::text)`;

async function generate(db: Parameters<typeof migrateToLatest>[0]): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const t0 = performance.now();
  await run(`INSERT INTO protocols (network, hash, start_level, chain_id, cost_per_byte,
      hard_gas_limit_per_operation, hard_storage_limit_per_operation, time_between_blocks, constants)
    VALUES ('${NET}', 'PtBench', 0, 'NetXbench', 250, 1040000, 60000, 8, '{}')`);
  const storageType = `'{"prim":"pair","args":[{"prim":"big_map","args":[{"prim":"address"},{"prim":"nat"}],"annots":["%ledger"]},{"prim":"nat","annots":["%total"]}]}'::jsonb`;
  await run(`INSERT INTO scripts (network, hash, level, code, parameter, storage)
    VALUES ('${NET}', 'benchscript', 1, '[]', '{"prim":"unit"}', ${storageType})`);
  await run(`INSERT INTO contracts (network, address, level, timestamp, script_id, script_hash)
    SELECT '${NET}', a, 1, now(), id, hash FROM scripts, unnest(ARRAY['${CONTRACT}', '${OTHER}']) a`);
  await run(`INSERT INTO big_maps (network, ptr, contract, key_type, value_type, level, timestamp, name)
    VALUES ('${NET}', 1, '${CONTRACT}', '{"prim":"address"}', '{"prim":"nat"}', 1, now(), 'ledger'),
           ('${NET}', 2, '${OTHER}', '{"prim":"address"}', '{"prim":"nat"}', 1, now(), 'ledger')`);
  // one applied call of the contract per level (its storage: the ledger pointer and a total)
  await run(`INSERT INTO operations (network, level, timestamp, protocol_id, hash, counter, content_index, kind,
      status, source, destination, storage)
    SELECT '${NET}', l, now(), p.id, 'oBench' || l, l, 0, 'transaction', 'applied', 'tz1bench', '${CONTRACT}',
      jsonb_build_object('prim', 'Pair', 'args', jsonb_build_array(jsonb_build_object('int', '1'), ${int('l')}))
    FROM generate_series(1, 2101) l, protocols p ORDER BY l`);
  // diffs in level order (ids grow with the level, as the indexer writes them); the other contract's 500 per level
  const diffs = (
    where: string,
  ) => `INSERT INTO big_map_diffs (network, operation_id, level, timestamp, protocol_id,
      ptr, contract, key, key_hash, value)
    SELECT '${NET}', 0, level, now(), 1, ptr, contract, key, key_hash, value FROM (${where}) d
    ORDER BY level, ptr, k`;
  const mine = (levels: string, perLevel: number, k: string, value: string) =>
    `SELECT l AS level, 1 AS ptr, '${CONTRACT}' AS contract, ${key(k)} AS key, ${keyHash(k)} AS key_hash,
       ${value} AS value, j AS k
     FROM generate_series(${levels}) l, generate_series(0, ${perLevel - 1}) j`;
  await run(
    diffs(`SELECT 1 AS level, 1 AS ptr, '${CONTRACT}' AS contract, ${key('i')} AS key, ${keyHash('i')} AS key_hash,
      ${int('i % 1000')} AS value, i AS k FROM generate_series(0, ${KEYS - 1}) i`),
  );
  const hist = `((l * 100 + j) * 7919) % ${KEYS}`;
  await run(diffs(mine('2, 1001', 100, hist, int('l'))));
  // the measured range: per level 90 changed, 5 removed, 5 new keys (distinct over the range)
  const inRange = `((l - 1002) * 100 + j)`;
  await run(
    diffs(
      mine(
        '1002, 1101',
        100,
        `CASE WHEN j < 95 THEN (${inRange} * 7) % ${KEYS} ELSE ${KEYS} + ${inRange} END`,
        `CASE WHEN j >= 90 AND j < 95 THEN NULL ELSE ${int('100000 + l')} END`,
      ),
    ),
  );
  await run(diffs(mine('1102, 2101', 100, hist, int('l'))));
  await run(
    diffs(`SELECT l AS level, 2 AS ptr, '${OTHER}' AS contract, ${key('j')} AS key, ${keyHash('j')} AS key_hash,
      ${int('l')} AS value, j AS k FROM generate_series(1, 2000) l, generate_series(0, 499) j`),
  );
  await run('VACUUM ANALYZE big_map_diffs, operations, big_maps, contracts, scripts');
  console.log(`[bench] data generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function main(): Promise<void> {
  if (!url) {
    console.error('DATABASE_URL=postgres://… is required');
    process.exit(2);
  }
  const rounds = Number(process.argv[2] ?? 20);
  const handle = await openDatabase({ databaseUrl: url, schema: SCHEMA, maxConnections: 4 });
  const db = handle.db;
  await migrateToLatest(db);
  await sql`CREATE TABLE IF NOT EXISTS bench_meta (version text PRIMARY KEY)`.execute(db);
  const have = await sql<{ version: string }>`SELECT version FROM bench_meta`.execute(db);
  if (!have.rows.some((r) => r.version === VERSION)) {
    await generate(db);
    await sql`INSERT INTO bench_meta (version) VALUES (${VERSION})`.execute(db);
  }
  const counts = await sql<{ diffs: string; keys: string }>`
    SELECT count(*) AS diffs, (SELECT count(DISTINCT key_hash) FROM big_map_diffs WHERE ptr = 1) AS keys
    FROM big_map_diffs`.execute(db);
  console.log(
    `[bench] big_map_diffs: ${counts.rows[0]!.diffs} rows; ledger keys ever written: ${counts.rows[0]!.keys}`,
  );

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
  await app.ready();
  const base = `/v1/contract/${NET}/${CONTRACT}/storage/diff`;
  const requests = [
    { name: 'storage/diff (fields + counts)', path: `${base}?from=${FROM}&to=${TO}` },
    { name: 'big_map keys, first page (20)', path: `${base}/big_map/1?from=${FROM}&to=${TO}` },
    {
      name: 'big_map keys, page at offset 9,000 (100)',
      path: `${base}/big_map/1?from=${FROM}&to=${TO}&size=100&offset=9000`,
    },
    { name: 'big_map keys, removed only', path: `${base}/big_map/1?from=${FROM}&to=${TO}&change=removed` },
  ];
  for (const r of requests) {
    const times: number[] = [];
    let body = '';
    for (let i = 0; i <= rounds; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url: r.path });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${r.path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (i > 0) times.push(ms);
      body = res.body;
    }
    times.sort((a, b) => a - b);
    const parsed = JSON.parse(body) as { counts?: unknown; big_maps?: Array<{ counts: unknown }> };
    console.log(
      `${r.name}: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; ` +
        `counts ${JSON.stringify(parsed.counts ?? parsed.big_maps?.[0]?.counts)}`,
    );
  }
  await app.close();
  await handle.close();
}

await main();
