/**
 * A generated explorer database for the API load benchmark (`bench/api-load.ts`): the real schema (all
 * migrations) in a PostgreSQL schema of its own, filled with set-based SQL (INSERT … SELECT FROM
 * generate_series) with rows shaped like the indexer's. Two sizes (BENCH_SIZE):
 *
 * - `1m` (default, issue 7): 20,000 contracts over 40 scripts, 100,000 implicit accounts, 1,000,000 operations
 *   (800,000 transaction groups, a quarter with an internal call, parameters and result storage), 20,000 big
 *   maps with 1,000,000 keys and 1,000,000 key updates, and search documents for the contracts, 50,000 tokens
 *   and 5,000 contract names. Contract activity and big-map sizes are skewed (the first contracts are hot).
 * - `10m` (issue 36, "mainnet-sized"): 50,000 contracts, 500,000 implicit accounts, 10,000,000 operations
 *   (8,000,000 groups), 10,000,000 big-map keys and as many key updates, 500,000 token documents, 50,000
 *   names, and three named hot spots: contract 0 ({@link HOT}) is the destination of 1,000,000 operations
 *   (every 8th group), big map 0 (contract 0's) holds 2,000,000 keys (every 5th key), and contract 2 is an FA2
 *   with 100,000 tokens with TZIP-21 metadata. Keys carry their `key_text`. Filled in chunks on two
 *   connections (explicit ids, so ids follow the chain order as the indexer's do), with progress in rows/s.
 *   Meant for a database of its own (e.g. `bench_10m`), not the tests' one.
 *
 * The data is kept between runs (`bench_meta` holds the version).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadMigrations, migrateToLatest, openDatabase, type Db, type DbHandle } from '@michelscope/db';

export const BENCH_NETWORK = 'mainnet';
/** BENCH_SIZE=10m: the mainnet-sized data of issue 36 (default 1m). */
export const BENCH_SIZE = process.env.BENCH_SIZE === '10m' ? '10m' : '1m';
const TEN = BENCH_SIZE === '10m';
/** BENCH_SCALE (default 1) shrinks the data for a quick check of the generator. */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const scaled = (n: number) => Math.max(16, Math.round(n * SCALE));
export const SIZES = TEN
  ? {
      contracts: 50_000,
      scripts: 40,
      accounts: 500_000,
      groups: scaled(8_000_000),
      levels: scaled(500_000),
      bigMapKeys: scaled(10_000_000),
      tokens: 500_000,
      names: 50_000,
      fa2Tokens: 100_000,
    }
  : {
      contracts: 20_000,
      scripts: 40,
      accounts: 100_000,
      groups: scaled(800_000),
      levels: scaled(50_000),
      bigMapKeys: scaled(1_000_000),
      tokens: 50_000,
      names: 5_000,
      fa2Tokens: 0,
    };
/**
 * The named hot spots of the 10m data (contract indexes of {@link contractSql}; big map pointer): the contract
 * with 1,000,000 operations, the big map with 2,000,000 keys, the FA2 with 100,000 tokens.
 */
export const HOT = TEN ? { contract: 0, ptr: 0, fa2: 2 } : undefined;
/** Bump when the generated data changes shape. */
const VERSION = TEN ? 'api-bench-10m-4' : 'api-bench-4';
/** Tables filled in bulk: their secondary indexes are dropped before the inserts and rebuilt after. */
const BULK_TABLES = ['operations', 'big_map_states', 'big_map_diffs', 'search_documents', 'accounts'];
/** Rows per chunk of the 10m data (one statement each, two at a time). */
const CHUNK = 500_000;

/**
 * Base58-alphabet text of `n` characters (n ≤ 76: base64 breaks its lines there) derived from `seed` (SQL), for
 * addresses and hashes: the base64 of 64 pseudo-random bytes with the six characters base58 lacks mapped into
 * it, so the text spreads over all 58 characters as mainnet's does (no checksum). Hex text (17 characters) gave
 * the trigram indexes 4,913 distinct trigrams instead of base58's ~39,000 (lowercased), and lists ~8× longer
 * (bench/RESULTS.md, session 36).
 */
