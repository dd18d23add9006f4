import type { Db } from '../schema';
import { UNCOUNTED_KINDS } from '../write/group-totals';
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

/**
 * Operation groups `(hash, counter)` an account took part in, newest first, keyset-paged by `last_id`
 * (the smallest operation id of a group; pass the last one of a page to get the next page).
 * `status` is the worst status of the account's rows, `kind` the first by the reference's kind order,
 * `flow` = the account's balance change over the group's applied rows (+amount credited, −amount paid),
 * `internals` = internal rows of the group, `total_cost` = Σ fee + Σ burned.
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
  const { known, json } = await accountOperationGroupsJson(db, network, address, size, lastId);
  const rows = (
    JSON.parse(json) as Array<Omit<OpgRow, 'timestamp' | 'hash'> & { hash: string; timestamp: string }>
  ).map((r) => ({ ...r, hash: r.hash === '' ? null : r.hash, timestamp: new Date(r.timestamp) }));
  return { known, rows };
}

/**
 * {@link accountOperationGroups} with the page as the JSON text of the API's answer (`GET
 * /contract/{network}/{address}/opg`: an array of `OPGResponse`, fields in its order, `hash` '' for a
 * hashless group, timestamps as `formatTime` writes them), built by PostgreSQL: the route sends it as it
 * is, without reading the window's rows into objects, grouping them and serialising the page (half of the
 * route's Node CPU, bench/RESULTS.md "API").
 *
 * The account's newest rows are read in a small window first (2 × size + 2: a page unless the account's
 * groups hold more than two of its rows each), then 200, then the reference's 1000: the rows of a group are
 * written together (consecutive ids), so when a window holds more than `size` groups the first `size` are
 * complete and the answer is the one the 1000-row window gives.
 */
export async function accountOperationGroupsJson(
  db: Db,
  network: string,
  address: string,
  size: number,
  lastId?: number,
): Promise<{ known: boolean; json: string }> {
  for (const window of [size * 2 + 2, 200, WINDOW]) {
    if (window > WINDOW) continue;
    const [r] = await pageQuery(db, [network, address, lastId ?? Number.MAX_SAFE_INTEGER, window, size]);
    if (r!.complete || window === WINDOW) return { known: r!.known, json: r!.json };
  }
  throw new Error('unreachable');
}

const STATUSES = `'{${STATUS_ORDER.join(',')}}'::text[]`;
const KINDS = `'{${KIND_ORDER.join(',')}}'::text[]`;
const COUNTED = (alias: string) =>
  `${alias}.kind NOT IN (${UNCOUNTED_KINDS.map((k) => `'${k}'`).join(', ')})`;
/**
 * The account's own balance change: +amount of each applied row that credits it, −amount of each applied row
 * it pays (a call to itself moves nothing). The reference adds +amount for every row of the group where the
 * account is not the source (bcd-api.md §11.12), so a group where tez went past the account read as "locked"
 * on it although it received nothing.
 */
const ACCOUNT_FLOW = (alias: string, account: string) =>
  `sum(CASE WHEN ${alias}.status <> 'applied' THEN 0
    WHEN ${alias}.source = ${account} AND ${alias}.destination = ${account} THEN 0
    WHEN ${alias}.source = ${account} THEN -${alias}.amount
    WHEN ${alias}.destination = ${account} THEN ${alias}.amount ELSE 0 END)`;
const SUMS = `${ACCOUNT_FLOW('o', '$2')} AS flow,
  count(*) FILTER (WHERE o.internal) AS internals, sum(o.fee) + sum(o.burned) AS total_cost`;
/** The account's newest $4 rows below id $3 as source or as destination (a row on both sides once). */
const WINDOW_ROWS = ['source = $2', 'destination = $2 AND source IS DISTINCT FROM $2']
  .map(
    (side) => `(SELECT id, hash, counter, level, timestamp, content_index, status, kind, entrypoint, source,
        destination, amount, group_cost, group_internals
      FROM operations WHERE network = $1 AND ${side} AND id < $3 ORDER BY id DESC LIMIT $4)`,
  )
  .join(' UNION ALL ');

