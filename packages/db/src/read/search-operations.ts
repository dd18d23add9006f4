/**
 * Operation search: top-level operations by group hash prefix, calls of an entrypoint by name, and one
 * account's operation groups for its operations tab's search and filters.
 */
import { CompiledQuery, sql } from 'kysely';
import type { Db, OperationStatus } from '../schema';
import { toDate } from './contracts';
import { likeEscape } from './export';
import { PREPARED } from './prepared';
import { SEARCH_TOTAL_CAP } from './search';

export interface OperationHit {
  network: string;
  id: number;
  hash: string;
  counter: number | null;
  level: number;
  timestamp: Date;
  kind: string;
  status: string;
  destination: string | null;
  entrypoint: string | null;
  /** For an account's search ({@link searchAccountOperations}): the group's Σ fee + Σ burned (mutez), as the
   * operations tab's unfiltered list counts it. */
  total_cost?: number;
  /** …the group's flow for the account: its balance change over the applied rows (+credited, −paid). */
  flow?: number;
  /** …the group's internal operations. */
  internals?: number;
}

/** Top-level operations whose group hash starts with `prefix` (at least 5 characters). */
export async function searchOperations(
  db: Db,
  prefix: string,
  networks: readonly string[] | undefined,
  limit: number,
  f: { status?: readonly string[]; entrypoints?: readonly string[] } = {},
): Promise<OperationHit[]> {
  let q = db
    .selectFrom('operations')
    .select([
      'network',
      'id',
      'hash',
      'counter',
      'level',
      'timestamp',
      'kind',
      'status',
      'destination',
      'entrypoint',
    ])
    .where('hash', 'like', `${likeEscape(prefix)}%`)
    .where('internal', '=', false);
  if (networks?.length) q = q.where('network', 'in', [...networks]);
  if (f.status?.length) {
    // Only the statuses the column holds; a filter of none of them matches nothing (`IN ()` is not SQL).
    const statuses = f.status.filter(isStatus);
    q = statuses.length ? q.where('status', 'in', statuses) : q.where(sql<boolean>`false`);
  }
  if (f.entrypoints?.length) q = q.where('entrypoint', 'in', [...f.entrypoints]);
  const rows = await q.orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, hash: r.hash ?? '', timestamp: toDate(r.timestamp) }));
}

/** An entrypoint name as the search reads one in a query (a Michelson field annotation, without its `%`). */
export const ENTRYPOINT_QUERY_RE = /^[A-Za-z0-9_.@]{1,31}$/;

export interface EntrypointCallSearch {
  /** The entrypoint's name, exactly (names are case-sensitive). */
  entrypoint: string;
  networks: readonly string[];
  /** Only these statuses (none: any). */
  status?: readonly string[];
  offset: number;
  limit: number;
  /** Count the calls (up to SEARCH_TOTAL_CAP); false: `total` is 0. */
  count: boolean;
}

/**
 * Operations (top-level and internal) that call an entrypoint of that name, newest first over the given
 * networks, paged, and how many there are (up to SEARCH_TOTAL_CAP). Bounded, from the index
 * `operations_entrypoint_search` alone until the page's rows are read: each network's calls newest first cut at
 * offset + limit (with a status filter: those among its newest SEARCH_TOTAL_CAP calls), the page's ids, then
 * its rows by primary key; the count reads at most SEARCH_TOTAL_CAP index entries per network.
 */
