/**
 * A generated explorer database for the API load benchmark (`bench/api-load.ts`): the real schema (all
 * migrations) in a PostgreSQL schema of its own, filled with set-based SQL (INSERT … SELECT FROM
 * generate_series) with rows shaped like the indexer's: 20,000 contracts over 40 scripts, 100,000 implicit
 * accounts, 1,000,000 operations (800,000 transaction groups, a quarter with an internal call, parameters and
 * result storage), 20,000 big maps with 1,000,000 keys and 1,000,000 key updates, and search documents for the
 * contracts, 50,000 tokens and 5,000 contract names. Contract activity and big-map sizes are skewed (the
 * first contracts are hot, like real chains). The data is kept between runs (`bench_meta` holds the version).
 */
import { sql } from 'kysely';
import { loadMigrations, migrateToLatest, openDatabase, type Db, type DbHandle } from '@michelscope/db';

export const BENCH_NETWORK = 'mainnet';
/** BENCH_SCALE (default 1) shrinks the data for a quick check of the generator. */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const scaled = (n: number) => Math.max(16, Math.round(n * SCALE));
export const SIZES = {
  contracts: 20_000,
  scripts: 40,
  accounts: 100_000,
  groups: scaled(800_000),
  levels: scaled(50_000),
  bigMapKeys: scaled(1_000_000),
  tokens: 50_000,
  names: 5_000,
};
/** Bump when the generated data changes shape. */
const VERSION = 'api-bench-1';
/** Tables filled in bulk: their secondary indexes are dropped before the inserts and rebuilt after. */
const BULK_TABLES = ['operations', 'big_map_states', 'big_map_diffs', 'search_documents', 'accounts'];

/** Base58-alphabet text of `n` characters derived from `seed` (SQL), for addresses and hashes. */
const b58 = (seed: string, n: number) =>
  `substr(translate(md5(${seed}) || md5(${seed} || 'x') || md5(${seed} || 'y') || md5(${seed} || 'z'), '0', 'z'), 1, ${n})`;
export const contractSql = (j: string) => `'KT1' || ${b58(`'c' || ${j}`, 33)}`;
export const accountSql = (i: string) => `'tz1' || ${b58(`'a' || ${i}`, 33)}`;
/** Skewed index in [0, n): low indexes are hot (r³ of a pseudo-random r in [0, 1)). */
const skewed = (x: string, n: number) =>
  `floor(${n} * power(((${x})::bigint * 2654435761 % 1000003) / 1000003.0, 3))::int`;

