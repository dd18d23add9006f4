import type { Db } from '../schema';
import { preparedQuery } from './prepared';

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
  return (await accountOperationGroups(db, network, address, size, lastId)).rows;
}

/**
 * {@link operationGroups} and whether the account is known (a row in `accounts`), read in the same
 * statement as the window: the route answers 404 for an unknown account without a query of its own.
 */
export async function accountOperationGroups(
  db: Db,
  network: string,
  address: string,
  size: number,
  lastId?: number,
): Promise<{ known: boolean; rows: OpgRow[] }> {
  const first = await groupsInWindow(db, network, address, size, lastId, Math.max(FIRST_WINDOW, size * 4));
  if (first.complete) return { known: first.known, rows: first.rows };
  const full = await groupsInWindow(db, network, address, size, lastId, WINDOW);
  return { known: full.known, rows: full.rows };
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

const SUMS = `sum(CASE WHEN o.source = $2 THEN -o.amount ELSE o.amount END)::text AS flow,
  count(*) FILTER (WHERE o.internal) AS internals, (sum(o.fee) + sum(o.burned))::text AS total_cost`;
const COUNTED = `o.kind NOT IN (${NOT_COUNTED.map((k) => `'${k}'`).join(', ')})`;
/** Columns of a window row; timestamps as epoch milliseconds (a number, no date parsing per row). */
const COLUMNS = `id, hash, counter, level, (extract(epoch FROM timestamp) * 1000)::float8 AS timestamp,
  content_index, status, kind, entrypoint`;

/** A row of {@link pageQuery}: `w` a window row, `t` the totals of a group, `a` the account exists. */
type PageRow = Omit<WindowRow, 'id'> &
  Totals & { row: 'w' | 't' | 'a'; id: number | null; hash: string | null; level: number | null };

/**
 * One statement for a page: the account's newest $4 rows as source or as destination (two index ranges, ids
 * below $3; a row with the account on both sides comes from the first), the totals over all the rows of the page's groups (the window's first $5 groups by their
 * smallest id: hashed groups by hash and counter, hashless protocol-made ones by level and counter), and a
 * row telling whether the account has a row in `accounts`. Grouping the rows into the page is done in Node
 * from the window rows; the groups chosen here for totals are the same ones by construction. The totals are
 * read per hash (index on hash) and per level (index on level) in lateral subqueries: a hashless group never
 * makes the plan scan every hashless row of the network.
 */
const pageQuery = preparedQuery<PageRow>(`
  WITH w AS (
    (SELECT ${COLUMNS} FROM operations WHERE network = $1 AND source = $2 AND id < $3 ORDER BY id DESC LIMIT $4)
    UNION ALL
    (SELECT ${COLUMNS} FROM operations
      WHERE network = $1 AND destination = $2 AND id < $3 AND source IS DISTINCT FROM $2
      ORDER BY id DESC LIMIT $4)
    ORDER BY id DESC LIMIT $4
  ), g AS (
    SELECT hash, counter, min(level) AS level FROM w GROUP BY hash, counter ORDER BY min(id) DESC LIMIT $5
  )
  SELECT 'w' AS row, id, hash, counter, level, timestamp, content_index, status, kind, entrypoint,
    NULL::text AS flow, NULL::bigint AS internals, NULL::text AS total_cost FROM w
  UNION ALL
  SELECT 't', NULL, h.hash, t.counter, NULL, NULL, NULL, NULL, NULL, NULL, t.flow, t.internals, t.total_cost
  FROM (SELECT DISTINCT hash FROM g WHERE hash IS NOT NULL) h CROSS JOIN LATERAL (
    SELECT o.counter, ${SUMS} FROM operations o
    WHERE o.network = $1 AND o.hash = h.hash AND ${COUNTED} GROUP BY o.counter) t
  UNION ALL
  SELECT 't', NULL, NULL, t.counter, l.level, NULL, NULL, NULL, NULL, NULL, t.flow, t.internals, t.total_cost
  FROM (SELECT DISTINCT level FROM g WHERE hash IS NULL) l CROSS JOIN LATERAL (
    SELECT o.counter, ${SUMS} FROM operations o
    WHERE o.network = $1 AND o.level = l.level AND o.hash IS NULL AND ${COUNTED} GROUP BY o.counter) t
  UNION ALL
  SELECT 'a', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM accounts
  WHERE network = $1 AND address = $2`);

/**
 * One page from the account's newest `window` rows, read in one statement ({@link pageQuery}), a named
 * prepared statement planned once per connection (read/prepared.ts): planning the statement each time cost
 * PostgreSQL more than running it (bench/RESULTS.md, API).
 */
async function groupsInWindow(
  db: Db,
  network: string,
  address: string,
  size: number,
  lastId: number | undefined,
  window: number,
): Promise<{ rows: OpgRow[]; complete: boolean; known: boolean }> {
  const all = await pageQuery(db, [network, address, lastId ?? Number.MAX_SAFE_INTEGER, window, size]);
  let known = false;
  const win: WindowRow[] = [];
  const totalsOf = new Map<string, Totals>();
  for (const r of all) {
    if (r.row === 'w') win.push({ ...r, id: Number(r.id), level: Number(r.level) });
    else if (r.row === 't') totalsOf.set(totalsKey(r.hash, r.counter, r.level), r);
    else known = true;
  }
  win.sort((a, b) => a.id - b.id);

  // groups (hash, counter) of the window, rows in id order, newest group (by its smallest id) first
  const groups = new Map<string, WindowRow[]>();
  for (const r of win) {
    const k = `${r.hash ?? ''}\u0000${r.counter ?? ''}`;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  const page = [...groups.values()].sort((a, b) => b[0]!.id - a[0]!.id).slice(0, size + 1);
  const complete = page.length > size || win.length < window;
  const shown = page.slice(0, size);
  const rows = shown.map((g) => {
    const first = g[0]!;
    let status = 0;
    let kind = 101;
    for (const r of g) {
      status = Math.max(status, rank(STATUS_ORDER, r.status, 5));
      kind = Math.min(kind, rank(KIND_ORDER, r.kind, 100));
    }
    const level = Math.min(...g.map((r) => r.level));
    const t = totalsOf.get(totalsKey(first.hash, first.counter, level)) ?? NO_TOTALS;
    return {
      last_id: first.id,
      hash: first.hash ?? null,
      counter: Number(first.counter ?? 0),
      level,
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
  return { rows, complete, known };
}

interface Totals {
  flow: string;
  internals: number;
  total_cost: string;
}

const NO_TOTALS: Totals = { flow: '0', internals: 0, total_cost: '0' };

/** Key of a group's totals: hash and counter, or for a hashless group its (smallest) level and counter. */
const totalsKey = (hash: string | null, counter: unknown, level: unknown) =>
  `${hash ?? `@${String(level)}`}\u0000${counter === null || counter === undefined ? '' : Number(counter)}`;