const b58 = (seed: string, n: number) =>
  `substr(translate(encode(decode(md5(${seed}) || md5(${seed} || 'x') || md5(${seed} || 'y') || md5(${seed} || 'z'), 'hex'), 'base64'), '0OIl+/', '1oi9Lx'), 1, ${n})`;
export const contractSql = (j: string) => `'KT1' || ${b58(`'c' || ${j}`, 33)}`;
export const accountSql = (i: string) => `'tz1' || ${b58(`'a' || ${i}`, 33)}`;
/** Skewed index in [0, n): low indexes are hot (r³ of a pseudo-random r in [0, 1)). */
const skewed = (x: string, n: number) =>
  `floor(${n} * power(((${x})::bigint * 2654435761 % 1000003) / 1000003.0, 3))::int`;

/** A step of the generation: its statements (run two at a time when there are several) and their rows. */
interface Step {
  what: string;
  chunks: Array<{ sql: string; rows: number }>;
}
const one = (what: string, text: string): Step => ({ what, chunks: [{ sql: text, rows: 0 }] });
/** [from, to) ranges of `chunk` covering [0, n). */
const ranges = (n: number, chunk = CHUNK): Array<[number, number]> =>
  Array.from({ length: Math.ceil(n / chunk) }, (_, i) => [i * chunk, Math.min(n, (i + 1) * chunk)]);

/** A token's name (SQL), from its number. */
const tokenName = (t: string) =>
  `(ARRAY['Tezos','Punk','Ghost','Quipu','Plenty','Kolibri','Objkt','Hic','Fx','Youves'])[1 + ${t} % 10] || ' ' ||
   (ARRAY['Dragon','Token','Coin','Art','Shard','Gem','Pixel','Cat','Bond','Share'])[1 + (${t} / 10) % 10] || ' #' || ${t}`;

/**
 * Group g: a transaction from an implicit account to a (skewed) contract; every 4th group also has an internal
 * call from that contract to another one. 16 groups per level. 10m: every 8th group (g % 8 = 1, never with an
 * internal call) goes to the hot contract, the others to contracts 1…; ids are explicit (the order of g, k), so
 * that chunks can be inserted at the same time.
 */