const STEPS: Array<[string, string]> = [
  [
    'protocols, blocks, head',
    `INSERT INTO protocols (network, hash, start_level, chain_id, cost_per_byte, hard_gas_limit_per_operation,
       hard_storage_limit_per_operation, time_between_blocks)
     VALUES ('${BENCH_NETWORK}', 'PtTALLiNtPec7mE7yY4m3k26J8Qukef3E3ehzhfXgFZKGtDdAXu', 1, 'NetXdQprcVkpaWU', 250, 1040000, 60000, 8);
     INSERT INTO blocks (network, level, hash, predecessor, timestamp, protocol_id, chain_id)
       SELECT '${BENCH_NETWORK}', l, 'B' || ${b58(`'b' || l`, 50)}, 'B' || ${b58(`'b' || (l - 1)`, 50)},
         timestamp '2025-01-01' + l * interval '8 seconds', (SELECT id FROM protocols LIMIT 1), 'NetXdQprcVkpaWU'
       FROM generate_series(1, ${SIZES.levels}) l;
     INSERT INTO indexer_state (network, level, hash, timestamp)
       SELECT network, level, hash, timestamp FROM blocks ORDER BY level DESC LIMIT 1;`,
  ],
  [
    'scripts, contracts, big maps',
    `INSERT INTO scripts (network, hash, level, code, parameter, storage, entrypoints, annotations, tags)
       SELECT '${BENCH_NETWORK}', md5('script' || s) || md5('script2' || s), 1,
         '[{"prim":"UNPAIR"},{"prim":"IF_LEFT","args":[[{"prim":"DROP"}],[{"prim":"DROP"}]]},{"prim":"NIL","args":[{"prim":"operation"}]},{"prim":"PAIR"}]',
         '{"prim":"or","args":[{"prim":"pair","args":[{"prim":"address","annots":["%to"]},{"prim":"nat","annots":["%value"]}],"annots":["%transfer"]},{"prim":"nat","annots":["%mint"]}]}',
         '{"prim":"pair","args":[{"prim":"big_map","args":[{"prim":"address"},{"prim":"nat"}],"annots":["%ledger"]},{"prim":"pair","args":[{"prim":"address","annots":["%admin"]},{"prim":"nat","annots":["%total_supply"]}]}]}',
         '{transfer,mint}', '{%transfer,%to,%value,%mint,%ledger,%admin,%total_supply}', s % 4
       FROM generate_series(0, ${SIZES.scripts - 1}) s;
     INSERT INTO contracts (network, address, level, timestamp, manager, script_id, script_hash, tags)
       SELECT '${BENCH_NETWORK}', ${contractSql('j')}, 1 + j * 2, timestamp '2025-01-01' + (1 + j * 2) * interval '8 seconds',
         ${accountSql('j')}, s.id, s.hash, s.tags
       FROM generate_series(0, ${SIZES.contracts - 1}) j
       JOIN scripts s ON s.hash = md5('script' || (j % ${SIZES.scripts})) || md5('script2' || (j % ${SIZES.scripts}));
     INSERT INTO big_maps (network, ptr, contract, key_type, value_type, level, timestamp, name)
       SELECT '${BENCH_NETWORK}', j, ${contractSql('j')}, '{"prim":"address"}', '{"prim":"nat"}', 1 + j * 2,
         timestamp '2025-01-01' + (1 + j * 2) * interval '8 seconds', 'ledger'
       FROM generate_series(0, ${SIZES.contracts - 1}) j;
     INSERT INTO big_map_actions (network, operation_id, level, timestamp, action, source_ptr, address)
       SELECT '${BENCH_NETWORK}', j + 1, 1 + j * 2, timestamp '2025-01-01' + (1 + j * 2) * interval '8 seconds', 'alloc', j,
         ${contractSql('j')}
       FROM generate_series(0, ${SIZES.contracts - 1}) j;`,
  ],
  [
    'accounts',
    `INSERT INTO accounts (network, address, type, level, last_action, operations_count)
       SELECT '${BENCH_NETWORK}', ${accountSql('i')}, 'account', 1 + i % ${SIZES.levels},
         timestamp '2025-01-01' + (${SIZES.levels} - i % 1000) * interval '8 seconds', 8
       FROM generate_series(0, ${SIZES.accounts - 1}) i;
     INSERT INTO accounts (network, address, type, level, last_action, operations_count)
       SELECT '${BENCH_NETWORK}', ${contractSql('j')}, 'contract', 1 + j * 2,
         timestamp '2025-01-01' + (${SIZES.levels} - j % 5000) * interval '8 seconds', 50
       FROM generate_series(0, ${SIZES.contracts - 1}) j;`,
  ],
  [
    'operations',
    // group g: a transaction from an implicit account to a (skewed) contract; every 4th group also has an
    // internal call from that contract to the next one. 16 groups per level.
    `WITH g AS (
       SELECT g, 1 + g / 16 AS level, ${skewed('g', SIZES.contracts)} AS c,
         CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'applied' END AS status
       FROM generate_series(0::bigint, ${SIZES.groups - 1}) g
     ), rows AS (
       SELECT g.*, k.k FROM g CROSS JOIN LATERAL (SELECT 0 AS k UNION ALL SELECT 1 WHERE g.g % 4 = 0) k
     )
     INSERT INTO operations (network, level, timestamp, protocol_id, hash, counter, content_index, nonce, internal,
       kind, status, source, destination, fee, gas_limit, storage_limit, amount, consumed_gas, storage_size,
       entrypoint, parameters, storage, big_map_diffs_count)
     SELECT '${BENCH_NETWORK}', level, timestamp '2025-01-01' + level * interval '8 seconds',
       (SELECT id FROM protocols LIMIT 1), 'oo' || ${b58(`'o' || g`, 49)}, 1000000 + g, 0,
       CASE WHEN k = 1 THEN 0 END, k = 1, 'transaction', CASE WHEN k = 1 AND status = 'failed' THEN 'backtracked' ELSE status END,
       CASE WHEN k = 0 THEN ${accountSql(`(g * 7919) % ${SIZES.accounts}`)} ELSE ${contractSql('c')} END,
       CASE WHEN k = 0 THEN ${contractSql('c')} ELSE ${contractSql(`(c + 1) % ${SIZES.contracts}`)} END,
       CASE WHEN k = 0 THEN 800 + g % 700 ELSE 0 END, 4000 + g % 3000, 300, CASE WHEN g % 3 = 0 THEN 1000000 ELSE 0 END,
       2100000 + g % 900000, 4000 + g % 200,
       CASE WHEN g % 5 = 0 THEN 'mint' ELSE 'transfer' END,
       CASE WHEN g % 5 = 0 THEN jsonb_build_object('entrypoint', 'mint', 'value', jsonb_build_object('int', (g % 100000)::text))
         ELSE jsonb_build_object('entrypoint', 'transfer', 'value', jsonb_build_object('prim', 'Pair', 'args',
           jsonb_build_array(jsonb_build_object('string', ${accountSql(`(g * 31) % ${SIZES.accounts}`)}),
             jsonb_build_object('int', (g % 100000)::text)))) END,
       CASE WHEN status = 'applied' THEN jsonb_build_object('prim', 'Pair', 'args', jsonb_build_array(
         jsonb_build_object('int', (CASE WHEN k = 0 THEN c ELSE (c + 1) % ${SIZES.contracts} END)::text),
         jsonb_build_object('prim', 'Pair', 'args', jsonb_build_array(
           jsonb_build_object('string', ${accountSql('c')}), jsonb_build_object('int', (g * 10)::text))))) END,
       CASE WHEN status = 'applied' THEN 1 ELSE 0 END
     FROM rows ORDER BY g, k;`,
  ],
  [
    'big-map keys and updates',
    `INSERT INTO big_map_states (network, ptr, key_hash, contract, key, value, removed, last_update_level,
       last_update_time, count, level)
     SELECT '${BENCH_NETWORK}', p, 'expr' || ${b58(`'k' || n`, 50)}, ${contractSql('p')},
       jsonb_build_object('string', ${accountSql(`n + ${SIZES.accounts}`)}), jsonb_build_object('int', (n % 77777)::text),
       n % 10 = 0, lvl, timestamp '2025-01-01' + lvl * interval '8 seconds', 1 + n % 5, greatest(1, lvl - 1000)
     FROM (SELECT n, ${skewed('n + 17', SIZES.contracts)} AS p, 1 + (n * 37) % ${SIZES.levels} AS lvl
           FROM generate_series(0::bigint, ${SIZES.bigMapKeys - 1}) n) x
     ORDER BY lvl, n;
     INSERT INTO big_map_diffs (network, operation_id, level, timestamp, protocol_id, ptr, contract, key, key_hash, value)
     SELECT network, 1 + (id * 13) % ${SIZES.groups}, last_update_level, last_update_time, (SELECT id FROM protocols LIMIT 1),
       ptr, contract, key, key_hash, CASE WHEN removed THEN NULL ELSE value END
     FROM big_map_states ORDER BY id;`,
  ],
  [
    'search documents',
    `INSERT INTO search_documents (network, kind, key, level, title, body)
       SELECT '${BENCH_NETWORK}', 'contract', ${contractSql('j')}, 1 + j * 2, '',
         'transfer mint ledger admin total_supply ' || CASE WHEN j % 4 = 1 THEN 'fa1-2' WHEN j % 4 = 2 THEN 'fa2' ELSE '' END
       FROM generate_series(0, ${SIZES.contracts - 1}) j;
     INSERT INTO search_documents (network, kind, key, level, title, body)
       SELECT '${BENCH_NETWORK}', 'token', ${contractSql(`t % ${SIZES.contracts}`)} || ':' || (t / ${SIZES.contracts}),
         1 + t % ${SIZES.levels},
         (ARRAY['Tezos','Punk','Ghost','Quipu','Plenty','Kolibri','Objkt','Hic','Fx','Youves'])[1 + t % 10] || ' ' ||
         (ARRAY['Dragon','Token','Coin','Art','Shard','Gem','Pixel','Cat','Bond','Share'])[1 + (t / 10) % 10] || ' #' || t,
         'TK' || t || ' generated token ' || t
       FROM generate_series(0, ${SIZES.tokens - 1}) t;
     INSERT INTO search_documents (network, kind, key, level, title, body)
       SELECT '${BENCH_NETWORK}', 'contract_metadata', ${contractSql('j')}, 1 + j * 2,
         (ARRAY['Tezos','Quipu','Plenty','Kolibri','Objkt','Youves','Spicy','Crunchy','Ctez','Sirius'])[1 + j % 10] || ' ' ||
         (ARRAY['Swap','Farm','Vault','Market','Oracle','Bridge','DAO','Pool','Minter','Registry'])[1 + (j / 10) % 10] || ' ' || j,
         'contract metadata name'
       FROM generate_series(0, ${SIZES.names - 1}) j;
     INSERT INTO stats (network, contracts_count, operations_count, tx_count)
       VALUES ('${BENCH_NETWORK}', ${SIZES.contracts}, (SELECT count(*) FROM operations), (SELECT count(*) FROM operations));`,
  ],
];