/**
 * One statement for a page, a named prepared statement planned once per connection (read/prepared.ts):
 * the window (two index ranges), its groups (rows in id order within a group: the sorted subquery feeds
 * the aggregates in that order), the first $5 groups by their smallest id with their totals over all the
 * rows of the group, as JSON. A hashed group's fees, burns and internal rows are on the account's rows
 * (`group_cost`, `group_internals`, written with the block, migration 0350) and its flow is the sum of the
 * account's rows in the window; a group written before that migration, or one the window may have cut, is
 * summed again by hash and counter on the hash index, and a hashless protocol-made group always is, by level
 * and counter on the level index. `complete` tells whether the window held more than $5 groups (or every row
 * of the account), `known` whether the account has a row in `accounts`. The window's two ranges are index-only
 * scans: the account indexes hold every column they read (migration 0390; a column added to the window must be
 * added to them, test/account-page-plan.test.ts checks it).
 */
export const ACCOUNT_PAGE_SQL = `
  WITH w AS (${WINDOW_ROWS} ORDER BY id DESC LIMIT $4),
  g AS (
    SELECT hash, counter, min(id) AS last_id, min(level) AS level, min(timestamp) AS ts,
      min(content_index) AS content_index, max(coalesce(array_position(${STATUSES}, status), 5)) AS status,
      min(coalesce(array_position(${KINDS}, kind), 100)) AS kind, (array_agg(kind))[1] AS first_kind,
      coalesce(string_agg(entrypoint, ','), '') AS entrypoint,
      ${ACCOUNT_FLOW('r', '$2')} FILTER (WHERE ${COUNTED('r')}) AS flow,
      CASE WHEN count(group_cost) = count(*) THEN min(group_cost) END AS cost,
      CASE WHEN count(group_internals) = count(*) THEN min(group_internals) END AS internals
    FROM (SELECT * FROM w ORDER BY hash, counter, id) r GROUP BY hash, counter
  ), s AS (
    -- a hashed group's totals come with its rows, unless they were written without them (before migration 0350)
    -- or the window may have cut the group (its oldest, when the window is full): then it is summed again
    SELECT g.*, g.hash IS NOT NULL AND (g.cost IS NULL OR g.internals IS NULL
      OR (g.last_id = (SELECT min(id) FROM w) AND (SELECT count(*) FROM w) >= $4)) AS summed
    FROM (SELECT * FROM g ORDER BY last_id DESC LIMIT $5) g
  ), p AS (
    SELECT g.last_id, g.content_index, coalesce(g.counter, 0) AS counter, g.level,
      coalesce(CASE WHEN g.hash IS NULL THEN l.total_cost WHEN g.summed THEN h.total_cost ELSE g.cost END, 0) AS total_cost,
      coalesce(CASE WHEN g.hash IS NULL THEN l.flow WHEN g.summed THEN h.flow ELSE g.flow END, 0) AS flow,
      coalesce(CASE WHEN g.hash IS NULL THEN l.internals WHEN g.summed THEN h.internals ELSE g.internals END, 0) AS internals,
      coalesce(g.hash, '') AS hash, g.entrypoint,
      replace(to_char(g.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '.000Z', 'Z') AS timestamp,
      coalesce((${STATUSES})[g.status], 'applied') AS status, coalesce((${KINDS})[g.kind], g.first_kind) AS kind
    FROM s g
    LEFT JOIN LATERAL (
      SELECT ${SUMS} FROM operations o
      WHERE g.summed AND o.network = $1 AND o.hash = g.hash
        AND (o.counter = g.counter OR (o.counter IS NULL AND g.counter IS NULL)) AND ${COUNTED('o')}
    ) h ON g.summed
    LEFT JOIN LATERAL (
      SELECT ${SUMS} FROM operations o
      WHERE g.hash IS NULL AND o.network = $1 AND o.level = g.level AND (o.hash IS NULL) IS TRUE
        AND (o.counter = g.counter OR (o.counter IS NULL AND g.counter IS NULL)) AND ${COUNTED('o')}
    ) l ON g.hash IS NULL
  )
  SELECT (SELECT count(*) FROM g) > $5 OR (SELECT count(*) FROM w) < $4 AS complete,
    EXISTS (SELECT 1 FROM accounts WHERE network = $1 AND address = $2) AS known,
    '[' || coalesce((SELECT string_agg(row_to_json(p)::text, ',' ORDER BY last_id DESC) FROM p), '') || ']' AS json`;
const pageQuery = preparedQuery<{ complete: boolean; known: boolean; json: string }>(ACCOUNT_PAGE_SQL);