function operationsStep(): Step {
  const n = SIZES.contracts;
  const c = TEN
    ? `CASE WHEN g % 8 = 1 THEN ${HOT!.contract} ELSE 1 + ${skewed('g', n - 1)} END`
    : skewed('g', n);
  const next = TEN ? `1 + c % ${n - 1}` : `(c + 1) % ${n}`;
  const statement = (from: number, to: number) => `WITH g AS (
       SELECT g, 1 + g / 16 AS level, ${c} AS c,
         CASE WHEN g % 50 = 0 THEN 'failed' ELSE 'applied' END AS status
       FROM generate_series(${from}::bigint, ${to - 1}) g
     ), rows AS (
       SELECT g.*, k.k FROM g CROSS JOIN LATERAL (SELECT 0 AS k UNION ALL SELECT 1 WHERE g.g % 4 = 0) k
     )
     INSERT INTO operations (${TEN ? 'id, ' : ''}network, level, timestamp, protocol_id, hash, counter, content_index, nonce, internal,
       kind, status, source, destination, fee, gas_limit, storage_limit, amount, consumed_gas, storage_size,
       entrypoint, parameters, storage, big_map_diffs_count, group_cost, group_internals)
     SELECT ${TEN ? '1 + g + (g + 3) / 4 + k, ' : ''}'${BENCH_NETWORK}', level, timestamp '2025-01-01' + level * interval '8 seconds',
       (SELECT id FROM protocols LIMIT 1), 'oo' || ${b58(`'o' || g`, 49)}, 1000000 + g, 0,
       CASE WHEN k = 1 THEN 0 END, k = 1, 'transaction', CASE WHEN k = 1 AND status = 'failed' THEN 'backtracked' ELSE status END,
       CASE WHEN k = 0 THEN ${accountSql(`(g * 7919) % ${SIZES.accounts}`)} ELSE ${contractSql('c')} END,
       CASE WHEN k = 0 THEN ${contractSql('c')} ELSE ${contractSql(next)} END,
       CASE WHEN k = 0 THEN 800 + g % 700 ELSE 0 END, 4000 + g % 3000, 300, CASE WHEN g % 3 = 0 THEN 1000000 ELSE 0 END,
       2100000 + g % 900000, 4000 + g % 200,
       CASE WHEN g % 5 = 0 THEN 'mint' ELSE 'transfer' END,
       CASE WHEN g % 5 = 0 THEN jsonb_build_object('entrypoint', 'mint', 'value', jsonb_build_object('int', (g % 100000)::text))
         ELSE jsonb_build_object('entrypoint', 'transfer', 'value', jsonb_build_object('prim', 'Pair', 'args',
           jsonb_build_array(jsonb_build_object('string', ${accountSql(`(g * 31) % ${SIZES.accounts}`)}),
             jsonb_build_object('int', (g % 100000)::text)))) END,
       CASE WHEN status = 'applied' THEN jsonb_build_object('prim', 'Pair', 'args', jsonb_build_array(
         jsonb_build_object('int', (CASE WHEN k = 0 THEN c ELSE ${next} END)::text),
         jsonb_build_object('prim', 'Pair', 'args', jsonb_build_array(
           jsonb_build_object('string', ${accountSql('c')}), jsonb_build_object('int', (g * 10)::text))))) END,
       CASE WHEN status = 'applied' THEN 1 ELSE 0 END,
       800 + g % 700, CASE WHEN g % 4 = 0 THEN 1 ELSE 0 END
     FROM rows ORDER BY g, k;`;
  // rows of groups [from, to): one each, and one more for every 4th
  const rows = (from: number, to: number) => to - from + Math.ceil(to / 4) - Math.ceil(from / 4);
  return {
    what: 'operations',
    chunks: ranges(SIZES.groups, TEN ? 400_000 : SIZES.groups).map(([from, to]) => ({
      sql: statement(from, to),
      rows: rows(from, to),
    })),
  };
}

/**
 * Big-map keys (and one update each). 1m: pointers skewed, levels scattered, in level order. 10m: every 5th key
 * in the hot big map (pointer 0), the others skewed over pointers 1…, levels rising with the key number (ids in
 * chain order), with `key_text` as the indexer writes it.
 */
function bigMapKeySteps(): Step[] {
  const n = SIZES.contracts;
  const N = SIZES.bigMapKeys;
  if (!TEN)
    return [
      one(
        'big-map keys and updates',
        `INSERT INTO big_map_states (network, ptr, key_hash, contract, key, value, removed, last_update_level,
       last_update_time, count, level)
     SELECT '${BENCH_NETWORK}', p, 'expr' || ${b58(`'k' || n`, 50)}, ${contractSql('p')},
       jsonb_build_object('string', ${accountSql(`n + ${SIZES.accounts}`)}), jsonb_build_object('int', (n % 77777)::text),
       n % 10 = 0, lvl, timestamp '2025-01-01' + lvl * interval '8 seconds', 1 + n % 5, greatest(1, lvl - 1000)
     FROM (SELECT n, ${skewed('n + 17', n)} AS p, 1 + (n * 37) % ${SIZES.levels} AS lvl
           FROM generate_series(0::bigint, ${N - 1}) n) x
     ORDER BY lvl, n;
     INSERT INTO big_map_diffs (network, operation_id, level, timestamp, protocol_id, ptr, contract, key, key_hash, value)
     SELECT network, 1 + (id * 13) % ${SIZES.groups}, last_update_level, last_update_time, (SELECT id FROM protocols LIMIT 1),
       ptr, contract, key, key_hash, CASE WHEN removed THEN NULL ELSE value END
     FROM big_map_states ORDER BY id;`,
      ),
    ];
  const ops = SIZES.groups + Math.ceil(SIZES.groups / 4);
  return [
    {
      what: 'big-map keys',
      chunks: ranges(N).map(([from, to]) => ({
        rows: to - from,
        sql: `INSERT INTO big_map_states (id, network, ptr, key_hash, contract, key, key_text, value, removed,
           last_update_level, last_update_time, count, level)
         SELECT n + 1, '${BENCH_NETWORK}', p, 'expr' || ${b58(`'k' || n`, 50)}, ${contractSql('p')},
           jsonb_build_object('string', a), a, jsonb_build_object('int', (n % 77777)::text),
           n % 10 = 0, lvl, timestamp '2025-01-01' + lvl * interval '8 seconds', 1 + n % 5, greatest(1, lvl - (n * 7) % 1000)
         FROM (SELECT n, CASE WHEN n % 5 = 0 THEN ${HOT!.ptr} ELSE 1 + ${skewed('n + 17', n - 1)} END AS p,
                 1 + n * ${SIZES.levels} / ${N} AS lvl, ${accountSql(`n + ${SIZES.accounts}`)} AS a
               FROM generate_series(${from}::bigint, ${to - 1}) n) x
         ORDER BY n;`,
      })),
    },
    {
      what: 'big-map key updates',
      chunks: ranges(N).map(([from, to]) => ({
        rows: to - from,
        sql: `INSERT INTO big_map_diffs (id, network, operation_id, level, timestamp, protocol_id, ptr, contract, key, key_hash, value)
         SELECT id, network, 1 + (id * 13) % ${ops}, last_update_level, last_update_time, (SELECT id FROM protocols LIMIT 1),
           ptr, contract, key, key_hash, CASE WHEN removed THEN NULL ELSE value END
         FROM big_map_states WHERE id > ${from} AND id <= ${to} ORDER BY big_map_states.id;`,
      })),
    },
  ];
}

