import { sql } from 'kysely';
import type { Db } from '../schema';
import { toDate } from './contracts';

/** One operation group of an account (`GET /contract/{network}/{address}/opg`, reference §6.9). */
export interface OpgRow {
  last_id: number;
  hash: string | null;
  counter: number;
  level: number;
  timestamp: Date;
  content_index: number;
  status: string;
  kind: string;
  entrypoint: string;
  flow: number;
  internals: number;
  total_cost: number;
}

const STATUS_ORDER = ['applied', 'backtracked', 'failed', 'skipped'];
const KIND_ORDER = [
  'transaction',
  'origination',
  'origination_new',
  'delegation',
  'register_global_constant',
  'tx_rollup_origination',
  'event',
  'transfer_ticket',
  'smart_rollup_originate',
  'smart_rollup_execute_outbox_message',
];
/** Rows of one account looked at per page at the most (the reference's 1000-row window). */
const WINDOW = 1000;
/** The first, small window tried: enough for a page unless groups hold many of the account's rows. */
const FIRST_WINDOW = 40;

/**
 * Operation groups `(hash, counter)` an account took part in, newest first, keyset-paged by `last_id`
 * (the smallest operation id of a group; pass the last one of a page to get the next page).
 * `status` is the worst status of the account's rows, `kind` the first by the reference's kind order,
 * `flow` = Σ(−amount where the account is the source, +amount otherwise) over the group,
 * `internals` = internal rows of the group, `total_cost` = Σ fee + Σ burned.
 *
 * The account's newest rows are read in a window of 40 first: the rows of a group are written together
 * (consecutive ids), so when that window holds more than `size` groups the first `size` are complete and
 * the answer is the one the 1000-row window gives; otherwise the query runs again with 1000 rows.
 */
export async function operationGroups(
  db: Db,
  network: string,
  address: string,
  size: number,
  lastId?: number,
): Promise<OpgRow[]> {
  const first = await groupsInWindow(db, network, address, size, lastId, Math.max(FIRST_WINDOW, size * 4));
  if (first.complete) return first.rows;
  return (await groupsInWindow(db, network, address, size, lastId, WINDOW)).rows;
}

async function groupsInWindow(
  db: Db,
  network: string,
  address: string,
  size: number,
  lastId: number | undefined,
  window: number,
): Promise<{ rows: OpgRow[]; complete: boolean }> {
  const before = lastId ?? Number.MAX_SAFE_INTEGER;
  const statusArr = sql`ARRAY[${sql.join(STATUS_ORDER)}]::text[]`;
  const kindArr = sql`ARRAY[${sql.join(KIND_ORDER)}]::text[]`;
  const result = await sql<Record<string, unknown>>`
    WITH acc AS (
      (SELECT id FROM operations WHERE network = ${network} AND source = ${address} AND id < ${before}
        ORDER BY id DESC LIMIT ${window})
      UNION
      (SELECT id FROM operations WHERE network = ${network} AND destination = ${address} AND id < ${before}
        ORDER BY id DESC LIMIT ${window})
    ), win AS (
      SELECT o.id, o.hash, o.counter, o.level, o.timestamp, o.content_index, o.status, o.kind, o.entrypoint
      FROM operations o JOIN (SELECT id FROM acc ORDER BY id DESC LIMIT ${window}) a ON a.id = o.id
    ), grp AS (
      SELECT hash, counter, min(id) AS last_id, min(level) AS level, min(timestamp) AS timestamp,
        min(content_index) AS content_index,
        max(coalesce(array_position(${statusArr}, status), 5)) AS status_rank,
        min(coalesce(array_position(${kindArr}, kind), 100)) AS kind_rank,
        (array_agg(kind ORDER BY id))[1] AS first_kind,
        coalesce(string_agg(entrypoint, ',' ORDER BY id), '') AS entrypoint
      FROM win GROUP BY hash, counter ORDER BY min(id) DESC LIMIT ${size + 1}
    )
    SELECT g.*, (SELECT count(*) FROM win) AS window_rows,
      coalesce(t.flow, '0') AS flow, coalesce(t.internals, 0) AS internals, coalesce(t.total_cost, '0') AS total_cost
    FROM grp g
    LEFT JOIN LATERAL (
      SELECT
        sum(CASE WHEN o.source = ${address} THEN -o.amount ELSE o.amount END)::text AS flow,
        count(*) FILTER (WHERE o.internal) AS internals,
        (sum(o.fee) + sum(o.burned))::text AS total_cost
      FROM operations o
      WHERE o.network = ${network}
        AND ((g.hash IS NULL AND o.hash IS NULL AND o.level = g.level) OR o.hash = g.hash)
        AND o.counter IS NOT DISTINCT FROM g.counter
        AND o.kind NOT IN ('endorsement', 'attestation', 'preendorsement', 'preattestation')
    ) t ON true
    ORDER BY g.last_id DESC`.execute(db);
  const complete = result.rows.length > size || Number(result.rows[0]?.window_rows ?? 0) < window;
  const rows = result.rows.slice(0, size).map((r) => ({
    last_id: Number(r.last_id),
    hash: (r.hash as string | null) ?? null,
    counter: Number(r.counter ?? 0),
    level: Number(r.level),
    timestamp: toDate(r.timestamp),
    content_index: Number(r.content_index),
    status: STATUS_ORDER[Number(r.status_rank) - 1] ?? 'applied',
    kind: KIND_ORDER[Number(r.kind_rank) - 1] ?? String(r.first_kind),
    entrypoint: String((r.entrypoint as string | null) ?? ''),
    flow: Number(r.flow ?? 0),
    internals: Number(r.internals ?? 0),
    total_cost: Number(r.total_cost ?? 0),
  }));
  return { rows, complete };
}