export async function searchEntrypointCalls(
  db: Db,
  s: EntrypointCallSearch,
): Promise<{ total: number; hits: OperationHit[] }> {
  if (s.networks.length === 0 || !ENTRYPOINT_QUERY_RE.test(s.entrypoint)) return { total: 0, hits: [] };
  const statuses = s.status?.length ? s.status.filter(isStatus) : null;
  if (statuses && statuses.length === 0) return { total: 0, hits: [] };
  // one call of a plpgsql function with generic plans (migration 0370, which says how it reads the index): the
  // count's row first (its `total` set), then the page's rows
  const r = await db.executeQuery<
    Omit<OperationHit, 'timestamp' | 'id' | 'counter'> & {
      total: number | string | null;
      id: number | string;
      counter: number | string | null;
      ts: Date | string;
    }
  >(
    CompiledQuery.raw(
      `${PREPARED} SELECT * FROM search_entrypoint_calls($1::text[], $2, $3::text[], $4, $5, $6, $7)`,
      [[...s.networks], s.entrypoint, statuses, s.offset, Math.max(0, s.limit), SEARCH_TOTAL_CAP, s.count],
    ),
  );
  let total = 0;
  const hits: OperationHit[] = [];
  for (const { total: n, ts, ...row } of r.rows) {
    if (n !== null) total = Number(n);
    else
      hits.push({
        ...row,
        id: Number(row.id),
        counter: row.counter === null ? null : Number(row.counter),
        hash: row.hash ?? '',
        timestamp: toDate(ts),
      });
  }
  return { total: Math.min(total, SEARCH_TOTAL_CAP), hits };
}

const STATUSES: ReadonlySet<string> = new Set<OperationStatus>([
  'applied',
  'backtracked',
  'failed',
  'skipped',
]);
const isStatus = (s: string): s is OperationStatus => STATUSES.has(s);

export interface AccountOperationSearch {
  address: string;
  networks?: readonly string[];
  /** Text of the operations tab: an address (source or destination) or the start of an operation hash. */
  text: string;
  status?: readonly string[];
  entrypoints?: readonly string[];
  /** Time range, `from` inclusive, `to` exclusive. */
  from?: Date;
  to?: Date;
  offset: number;
  limit: number;
}

/**
 * Operation groups of one account for the operations tab's search and filters: operations the account sent or
 * received (internal ones included), one hit per group (its first matching operation, top-level first),
 * newest first.
 *
 * The account's newest rows are read in a window and filtered (as the unfiltered list reads its windows,
 * read/opg.ts), then in a twenty times larger one, then every match is read: a group's rows are written
 * together (consecutive ids), so when a window's matches hold more groups than the page reaches, the page is
 * the one all the matches give (only the window's oldest group may be cut, and it is past the page). Without
 * the windows, a text that every hash starts with ('o', 'oo1'), a common status or entrypoint grouped and
 * sorted every operation of the account: 1.2–4.3 s for the contract with 1,000,000 operations of the 10m
 * benchmark data, 3–10 ms with them (bench/RESULTS.md, session 39). A filter that few rows pass still reads
 * them all (after the two windows).
 */
export async function searchAccountOperations(db: Db, s: AccountOperationSearch): Promise<OperationHit[]> {
  const networks = s.networks ?? [];
  const scope =
    networks.length === 0
      ? sql`TRUE`
      : networks.length === 1
        ? sql`o.network = ${networks[0]}`
        : sql`o.network IN (${sql.join([...networks])})`;
  const conds = [sql`o.hash IS NOT NULL`];
  const text = s.text.trim();
  if (text) {
    conds.push(
      /^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)
        ? sql`(o.source = ${text} OR o.destination = ${text})`
        : sql`o.hash LIKE ${`${likeEscape(text)}%`}`,
    );
  }
  if (s.status?.length) conds.push(sql`o.status::text IN (${sql.join([...s.status])})`);
  if (s.entrypoints?.length) conds.push(sql`o.entrypoint IN (${sql.join([...s.entrypoints])})`);
  if (s.from) conds.push(sql`o.timestamp >= ${s.from.toISOString()}::timestamptz`);
  if (s.to) conds.push(sql`o.timestamp < ${s.to.toISOString()}::timestamptz`);
  const where = sql.join(conds, sql` AND `);
  const reach = s.offset + s.limit;
  for (const window of [Math.max(1_000, reach * 4), Math.max(20_000, reach * 40), null]) {
    const r = await accountSearchPage(db, s, scope, where, window);
    // complete: every match was read, or the window's oldest group (perhaps cut) is past the page
    if (window === null || r.rows < window || r.groups > reach) return r.hits;
  }
  throw new Error('unreachable');
}

const COLUMNS = sql`o.network, o.id, o.hash, o.counter, o.level, o.timestamp, o.kind, o.status, o.source, o.destination,
  o.entrypoint, o.internal`;