function steps(): Step[] {
  const n1 = SIZES.contracts;
  return [
    one(
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
    ),
    one(
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
    ),
    one(
      'accounts',
      `INSERT INTO accounts (network, address, type, level, last_action, operations_count)
       SELECT '${BENCH_NETWORK}', ${accountSql('i')}, 'account', 1 + i % ${SIZES.levels},
         timestamp '2025-01-01' + (${SIZES.levels} - i % 1000) * interval '8 seconds', 8
       FROM generate_series(0, ${SIZES.accounts - 1}) i;
     INSERT INTO accounts (network, address, type, level, last_action, operations_count)
       SELECT '${BENCH_NETWORK}', ${contractSql('j')}, 'contract', 1 + j * 2,
         timestamp '2025-01-01' + (${SIZES.levels} - j % 5000) * interval '8 seconds', 50
       FROM generate_series(0, ${SIZES.contracts - 1}) j;`,
    ),
    operationsStep(),
    one(
      'accounts: operation counts',
      // each account's rows as the indexer counts them (as source, and as destination of another's row), so that
      // a contract's tab reads its own number (the 10m hot contract's 1,000,000, not the other contracts' 50)
      `UPDATE accounts a SET operations_count = c.n
       FROM (SELECT address, count(*) AS n FROM (
           SELECT source AS address FROM operations
           UNION ALL SELECT destination FROM operations WHERE destination IS DISTINCT FROM source) x
         GROUP BY address) c
       WHERE a.network = '${BENCH_NETWORK}' AND a.address = c.address;`,
    ),
    ...bigMapKeySteps(),
    one(
      'search documents: contracts, names',
      `INSERT INTO search_documents (network, kind, key, level, title, body)
       SELECT '${BENCH_NETWORK}', 'contract', ${contractSql('j')}, 1 + j * 2, '',
         'transfer mint ledger admin total_supply ' || CASE WHEN j % 4 = 1 THEN 'fa1-2' WHEN j % 4 = 2 THEN 'fa2' ELSE '' END
       FROM generate_series(0, ${SIZES.contracts - 1}) j;
     INSERT INTO search_documents (network, kind, key, level, title, body)
       SELECT '${BENCH_NETWORK}', 'contract_metadata', ${contractSql('j')}, 1 + j * 2,
         (ARRAY['Tezos','Quipu','Plenty','Kolibri','Objkt','Youves','Spicy','Crunchy','Ctez','Sirius'])[1 + j % 10] || ' ' ||
         (ARRAY['Swap','Farm','Vault','Market','Oracle','Bridge','DAO','Pool','Minter','Registry'])[1 + (j / 10) % 10] || ' ' || j,
         'contract metadata name'
       FROM generate_series(0, ${SIZES.names - 1}) j;`,
    ),
    {
      what: 'search documents: tokens',
      chunks: ranges(SIZES.tokens, TEN ? 100_000 : SIZES.tokens).map(([from, to]) => ({
        rows: to - from,
        // 10m: the FA2 hot spot's tokens first (key `KT1…:id`), then tokens of the other contracts (not the FA2)
        sql: `INSERT INTO search_documents (network, kind, key, level, title, body)
       SELECT '${BENCH_NETWORK}', 'token',
         ${
           TEN
             ? `CASE WHEN t < ${SIZES.fa2Tokens} THEN ${contractSql(String(HOT!.fa2))} || ':' || t
                ELSE ${contractSql(`3 + t % ${n1 - 3}`)} || ':' || t END`
             : `${contractSql(`t % ${n1}`)} || ':' || (t / ${n1})`
         },
         1 + t % ${SIZES.levels}, ${tokenName('t')}, 'TK' || t || ' generated token ' || t
       FROM generate_series(${from}, ${to - 1}) t;`,
      })),
    },
    ...(TEN
      ? [
          one(
            'FA2 token metadata',
            `INSERT INTO token_metadata (network, contract, token_id, level, status, name, symbol, decimals, metadata)
           SELECT '${BENCH_NETWORK}', ${contractSql(String(HOT!.fa2))}, t, 1 + t % ${SIZES.levels}, 3, ${tokenName('t')},
             'TK' || t, 0, jsonb_build_object('name', ${tokenName('t')}, 'symbol', 'TK' || t, 'decimals', '0',
               'description', 'Generated token ' || t || ' of the FA2 hot spot',
               'artifactUri', 'ipfs://Qm' || ${b58(`'ar' || t`, 44)}, 'displayUri', 'ipfs://Qm' || ${b58(`'di' || t`, 44)},
               'thumbnailUri', 'ipfs://Qm' || ${b58(`'th' || t`, 44)},
               'creators', jsonb_build_array(${accountSql(`t % ${SIZES.accounts}`)}), 'tags', jsonb_build_array('art', 'generated'),
               'formats', jsonb_build_array(jsonb_build_object('uri', 'ipfs://Qm' || ${b58(`'ar' || t`, 44)}, 'mimeType', 'image/png')),
               'isBooleanAmount', true)
           FROM generate_series(0, ${SIZES.fa2Tokens - 1}) t;`,
          ),
        ]
      : []),
    one(
      'stats',
      `INSERT INTO stats (network, contracts_count, operations_count, tx_count)
       VALUES ('${BENCH_NETWORK}', ${SIZES.contracts}, (SELECT count(*) FROM operations), (SELECT count(*) FROM operations));`,
    ),
  ];
}

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
    await createIndexes(handle);
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
async function createIndexes(
  handle: DbHandle,
  parallel = 1,
  setup = 'SELECT 1',
  log?: (line: string) => void,
): Promise<number> {
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
  // several at a time (10m): the statements left are independent (no index both built and dropped)
  await runParallel(
    handle,
    parallel,
    setup,
    kept.map((s) => async (db) => {
      const t = performance.now();
      await sql.raw(s).execute(db);
      if (log && /^CREATE/.test(s) && performance.now() - t > 1000)
        log(`[bench] ${s.slice(0, 90).replace(/\s+/g, ' ')}… ${seconds(t)} s`);
    }),
  );
  return kept.length;
}

