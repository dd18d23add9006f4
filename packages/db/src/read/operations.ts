import { sql, type Selectable } from 'kysely';
import type { Db, OperationsTable } from '../schema';
import { toDate } from './contracts';

/** An operation row with its protocol hash; int8 columns as numbers, `amount` as a decimal string. */
export type OperationRow = Selectable<OperationsTable> & { protocol: string };

function opQuery(db: Db) {
  return db
    .selectFrom('operations as o')
    .leftJoin('protocols as p', 'p.id', 'o.protocol_id')
    .selectAll('o')
    .select(sql<string>`coalesce(p.hash, '')`.as('protocol'));
}

function toRow(r: Record<string, unknown>): OperationRow {
  return {
    ...(r as unknown as OperationRow),
    timestamp: toDate(r.timestamp),
    amount: String((r.amount as string | number | null) ?? '0'),
  };
}

/** Operations of a group, `level desc, counter desc, id asc` (`/opg/{network}/{hash}`). */
export async function operationsByHash(
  db: Db,
  network: string,
  hash: string,
  limit = 1000,
): Promise<OperationRow[]> {
  const rows = await opQuery(db)
    .where('o.network', '=', network)
    .where('o.hash', '=', hash)
    .orderBy('o.level', 'desc')
    .orderBy('o.counter', 'desc')
    .orderBy('o.id', 'asc')
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

/** One content and its internal operations (`/opg/{network}/{hash}/{counter}`), id asc. */
export async function operationsByHashCounter(
  db: Db,
  network: string,
  hash: string,
  counter: number,
): Promise<OperationRow[]> {
  const rows = await opQuery(db)
    .where('o.network', '=', network)
    .where('o.hash', '=', hash)
    .where('o.counter', '=', counter)
    .orderBy('o.id', 'asc')
    .limit(1000)
    .execute();
  return rows.map(toRow);
}

/** Implicit operations (no hash) of block `level`: stored with `counter = level`. */
export async function implicitOperations(db: Db, network: string, level: number): Promise<OperationRow[]> {
  const rows = await opQuery(db)
    .where('o.network', '=', network)
    .where('o.hash', 'is', null)
    .where('o.level', '=', level)
    .where((eb) => eb.or([eb('o.counter', '=', level), eb('o.counter', 'is', null)]))
    .orderBy('o.id', 'asc')
    .limit(1000)
    .execute();
  return rows.map(toRow);
}

export async function operationById(db: Db, network: string, id: number): Promise<OperationRow | undefined> {
  const row = await opQuery(db).where('o.network', '=', network).where('o.id', '=', id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/**
 * The storage before `op`: the latest applied operation to the same destination with a stored storage and a
 * smaller id (§6.2), or undefined.
 */
export async function previousStorage(
  db: Db,
  network: string,
  destination: string,
  beforeId: number,
): Promise<{ id: number; storage: unknown } | undefined> {
  return db
    .selectFrom('operations')
    .select(['id', 'storage'])
    .where('network', '=', network)
    .where('destination', '=', destination)
    .where('status', '=', 'applied')
    .where('storage', 'is not', null)
    .where('id', '<', beforeId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The latest stored storage of a contract (optionally at block `level`), from applied operations. */
export async function latestStorage(
  db: Db,
  network: string,
  address: string,
  level?: number,
): Promise<{ id: number; level: number; storage: unknown } | undefined> {
  let q = db
    .selectFrom('operations')
    .select(['id', 'level', 'storage'])
    .where('network', '=', network)
    .where('destination', '=', address)
    .where('status', '=', 'applied')
    .where('storage', 'is not', null);
  if (level !== undefined) q = q.where('level', '=', level);
  return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/**
 * The latest applied call of an entrypoint of a contract (entrypoint schema `fill_type=latest`), stored
 * under any of `names` (an entrypoint's name and the reference's old name of it).
 */
export async function latestCall(
  db: Db,
  network: string,
  address: string,
  names: readonly string[],
): Promise<OperationRow | undefined> {
  if (names.length === 0) return undefined;
  const row = await opQuery(db)
    .where('o.network', '=', network)
    .where('o.destination', '=', address)
    .where('o.kind', '=', 'transaction')
    .where('o.status', '=', 'applied')
    .where('o.entrypoint', 'in', [...names])
    .where('o.parameters', 'is not', null)
    .orderBy('o.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** The origination of a contract (storage schema `fill_type=initial`). */
export async function originationOf(
  db: Db,
  network: string,
  address: string,
): Promise<OperationRow | undefined> {
  const row = await opQuery(db)
    .where('o.network', '=', network)
    .where('o.destination', '=', address)
    .where('o.kind', 'in', ['origination', 'origination_new'])
    .where('o.status', '=', 'applied')
    .orderBy('o.id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Events emitted by a contract, newest first. */
export async function contractEvents(
  db: Db,
  network: string,
  address: string,
  size: number,
  offset: number,
): Promise<OperationRow[]> {
  const rows = await opQuery(db)
    .where('o.network', '=', network)
    .where('o.source', '=', address)
    .where('o.kind', '=', 'event')
    .orderBy('o.id', 'desc')
    .limit(size)
    .offset(offset)
    .execute();
  return rows.map(toRow);
}

/** Big-map diffs written by an operation (ordered as written). */
export async function bigMapDiffsOfOperation(
  db: Db,
  operationId: number,
): Promise<Array<{ id: number; ptr: number; key: unknown; key_hash: string; value: unknown }>> {
  return db
    .selectFrom('big_map_diffs')
    .select(['id', 'ptr', 'key', 'key_hash', 'value'])
    .where('operation_id', '=', operationId)
    .orderBy('id')
    .execute();
}

/** Latest value of each key (ptr, key_hash) written before diff id `beforeId` (a removal gives null). */
export async function previousKeyValues(
  db: Db,
  network: string,
  keys: ReadonlyArray<{ ptr: number; key_hash: string }>,
  beforeId: number,
): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const k of keys) {
    const row = await db
      .selectFrom('big_map_diffs')
      .select(['value'])
      .where('network', '=', network)
      .where('ptr', '=', k.ptr)
      .where('key_hash', '=', k.key_hash)
      .where('id', '<', beforeId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row) out.set(`${k.ptr}:${k.key_hash}`, row.value);
  }
  return out;
}