/**
 * A page of {@link searchAccountOperations} from the matches among the account's newest `window` rows (all
 * the matches when null), with how many rows the window read and how many groups its matches hold. The rows
 * of a window come from two index ranges in id order, the account as source and as destination (a row on both
 * sides once).
 */
async function accountSearchPage(
  db: Db,
  s: AccountOperationSearch,
  scope: ReturnType<typeof sql>,
  where: ReturnType<typeof sql.join>,
  window: number | null,
): Promise<{ rows: number; groups: number; hits: OperationHit[] }> {
  // a window reads the account's newest rows (two index ranges in id order) and filters them; every match is
  // read with the filter (PostgreSQL then picks its index: the hash prefix's, or a scan for a rare status)
  const newest = sql`ORDER BY id DESC LIMIT ${window}`;
  const rows =
    window === null
      ? sql`SELECT ${COLUMNS} FROM operations o
          WHERE (o.source = ${s.address} OR o.destination = ${s.address}) AND ${scope} AND ${where}`
      : sql`(SELECT ${COLUMNS} FROM operations o WHERE o.source = ${s.address} AND ${scope} ${newest})
          UNION ALL
          (SELECT ${COLUMNS} FROM operations o
            WHERE o.destination = ${s.address} AND o.source IS DISTINCT FROM ${s.address} AND ${scope} ${newest})
          ${newest}`;
  const result = await sql<
    Omit<OperationHit, 'timestamp' | 'total_cost' | 'flow' | 'internals'> & {
      n_rows: string | number;
      n_groups: string | number;
      timestamp: Date | string;
      total_cost: string | number | null;
      flow: string | number | null;
      internals: string | number | null;
    }
  >`
    WITH r AS (${rows}),
    w AS (SELECT * FROM r o WHERE ${where}),
    g AS (
      SELECT DISTINCT ON (network, hash, counter) network, id, hash, counter, level, timestamp, kind, status,
        destination, entrypoint
      FROM w ORDER BY network, hash, counter, internal, id
    )
    -- the page's groups, with their totals over every operation of the group (not only the matching ones), as
    -- the unfiltered list (read/opg.ts) counts them: consensus operations aside
    SELECT c.n_rows, c.n_groups, p.*
    FROM (SELECT (SELECT count(*) FROM r) AS n_rows, (SELECT count(*) FROM g) AS n_groups) c
    LEFT JOIN LATERAL (
      SELECT p.network, p.id, p.hash, p.counter, p.level, p.timestamp, p.kind, p.status, p.destination,
        p.entrypoint, t.total_cost, t.flow, t.internals
      FROM (SELECT * FROM g ORDER BY id DESC OFFSET ${s.offset} LIMIT ${s.limit}) p
      LEFT JOIN LATERAL (
        SELECT sum(a.fee) + sum(a.burned) AS total_cost,
          sum(CASE WHEN a.status <> 'applied' THEN 0
            WHEN a.source = ${s.address} AND a.destination = ${s.address} THEN 0
            WHEN a.source = ${s.address} THEN -a.amount
            WHEN a.destination = ${s.address} THEN a.amount ELSE 0 END) AS flow,
          count(*) FILTER (WHERE a.internal) AS internals
        FROM operations a
        WHERE a.network = p.network AND a.hash = p.hash AND a.counter IS NOT DISTINCT FROM p.counter
          AND a.kind NOT IN ('endorsement', 'attestation', 'preendorsement', 'preattestation')
      ) t ON true
    ) p ON true
    ORDER BY p.id DESC`.execute(db);
  const first = result.rows[0];
  return {
    rows: Number(first?.n_rows ?? 0),
    groups: Number(first?.n_groups ?? 0),
    hits: result.rows
      .filter((r) => r.id !== null && r.id !== undefined)
      .map(({ n_rows: _r, n_groups: _g, ...r }) => ({
        ...r,
        hash: r.hash ?? '',
        timestamp: toDate(r.timestamp),
        total_cost: Number(r.total_cost ?? 0),
        flow: Number(r.flow ?? 0),
        internals: Number(r.internals ?? 0),
      })),
  };
}
