/**
 * @michelscope/db/watch — watch rules and their webhook deliveries (issue 39; migrations/0310_watch_rules.sql):
 * the second table set the API writes, after `db/shares`. Rules are created and deleted through the API (found
 * by the SHA-256 of their management token); deliveries are written by the API's evaluator before their first
 * attempt (at-least-once; `INSERT … ON CONFLICT (rule_id, idempotency_key) DO NOTHING`, so API replicas that
 * evaluate the same block create each once) and claimed for an attempt with `FOR UPDATE SKIP LOCKED` and a
 * lease (`next_attempt_at` moved ahead), so two processes never attempt one at the same time and a process
 * that died mid-attempt leaves it due again when the lease ends.
 *
 * `watchFacts` reads what the indexer stored for a range of levels about a set of addresses, in one query per
 * kind of fact (operations, big-map diffs), whatever the number of rules.
 */
import { sql } from 'kysely';
import type { Db } from './schema';

export interface WatchRuleRow {
  id: string;
  network: string;
  address: string;
  condition: unknown;
  url: string;
  secret: string;
  token_hash: string;
  enabled: boolean;
  created_at: Date;
}

export type WatchDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WatchDeliveryRow {
  id: string;
  rule_id: string;
  idempotency_key: string;
  level: number;
  operation_hash: string | null;
  body: unknown;
  status: WatchDeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  latency_ms: number | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** Serialises rule creations (the per-token and total bounds' check, then the insert), on every API replica. */
const CREATE_LOCK = 7346239;

export type CreateRuleResult =
  | { kind: 'created'; row: WatchRuleRow }
  | { kind: 'token-limit'; count: number }
  | { kind: 'total-limit'; count: number };

/** Inserts a rule unless its token already holds `maxPerToken` rules or all rules number `maxTotal`. */
export async function createWatchRule(
  db: Db,
  rule: Omit<WatchRuleRow, 'created_at' | 'enabled' | 'condition'> & { condition: unknown },
  limits: { maxPerToken: number; maxTotal: number },
): Promise<CreateRuleResult> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${CREATE_LOCK})`.execute(trx);
    const counts = await trx
      .selectFrom('watch_rules')
      .select([
        sql<string>`count(*)`.as('total'),
        sql<string>`count(*) FILTER (WHERE token_hash = ${rule.token_hash})`.as('mine'),
      ])
      .executeTakeFirstOrThrow();
    if (Number(counts.mine) >= limits.maxPerToken) return { kind: 'token-limit', count: Number(counts.mine) };
    if (Number(counts.total) >= limits.maxTotal) return { kind: 'total-limit', count: Number(counts.total) };
    const row = await trx
      .insertInto('watch_rules')
      .values({ ...rule, condition: JSON.stringify(rule.condition) })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { kind: 'created', row: row };
  });
}

/** The rules of a management token (by its hash), oldest first. */
export async function rulesOfToken(db: Db, tokenHash: string): Promise<WatchRuleRow[]> {
  return await db
    .selectFrom('watch_rules')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function watchRule(db: Db, id: string): Promise<WatchRuleRow | undefined> {
  return await db.selectFrom('watch_rules').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a rule and its deliveries (cascade); false when it was not there. */
export async function deleteWatchRule(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('watch_rules').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Every enabled rule (the evaluator indexes them by network and address). */
export async function enabledWatchRules(db: Db): Promise<WatchRuleRow[]> {
  return await db.selectFrom('watch_rules').selectAll().where('enabled', '=', true).execute();
}

export interface NewDelivery {
  rule_id: string;
  idempotency_key: string;
  level: number;
  operation_hash: string | null;
  body: unknown;
}

/**
 * Writes deliveries before any attempt; a (rule, idempotency key) already there is left as it is (another
 * process, or a replay of the same block, made it). Answers the ids of the rows this call created.
 */
export async function insertDeliveries(db: Db, rows: NewDelivery[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const out = await db
    .insertInto('watch_deliveries')
    .values(rows.map((r) => ({ ...r, body: JSON.stringify(r.body) })))
    .onConflict((oc) => oc.columns(['rule_id', 'idempotency_key']).doNothing())
    .returning('id')
    .execute();
  return out.map((r) => String(r.id));
}

export interface ClaimedDelivery extends WatchDeliveryRow {
  url: string;
  secret: string;
  network: string;
}

/**
 * Claims due pending deliveries for an attempt: at most `limit`, the earliest due of each rule only (one
 * attempt at a time per rule), none of the rules in `busy`; each claimed row's `next_attempt_at` moves
 * `leaseMs` ahead, so no other process takes it meanwhile and a process that dies leaves it due again.
 */
export async function claimDeliveries(
  db: Db,
  opts: { limit: number; busy: string[]; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  if (opts.limit <= 0) return [];
  const busy = opts.busy.length ? opts.busy : [''];
  const rows = await sql<ClaimedDelivery>`
    WITH due AS (
      SELECT DISTINCT ON (d.rule_id) d.id
      FROM watch_deliveries d
      WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND d.rule_id <> ALL(${busy}::text[])
      ORDER BY d.rule_id, d.next_attempt_at, d.id
    ), picked AS (
      SELECT id FROM watch_deliveries
      WHERE id IN (SELECT id FROM due) AND status = 'pending' AND next_attempt_at <= now()
      ORDER BY next_attempt_at, id
      LIMIT ${opts.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE watch_deliveries w
    SET next_attempt_at = now() + (${opts.leaseMs} * interval '1 millisecond')
    FROM picked, watch_rules r
    WHERE w.id = picked.id AND r.id = w.rule_id
    RETURNING w.*, r.url, r.secret, r.network`.execute(db);
  return rows.rows.map((r) => ({ ...r, id: String(r.id) }));
}

/** The outcome of one attempt. */
export interface AttemptOutcome {
  status: WatchDeliveryStatus;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** Pending: when the next attempt is due. */
  nextAttemptAt?: Date;
}

export async function recordAttempt(db: Db, id: string, o: AttemptOutcome): Promise<void> {
  await db
    .updateTable('watch_deliveries')
    .set((eb) => ({
      status: o.status,
      attempts: eb('attempts', '+', 1),
      last_status_code: o.statusCode,
      last_error: o.error,
      latency_ms: o.latencyMs,
      ...(o.nextAttemptAt ? { next_attempt_at: o.nextAttemptAt } : {}),
      ...(o.status === 'delivered' ? { delivered_at: sql<Date>`now()` } : {}),
    }))
    .where('id', '=', id)
    .execute();
}

/** A rule's deliveries, newest first, one page (`before`: an id, for the next page). */
export async function deliveriesOfRule(
  db: Db,
  ruleId: string,
  page: { size: number; offset: number; status?: WatchDeliveryStatus },
): Promise<WatchDeliveryRow[]> {
  let q = db.selectFrom('watch_deliveries').selectAll().where('rule_id', '=', ruleId);
  if (page.status) q = q.where('status', '=', page.status);
  const rows = await q.orderBy('id', 'desc').limit(page.size).offset(page.offset).execute();
  return rows.map((r) => ({ ...r, id: String(r.id) }) as WatchDeliveryRow);
}

/** An operation of the levels read, as stored (parameters, storage and payload as raw Micheline). */
export interface WatchOperationFact {
  id: number;
  level: number;
  hash: string | null;
  kind: string;
  status: string;
  source: string | null;
  destination: string | null;
  initiator: string | null;
  amount: string;
  entrypoint: string | null;
  tag: string | null;
  parameters: unknown;
  storage: unknown;
  payload: unknown;
  internal: boolean;
  content_index: number;
  nonce: number | null;
  counter: number | null;
}

export interface WatchBigMapFact {
  operation_id: number;
  level: number;
  hash: string | null;
  ptr: number;
  /** The big map's field name in the storage type, when known. */
  name: string | null;
  contract: string;
  key: unknown;
  key_hash: string;
  value: unknown;
}

/** Every fact about `addresses` stored for levels `from`..`to`: in two queries, whatever their number. */
export async function watchFacts(
  db: Db,
  network: string,
  from: number,
  to: number,
  addresses: string[],
  want: { operations: boolean; bigMaps: boolean },
): Promise<{ operations: WatchOperationFact[]; bigMaps: WatchBigMapFact[] }> {
  if (addresses.length === 0) return { operations: [], bigMaps: [] };
  const [operations, bigMaps] = await Promise.all([
    want.operations
      ? db
          .selectFrom('operations')
          .select([
            'id',
            'level',
            'hash',
            'kind',
            'status',
            'source',
            'destination',
            'initiator',
            sql<string>`amount::text`.as('amount'),
            'entrypoint',
            'tag',
            'parameters',
            'storage',
            'payload',
            'internal',
            'content_index',
            'nonce',
            'counter',
          ])
          .where('network', '=', network)
          .where('level', '>=', from)
          .where('level', '<=', to)
          .where((eb) =>
            eb.or([
              eb('destination', 'in', addresses),
              eb.and([eb('source', 'in', addresses), eb('kind', 'in', ['event', 'origination'])]),
            ]),
          )
          .orderBy('id')
          .execute()
      : [],
    want.bigMaps
      ? db
          .selectFrom('big_map_diffs as d')
          .innerJoin('operations as o', 'o.id', 'd.operation_id')
          .leftJoin('big_maps as b', (j) =>
            j.onRef('b.network', '=', 'd.network').onRef('b.ptr', '=', 'd.ptr'),
          )
          .select([
            'd.operation_id',
            'd.level',
            'o.hash',
            'd.ptr',
            'b.name',
            'd.contract',
            'd.key',
            'd.key_hash',
            'd.value',
          ])
          .where('d.network', '=', network)
          .where('d.level', '>=', from)
          .where('d.level', '<=', to)
          .where('d.contract', 'in', addresses)
          .orderBy('d.id')
          .execute()
      : [],
  ]);
  return {
    operations: (operations as WatchOperationFact[]).map((o) => ({ ...o, id: Number(o.id) })),
    bigMaps: (bigMaps as WatchBigMapFact[]).map((b) => ({ ...b, operation_id: Number(b.operation_id) })),
  };
}

/** The value of a big-map key before level `level` (for a threshold's crossing), or undefined. */
export async function bigMapValueBefore(
  db: Db,
  network: string,
  ptr: number,
  keyHash: string,
  level: number,
): Promise<unknown> {
  const row = await db
    .selectFrom('big_map_diffs')
    .select('value')
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('key_hash', '=', keyHash)
    .where('level', '<', level)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.value ?? undefined;
}

/** The storage type of contracts (their script's), by address. */
export async function storageTypes(
  db: Db,
  network: string,
  addresses: string[],
): Promise<Map<string, unknown>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .selectFrom('contracts as c')
    .innerJoin('scripts as s', 's.id', 'c.script_id')
    .select(['c.address', 's.storage'])
    .where('c.network', '=', network)
    .where('c.address', 'in', addresses)
    .execute();
  return new Map(rows.map((r) => [r.address, r.storage]));
}

/** A contract's storage before level `level`: the last stored storage of a call to it below the level. */
export async function storageBefore(
  db: Db,
  network: string,
  address: string,
  level: number,
): Promise<unknown> {
  const row = await db
    .selectFrom('operations')
    .select('storage')
    .where('network', '=', network)
    .where('destination', '=', address)
    .where('level', '<', level)
    .where('storage', 'is not', null)
    .where('status', '=', 'applied')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.storage ?? undefined;
}