export interface BenchDb {
  handle: DbHandle;
  counts: { operations: number; bigMapKeys: number; searchDocuments: number };
  generated: boolean;
}

/**
 * Opens the benchmark schema, applies the migrations (new index migrations land on the cached data) and
 * generates the data when the schema does not hold this version yet.
 */
export async function openBenchDb(
  url: string,
  schema: string,
  log: (line: string) => void,
  maxConnections = 20,
): Promise<BenchDb> {
  const handle = await openDatabase({ databaseUrl: url, schema, maxConnections });
  const db = handle.db;
  const migrated = await migrateToLatest(handle.db);
  await sql`CREATE TABLE IF NOT EXISTS bench_meta (version text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  const have = await sql<{ version: string }>`SELECT version FROM bench_meta`.execute(db);
  let generated = false;
  if (!have.rows.some((r) => r.version === VERSION)) {
    generated = true;
    await generate(handle, log);
    await sql`INSERT INTO bench_meta (version) VALUES (${VERSION})`.execute(db);
  } else {
    await createIndexes(db);
    // a migration on the kept data may rewrite a table (ALTER … TYPE): without its visibility map, hint bits
    // and statistics, the next runs would measure that, not the reads
    if (migrated.length > 0) {
      log(`[bench] migrations ${migrated.join(', ')} applied to the kept data: VACUUM ANALYZE`);
      await sql
        .raw(`VACUUM ANALYZE ${[...BULK_TABLES, 'big_maps', 'contracts', 'search_terms'].join(', ')}`)
        .execute(db);
    }
  }
  const c = await sql<{ ops: number; keys: number; docs: number }>`
    SELECT (SELECT count(*) FROM operations) AS ops, (SELECT count(*) FROM big_map_states) AS keys,
      (SELECT count(*) FROM search_documents) AS docs`.execute(db);
  const row = c.rows[0]!;
  return {
    handle,
    generated,
    counts: { operations: Number(row.ops), bigMapKeys: Number(row.keys), searchDocuments: Number(row.docs) },
  };
}

/**
 * Runs every `CREATE INDEX` of the migrations as `CREATE INDEX IF NOT EXISTS` (indexes dropped for the bulk
 * load, also after an interrupted generation); returns how many statements ran.
 */
async function createIndexes(db: Db): Promise<number> {
  // in migration order, so that an index a later migration drops is not rebuilt
  const statements = (await loadMigrations()).flatMap((m) =>
    [...m.sql.matchAll(/CREATE (UNIQUE )?INDEX (\w+) ON [^;]+;|DROP INDEX [^;]+;/g)].map((x) =>
      x[0].replace(/^CREATE (UNIQUE )?INDEX (\w+) ON/, 'CREATE $1INDEX IF NOT EXISTS $2 ON'),
    ),
  );
  // an index a later migration drops is not built at all (building then dropping a GIN index on 1,000,000
  // operations cost ~40 s at every start)
  const dropped = (i: number, name: string) =>
    statements.slice(i + 1).some((s) => new RegExp(`^DROP INDEX (IF EXISTS )?"?${name}"?\\s*;`).test(s));
  const kept = statements.filter((s, i) => {
    const name = /^CREATE (?:UNIQUE )?INDEX IF NOT EXISTS (\w+)/.exec(s)?.[1];
    return name === undefined || !dropped(i, name);
  });
  for (const s of kept) await sql.raw(s).execute(db);
  return kept.length;
}

async function generate(handle: DbHandle, log: (line: string) => void): Promise<void> {
  await handle.db.connection().execute(async (db) => {
    await sql.raw(`SET maintenance_work_mem = '512MB'; SET work_mem = '256MB'`).execute(db);
    const tables = ['bench_meta', 'undo_log', ...BULK_TABLES, 'big_map_actions', 'big_maps', 'contracts'];
    tables.push('scripts', 'blocks', 'indexer_state', 'stats', 'protocols');
    await sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`).execute(db);
    // secondary indexes (not constraints) of the bulk tables: dropped now, rebuilt after the inserts
    const idx = await sql<{ name: string }>`
      SELECT i.indexname AS name FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename IN (${sql.join(BULK_TABLES)})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db);
    for (const { name } of idx.rows) await sql.raw(`DROP INDEX "${name}"`).execute(db);
    for (const [what, text] of STEPS) {
      const t = performance.now();
      await sql.raw(text).execute(db);
      log(`[bench] generated ${what} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const t = performance.now();
    const n = await createIndexes(db);
    await sql
      .raw(
        `VACUUM ANALYZE ${[...BULK_TABLES, 'big_maps', 'contracts', 'scripts', 'blocks', 'search_terms'].join(', ')}`,
      )
      .execute(db);
    log(`[bench] built ${n} indexes and analysed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  });
}
