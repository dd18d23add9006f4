import { sql, type Selectable } from 'kysely';
import type {
  Db,
  GlobalConstantsTable,
  MigrationsTable,
  SmartRollupsTable,
  TicketsTable,
  TicketUpdatesTable,
} from '../schema';
import { toDate } from './contracts';

export type TicketUpdateRow = Pick<
  Selectable<TicketUpdatesTable>,
  'id' | 'level' | 'timestamp' | 'ticket_id' | 'account' | 'amount'
> &
  Pick<Selectable<TicketsTable>, 'ticketer' | 'content_type' | 'content'> & { operation_hash: string | null };

function ticketUpdatesQuery(db: Db) {
  return db
    .selectFrom('ticket_updates as u')
    .innerJoin('tickets as t', 't.id', 'u.ticket_id')
    .leftJoin('operations as o', 'o.id', 'u.operation_id')
    .select(UPDATE_COLUMNS);
}

/** The columns of a {@link TicketUpdateRow}: `u` an update, `t` its ticket, `o` its operation. */
const UPDATE_COLUMNS = [
  'u.id',
  'u.level',
  'u.timestamp',
  'u.ticket_id',
  't.ticketer',
  'u.account',
  'u.amount',
  'o.hash as operation_hash',
  't.content_type',
  't.content',
] as const;

const toUpdate = (r: Record<string, unknown>): TicketUpdateRow => ({
  ...(r as unknown as TicketUpdateRow),
  timestamp: toDate(r.timestamp),
  amount: String(r.amount),
});

export async function ticketUpdatesOfOperation(
  db: Db,
  network: string,
  operationId: number,
): Promise<TicketUpdateRow[]> {
  const rows = await ticketUpdatesQuery(db)
    .where('u.network', '=', network)
    .where('u.operation_id', '=', operationId)
    .orderBy('u.id')
    .limit(1000)
    .execute();
  return rows.map(toUpdate);
}

/**
 * {@link ticketUpdatesOfOperation} for several operations in one statement: each operation's first
 * `limitEach` updates in id order (a flow graph's edges).
 */
export async function ticketUpdatesOfOperations(
  db: Db,
  network: string,
  operationIds: readonly number[],
  limitEach = 1000,
): Promise<Map<number, TicketUpdateRow[]>> {
  const out = new Map<number, TicketUpdateRow[]>();
  if (operationIds.length === 0) return out;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('ticket_updates')
        .selectAll()
        .select(sql<number>`row_number() OVER (PARTITION BY operation_id ORDER BY id)`.as('rn'))
        .where('network', '=', network)
        .where('operation_id', 'in', [...new Set(operationIds)])
        .as('u'),
    )
    .innerJoin('tickets as t', 't.id', 'u.ticket_id')
    .leftJoin('operations as o', 'o.id', 'u.operation_id')
    .select([...UPDATE_COLUMNS, 'u.operation_id'])
    .where(sql<boolean>`u.rn <= ${limitEach}`)
    .orderBy('u.operation_id')
    .orderBy('u.id')
    .execute();
  for (const { operation_id, ...r } of rows) {
    const list = out.get(Number(operation_id)) ?? [];
    list.push(toUpdate(r));
    out.set(Number(operation_id), list);
  }
  return out;
}

export async function ticketUpdatesOfTicketer(
  db: Db,
  network: string,
  ticketer: string,
  f: { size: number; offset: number; account?: string; ticketId?: number },
): Promise<TicketUpdateRow[]> {
  let q = ticketUpdatesQuery(db).where('u.network', '=', network).where('t.ticketer', '=', ticketer);
  if (f.account) q = q.where('u.account', '=', f.account);
  if (f.ticketId !== undefined) q = q.where('u.ticket_id', '=', f.ticketId);
  const rows = await q.orderBy('u.id', 'desc').limit(f.size).offset(f.offset).execute();
  return rows.map(toUpdate);
}

/**
 * Updates an account takes part in: it holds the ticket (`account`) or issued it (`ticketer`), newest first:
 * what its `ticket_updates_count` counts (the indexer counts each update for the holder and, when another
 * account, for the ticketer). Two index ranges (holder; the ticketer's tickets), each cut at offset + size.
 */
