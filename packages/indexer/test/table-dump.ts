/**
 * Comparable dump of every table the indexer writes, for one network: rows as JSON, sorted, without
 * timestamps of the write itself, with surrogate ids (sequences, which a crash may advance) replaced by
 * their rank in the table, in the row itself, in the columns that reference them and in undo_log images.
 */
import type { Db } from '@michelscope/db';
import { sql } from 'kysely';
import { expect } from 'vitest';

export const INDEXED_TABLES = [
  'protocols',
  'blocks',
  'indexer_state',
  'stats',
  'accounts',
  'operations',
  'scripts',
  'contracts',
  'global_constants',
  'script_constants',
  'big_maps',
  'big_map_actions',
  'big_map_diffs',
  'big_map_states',
  'tickets',
  'ticket_updates',
  'ticket_balances',
  'smart_rollups',
  'migrations',
  'stats_daily',
  'search_documents',
  'contract_metadata',
  'token_metadata',
  'undo_log',
] as const;

const WITH_ID = [
  'protocols',
  'accounts',
  'operations',
  'scripts',
  'contracts',
  'global_constants',
  'big_map_actions',
  'big_map_diffs',
  'big_map_states',
  'tickets',
  'ticket_updates',
  'smart_rollups',
  'migrations',
  'search_documents',
  'undo_log',
];
const REFS: Record<string, string> = {
  operation_id: 'operations',
  script_id: 'scripts',
  prev_script_id: 'scripts',
  ticket_id: 'tickets',
  protocol_id: 'protocols',
  prev_protocol_id: 'protocols',
};
const VOLATILE = new Set(['updated_at', 'next_attempt_at', 'created_at', 'network']);

type Row = Record<string, unknown>;

/**
 * Surrogate ids whose order is only the order rows were inserted in (not the chain's), with the natural key
 * that names a row instead (`byKey`): a database filled in another order (the history backfill) numbers them
 * otherwise. Rows of the other tables of WITH_ID without a natural key lose their id.
 */
const NATURAL: Record<string, string> = {
  protocols: 'hash',
  scripts: 'hash',
  tickets: 'hash',
  accounts: 'address',
  contracts: 'address',
};
const INSERTION_ORDERED = new Set([
  ...Object.keys(NATURAL),
  'big_map_actions',
  'big_map_states',
  'global_constants',
  'ticket_updates',
  'smart_rollups',
  'migrations',
  'search_documents',
  'undo_log',
]);

export async function dumpTables(
  db: Db,
  network: string,
  opts: { byKey?: boolean } = {},
): Promise<Record<string, string[]>> {
  const ranks = new Map<string, Map<string, number | string>>();
  for (const t of WITH_ID) {
    const key = opts.byKey && NATURAL[t] ? sql.ref(`x.${NATURAL[t]}`) : sql`NULL`;
    const r = await sql<{
      id: string;
      key: string | null;
    }>`SELECT x.id::text AS id, ${key}::text AS key FROM ${sql.table(t)} x WHERE x.network = ${network} ORDER BY x.id`.execute(
      db,
    );
    ranks.set(t, new Map(r.rows.map((x, i) => [x.id, x.key ?? i + 1])));
  }
  const rank = (t: string, v: unknown) => {
    if (typeof v !== 'number' && typeof v !== 'string') return v;
    return `${t}#${ranks.get(t)?.get(String(v)) ?? `missing:${v}`}`;
  };
  const norm = (t: string, row: Row): Row => {
    const out: Row = {};
    for (const [k, v] of Object.entries(row)) {
      if (VOLATILE.has(k)) continue;
      if (k === 'id' && opts.byKey && INSERTION_ORDERED.has(t) && !NATURAL[t]) continue;
      if (k === 'id' && WITH_ID.includes(t)) out[k] = rank(t, v);
      else if (k in REFS && !(t === 'token_metadata' && k === 'token_id')) out[k] = rank(REFS[k]!, v);
      else out[k] = v;
    }
    if (t === 'undo_log' && Array.isArray(row.rows))
      // The order inside one before-image (jsonb_agg over a scan) carries no meaning: sort it.
      // Column before-images (`<table>.<columns>`) rank ids as rows of their table.
      out.rows = (row.rows as Row[])
        .map((r) => JSON.stringify(norm(String(row.tbl).split('.')[0]!, r)))
        .sort();
    return out;
  };
  await expectKeptBigMapCounts(db, network);
  const out: Record<string, string[]> = {};
  for (const t of INDEXED_TABLES) {
    const r = await sql<{
      j: Row;
    }>`SELECT to_jsonb(x) AS j FROM ${sql.table(t)} x WHERE network = ${network}`.execute(db);
    out[t] = r.rows.map((x) => JSON.stringify(norm(t, x.j))).sort();
  }
  return out;
}

/**
 * The key counts big_map_states keeps of itself (its triggers, migration 0380) are the keys' own counts, whichever
 * way the rows came (blocks, batches, reorgs, restored before-images, a history backfill, a protocol migration).
 */
export async function expectKeptBigMapCounts(db: Db, network: string): Promise<void> {
  const kept = await sql<{ ptr: string; contract: string; total: string; active: string }>`
    SELECT ptr::text, contract, total::text, active::text FROM big_map_key_counts
    WHERE network = ${network} AND total <> 0 ORDER BY ptr, contract`.execute(db);
  const counted = await sql<{ ptr: string; contract: string; total: string; active: string }>`
    SELECT ptr::text, contract, count(*)::text AS total, count(*) FILTER (WHERE NOT removed)::text AS active
    FROM big_map_states WHERE network = ${network} GROUP BY ptr, contract ORDER BY ptr, contract`.execute(db);
  expect(kept.rows, `the kept key counts of ${network}'s big maps`).toEqual(counted.rows);
}

/** Table-by-table comparison with a short report (the first differing rows, cut) instead of a huge diff. */
export function expectSameTables(actual: Record<string, string[]>, expected: Record<string, string[]>): void {
  const report: string[] = [];
  for (const t of Object.keys(expected)) {
    const a = new Set(actual[t]);
    const e = new Set(expected[t]);
    const extra = [...a].filter((x) => !e.has(x));
    const missing = [...e].filter((x) => !a.has(x));
    if (extra.length || missing.length)
      report.push(
        `${t}: ${extra.length} extra, ${missing.length} missing; e.g. +${extra[0]?.slice(0, 400)} -${missing[0]?.slice(0, 400)}`,
      );
  }
  expect(report).toEqual([]);
}
