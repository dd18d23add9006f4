import { sql } from 'kysely';
import type { Db } from '../schema';

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

/** A row of the account's window (the columns a group's summary needs). */
interface WindowRow {
  id: number;
  hash: string | null;
  counter: number | null;
  level: number;
  /** epoch milliseconds */
  timestamp: number;
  content_index: number;
  status: string;
  kind: string;
  entrypoint: string | null;
}

const NOT_COUNTED = ['endorsement', 'attestation', 'preendorsement', 'preattestation'];
const rank = (list: readonly string[], v: string, none: number) => {
  const i = list.indexOf(v);
  return i < 0 ? none : i + 1;
};

/**
 * One page from the account's newest `window` rows. Simple index queries (the account's rows as source and
 * as destination, then the totals of the page's groups) grouped here: a single query doing all of it cost
 * PostgreSQL more to plan than to run (bench/RESULTS.md, API).
 */
async function groupsInWindow(
  db: Db,
  network: string,
  address: string,
  size: number,
  lastId: number | undefined,
  window: number,
): Promise<{ rows: OpgRow[]; complete: boolean }> {
  // one statement for both sides (an account's rows as source and as destination: two index ranges);
  // timestamps as epoch milliseconds (a number, no date parsing per row)
  const bound = lastId !== undefined ? sql`AND id < ${lastId}` : sql``;
  const cols = sql`id, hash, counter, level, (extract(epoch FROM timestamp) * 1000)::float8 AS timestamp,
    content_index, status, kind, entrypoint`;
  const both = await sql<WindowRow>`
    (SELECT ${cols} FROM operations WHERE network = ${network} AND source = ${address} ${bound}
      ORDER BY id DESC LIMIT ${window})
    UNION ALL
    (SELECT ${cols} FROM operations WHERE network = ${network} AND destination = ${address} ${bound}
      ORDER BY id DESC LIMIT ${window})`.execute(db);
  const byId = new Map<number, WindowRow>();
  for (const r of both.rows) byId.set(Number(r.id), { ...r, id: Number(r.id) });
  const win = [...byId.values()].sort((a, b) => b.id - a.id).slice(0, window);

  // groups (hash, counter) of the window, rows in id order, newest group (by its smallest id) first
  const groups = new Map<string, WindowRow[]>();
  for (const r of [...win].reverse()) {
    const k = `${r.hash ?? ''}\u0000${r.counter ?? ''}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  const page = [...groups.values()].sort((a, b) => b[0]!.id - a[0]!.id).slice(0, size + 1);
  const complete = page.length > size || win.length < window;
  const shown = page.slice(0, size);
  const totals = await groupTotals(db, network, address, shown);
  const rows = shown.map((g, i) => {
    const first = g[0]!;
    let status = 0;
    let kind = 101;
    for (const r of g) {
      status = Math.max(status, rank(STATUS_ORDER, r.status, 5));
      kind = Math.min(kind, rank(KIND_ORDER, r.kind, 100));
    }
    const t = totals[i]!;
    return {
      last_id: first.id,
      hash: first.hash ?? null,
      counter: Number(first.counter ?? 0),
      level: Math.min(...g.map((r) => r.level)),
      timestamp: new Date(Math.min(...g.map((r) => Number(r.timestamp)))),
      content_index: Math.min(...g.map((r) => r.content_index)),
      status: STATUS_ORDER[status - 1] ?? 'applied',
      kind: KIND_ORDER[kind - 1] ?? first.kind,
      entrypoint: g
        .map((r) => r.entrypoint)
        .filter((e): e is string => e !== null)
        .join(','),
      flow: Number(t.flow),
      internals: Number(t.internals),
      total_cost: Number(t.total_cost),
    };
  });
  return { rows, complete };
}

interface Totals {
  flow: string;
  internals: number;
  total_cost: string;
}

/**
 * Per group, over all its rows (not only the account's): `flow` = Σ(−amount where the account is the source,
 * +amount otherwise), `internals` = internal rows, `total_cost` = Σ fee + Σ burned; in the order of `groups`.
 */
async function groupTotals(
  db: Db,
  network: string,
  address: string,
  groups: readonly WindowRow[][],
): Promise<Totals[]> {
  const hashes = [...new Set(groups.map((g) => g[0]!.hash).filter((h): h is string => h !== null))];
  const sums = sql`sum(CASE WHEN source = ${address} THEN -amount ELSE amount END)::text AS flow,
      count(*) FILTER (WHERE internal) AS internals, (sum(fee) + sum(burned))::text AS total_cost`;
  const found = new Map<string, Totals>();
  const key = (hash: string | null, counter: unknown, level: unknown) =>
    `${hash ?? `@${String(level)}`}\u0000${counter === null || counter === undefined ? '' : Number(counter)}`;
  if (hashes.length) {
    const r = await sql<Totals & { hash: string; counter: number | null }>`
      SELECT hash, counter, ${sums} FROM operations
      WHERE network = ${network} AND hash = ANY(${hashes}::text[])
        AND kind NOT IN (${sql.join(NOT_COUNTED)})
      GROUP BY hash, counter`.execute(db);
    for (const t of r.rows) found.set(key(t.hash, t.counter, null), t);
  }
  // groups without a hash (protocol-made rows): the rows of the same level and counter
  const levels = [
    ...new Set(groups.filter((g) => g[0]!.hash === null).map((g) => Math.min(...g.map((r) => r.level)))),
  ];
  if (levels.length) {
    const r = await sql<Totals & { level: number; counter: number | null }>`
      SELECT level, counter, ${sums} FROM operations
      WHERE network = ${network} AND hash IS NULL AND level = ANY(${levels}::int[])
        AND kind NOT IN (${sql.join(NOT_COUNTED)})
      GROUP BY level, counter`.execute(db);
    for (const t of r.rows) found.set(key(null, t.counter, t.level), t);
  }
  return groups.map(
    (g) =>
      found.get(key(g[0]!.hash, g[0]!.counter, Math.min(...g.map((r) => r.level)))) ?? {
        flow: '0',
        internals: 0,
        total_cost: '0',
      },
  );
}