export async function ticketUpdatesOfAccount(
  db: Db,
  network: string,
  address: string,
  f: { size: number; offset: number },
): Promise<TicketUpdateRow[]> {
  const window = f.offset + f.size;
  const ids = await sql<{ id: number }>`
    SELECT id FROM (
      (SELECT id FROM ticket_updates WHERE network = ${network} AND account = ${address} ORDER BY id DESC LIMIT ${window})
      UNION
      (SELECT u.id FROM ticket_updates u JOIN tickets t ON t.id = u.ticket_id
        WHERE t.network = ${network} AND t.ticketer = ${address} AND u.network = ${network}
        ORDER BY u.id DESC LIMIT ${window})
    ) x ORDER BY id DESC LIMIT ${f.size} OFFSET ${f.offset}`.execute(db);
  if (ids.rows.length === 0) return [];
  const rows = await ticketUpdatesQuery(db)
    .where(
      'u.id',
      'in',
      ids.rows.map((r) => Number(r.id)),
    )
    .orderBy('u.id', 'desc')
    .execute();
  return rows.map(toUpdate);
}

export type TicketRow = Pick<
  Selectable<TicketsTable>,
  'id' | 'ticketer' | 'content_type' | 'content' | 'updates_count' | 'level'
>;

export async function ticketsOfTicketer(
  db: Db,
  network: string,
  ticketer: string,
  size: number,
  offset: number,
): Promise<TicketRow[]> {
  const rows = await db
    .selectFrom('tickets')
    .select(['id', 'ticketer', 'content_type', 'content', 'updates_count', 'level'])
    .where('network', '=', network)
    .where('ticketer', '=', ticketer)
    .orderBy('id', 'desc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ ...r, updates_count: Number(r.updates_count) }));
}

export async function ticketBalancesOf(
  db: Db,
  network: string,
  account: string,
  f: { size: number; offset: number; skipEmpty: boolean },
): Promise<Array<TicketRow & { amount: string }>> {
  let q = db
    .selectFrom('ticket_balances as b')
    .innerJoin('tickets as t', 't.id', 'b.ticket_id')
    .select(['t.id', 't.ticketer', 't.content_type', 't.content', 't.updates_count', 't.level', 'b.amount'])
    .where('b.network', '=', network)
    .where('b.account', '=', account);
  if (f.skipEmpty) q = q.where('b.amount', '>', '0');
  const rows = await q.orderBy('t.id', 'desc').limit(f.size).offset(f.offset).execute();
  return rows.map((r) => ({ ...r, updates_count: Number(r.updates_count), amount: String(r.amount) }));
}

export type GlobalConstantRow = Pick<
  Selectable<GlobalConstantsTable>,
  'id' | 'address' | 'value' | 'level' | 'timestamp'
> & { links_count: number };

export async function getGlobalConstant(
  db: Db,
  network: string,
  address: string,
): Promise<GlobalConstantRow | undefined> {
  const row = await db
    .selectFrom('global_constants')
    .select(['id', 'address', 'value', 'level', 'timestamp'])
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  return row ? { ...row, timestamp: toDate(row.timestamp), links_count: 0 } : undefined;
}

export type ConstantOrder = 'level' | 'timestamp' | 'links_count' | 'address';

export async function listGlobalConstants(
  db: Db,
  network: string,
  f: { size: number; offset: number; orderBy?: ConstantOrder; sort: 'asc' | 'desc' },
): Promise<GlobalConstantRow[]> {
  const links = sql<number>`(SELECT count(*) FROM contracts c JOIN script_constants sc ON sc.script_id = c.script_id
    WHERE c.network = g.network AND sc.constant_address = g.address)`;
  let q = db
    .selectFrom('global_constants as g')
    .select(['g.id', 'g.address', 'g.value', 'g.level', 'g.timestamp', links.as('links_count')])
    .where('g.network', '=', network);
  if (f.orderBy === 'links_count') q = q.orderBy(links, f.sort).orderBy('g.id', f.sort);
  else if (f.orderBy) q = q.orderBy(`g.${f.orderBy}`, f.sort).orderBy('g.id', f.sort);
  else q = q.orderBy(links, 'desc').orderBy('g.timestamp', 'desc').orderBy('g.id', 'desc');
  const rows = await q.limit(f.size).offset(f.offset).execute();
  return rows.map((r) => ({ ...r, timestamp: toDate(r.timestamp), links_count: Number(r.links_count) }));
}

/** Global constants the contract's script uses, newest first. */
export async function constantsOfContract(
  db: Db,
  network: string,
  address: string,
  size: number,
  offset: number,
): Promise<GlobalConstantRow[]> {
  const rows = await db
    .selectFrom('global_constants as g')
    .innerJoin('script_constants as sc', (j) =>
      j.onRef('sc.constant_address', '=', 'g.address').onRef('sc.network', '=', 'g.network'),
    )
    .innerJoin('contracts as c', 'c.script_id', 'sc.script_id')
    .select(['g.id', 'g.address', 'g.value', 'g.level', 'g.timestamp'])
    .where('g.network', '=', network)
    .where('c.network', '=', network)
    .where('c.address', '=', address)
    .orderBy('g.id', 'desc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ ...r, timestamp: toDate(r.timestamp), links_count: 0 }));
}

const SMART_ROLLUP_COLUMNS = [
  'id',
  'address',
  'level',
  'timestamp',
  'size',
  'genesis_commitment_hash',
  'pvm_kind',
  'kernel',
  'type',
] as const;

export type SmartRollupRow = Pick<Selectable<SmartRollupsTable>, (typeof SMART_ROLLUP_COLUMNS)[number]>;

export async function listSmartRollups(
  db: Db,
  network: string,
  f: { size: number; offset: number; sort: 'asc' | 'desc' },
): Promise<SmartRollupRow[]> {
  const rows = await db
    .selectFrom('smart_rollups')
    .select(SMART_ROLLUP_COLUMNS)
    .where('network', '=', network)
    .orderBy('id', f.sort)
    .limit(f.size)
    .offset(f.offset)
    .execute();
  return rows.map((r) => ({ ...r, timestamp: toDate(r.timestamp) }));
}

export async function getSmartRollup(
  db: Db,
  network: string,
  address: string,
): Promise<SmartRollupRow | undefined> {
  const row = await db
    .selectFrom('smart_rollups')
    .select(SMART_ROLLUP_COLUMNS)
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  return row ? { ...row, timestamp: toDate(row.timestamp) } : undefined;
}

export type MigrationRow = Pick<Selectable<MigrationsTable>, 'level' | 'timestamp' | 'hash' | 'kind'> & {
  protocol: string;
  prev_protocol: string;
};

export async function migrationsOf(db: Db, network: string, contract: string): Promise<MigrationRow[]> {
  const rows = await db
    .selectFrom('migrations as m')
    .leftJoin('protocols as p', 'p.id', 'm.protocol_id')
    .leftJoin('protocols as pp', 'pp.id', 'm.prev_protocol_id')
    .select([
      'm.level',
      'm.timestamp',
      'm.hash',
      'm.kind',
      sql<string>`coalesce(p.hash, '')`.as('protocol'),
      sql<string>`coalesce(pp.hash, '')`.as('prev_protocol'),
    ])
    .where('m.network', '=', network)
    .where('m.contract', '=', contract)
    .orderBy('m.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ ...r, timestamp: toDate(r.timestamp) }));
}

/** Protocols of a network, newest first. */
export async function protocolsOf(
  db: Db,
  network: string,
): Promise<Array<{ id: number; hash: string; start_level: number; end_level: number | null }>> {
  return db
    .selectFrom('protocols')
    .select(['id', 'hash', 'start_level', 'end_level'])
    .where('network', '=', network)
    .orderBy('start_level', 'desc')
    .execute();
}

/** The stats row's contract count, or undefined when the network has no stats row. */
export async function contractsCount(db: Db, network: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('stats')
    .select('contracts_count')
    .where('network', '=', network)
    .executeTakeFirst();
  return row ? Number(row.contracts_count) : undefined;
}