/** Runs `jobs` on up to `parallel` connections of the pool, each set up with `setup` first. */
async function runParallel(
  handle: DbHandle,
  parallel: number,
  setup: string,
  jobs: Array<(db: Db) => Promise<void>>,
): Promise<void> {
  let next = 0;
  const worker = () =>
    handle.db.connection().execute(async (db) => {
      await sql.raw(setup).execute(db);
      while (next < jobs.length) await jobs[next++]!(db);
    });
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
}

const seconds = (t: number) => ((performance.now() - t) / 1000).toFixed(1);
const rate = (rows: number, t: number) =>
  Math.round(rows / ((performance.now() - t) / 1000)).toLocaleString('en');

async function generate(handle: DbHandle, log: (line: string) => void): Promise<void> {
  const start = performance.now();
  // two connections for the 10m data (one statement is one core)
  const parallel = TEN ? 2 : 1;
  const setup = `SET maintenance_work_mem = '${TEN ? '1GB' : '512MB'}'; SET work_mem = '256MB';
    SET synchronous_commit = off; SET max_parallel_maintenance_workers = ${TEN ? 0 : 2}`;
  await handle.db.connection().execute(async (db) => {
    await sql.raw(setup).execute(db);
    const tables = ['bench_meta', 'undo_log', ...BULK_TABLES, 'big_map_actions', 'big_maps', 'contracts'];
    tables.push('scripts', 'blocks', 'indexer_state', 'stats', 'protocols', 'token_metadata');
    await sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`).execute(db);
    // secondary indexes (not constraints) of the bulk tables: dropped now, rebuilt after the inserts
    const idx = await sql<{ name: string }>`
      SELECT i.indexname AS name FROM pg_indexes i
      WHERE i.schemaname = current_schema() AND i.tablename IN (${sql.join(BULK_TABLES)})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`.execute(db);
    for (const { name } of idx.rows) await sql.raw(`DROP INDEX "${name}"`).execute(db);
    // no autovacuum in the middle of the load (VACUUM ANALYZE at the end)
    for (const t of BULK_TABLES)
      await sql.raw(`ALTER TABLE ${t} SET (autovacuum_enabled = false)`).execute(db);
  });
  for (const step of steps()) {
    const t = performance.now();
    const total = step.chunks.reduce((a, c) => a + c.rows, 0);
    let done = 0;
    await runParallel(
      handle,
      step.chunks.length > 1 ? parallel : 1,
      setup,
      step.chunks.map((c, i) => async (db) => {
        await sql.raw(c.sql).execute(db);
        done += c.rows;
        if (step.chunks.length > 1)
          log(
            `[bench] ${step.what}: chunk ${i + 1}/${step.chunks.length}, ${done.toLocaleString('en')} of ` +
              `${total.toLocaleString('en')} rows in ${seconds(t)} s (${rate(done, t)} rows/s)`,
          );
      }),
    );
    log(`[bench] generated ${step.what} in ${seconds(t)} s` + (total ? ` (${rate(total, t)} rows/s)` : ''));
  }
  // explicit ids (10m): the sequences continue after them
  await sql
    .raw(
      ['operations', 'big_map_states', 'big_map_diffs']
        .map(
          (t) =>
            `SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${t}), false);`,
        )
        .join('\n'),
    )
    .execute(handle.db);
  let t = performance.now();
  const n = await createIndexes(handle, parallel, setup, log);
  log(`[bench] built ${n} indexes in ${seconds(t)} s`);
  t = performance.now();
  await runParallel(
    handle,
    parallel,
    setup,
    [...BULK_TABLES, 'big_maps', 'contracts', 'scripts', 'blocks', 'search_terms', 'token_metadata'].map(
      (table) => async (db) => {
        await sql.raw(`ALTER TABLE ${table} RESET (autovacuum_enabled)`).execute(db);
        await sql.raw(`VACUUM ANALYZE ${table}`).execute(db);
      },
    ),
  );
  log(`[bench] VACUUM ANALYZE in ${seconds(t)} s; generated in ${seconds(start)} s`);
}

/**
 * As a script: generates (or keeps) the data and prints the counts, without running the load.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_10m BENCH_SIZE=10m npx tsx bench/api-data.ts
 */
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL=postgres://… is required');
    process.exit(2);
  }
  const schema =
    process.env.BENCH_SCHEMA ?? (TEN ? 'bench_api_10m' : SCALE === 1 ? 'bench_api' : 'bench_api_small');
  const t = performance.now();
  const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
  const bench = await openBenchDb(url, schema, log, 4);
  log(
    `[bench] ${schema}: ${JSON.stringify(bench.counts)}, ${bench.generated ? 'generated' : 'kept'} in ${seconds(t)} s`,
  );
  await bench.handle.close();
}
