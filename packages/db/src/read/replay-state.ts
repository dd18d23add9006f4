/**
 * The state an indexed operation ran with, within its block (issue 20, replays): the chain applied the block's
 * operations in order (groups, then each group's contents, each content with its internal operations), so a
 * call at level L saw the state at the end of L-1 changed by the operations of L before it. Operation ids are
 * that order. Every query here reads rows of one block before one operation, at most {@link MAX_BLOCK_ROWS};
 * `blockAt` and `touchedAfter` serve runs pinned to a past level (a shared simulation rerun as it was).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../schema';

/** An operation's place: its block, its id (the rows before it), its group (applied then backtracked with it). */
export interface BlockPosition {
  level: number;
  beforeId: number;
  /** The operation's group: its earlier contents count as applied even when the group was backtracked. */
  hash: string | null;
}

/**
 * The rows the chain had applied at `at`: the applied ones, and the backtracked earlier contents of the
 * operation's own group.
 */
const appliedAt = (at: BlockPosition) => (eb: ExpressionBuilder<Database, 'operations'>) =>
  at.hash === null
    ? eb('status', '=', 'applied')
    : eb.or([
        eb('status', '=', 'applied'),
        eb.and([eb('status', '=', 'backtracked'), eb('hash', '=', at.hash)]),
      ]);

/** Rows of one block read at most (a block's operations are bounded by its gas limit: about 10,000). */
export const MAX_BLOCK_ROWS = 20_000;

/**
 * The tez `address` received minus the tez it sent in the block before `at` (transactions and originations the
 * chain had applied then: applied ones, and the backtracked earlier contents of the operation's own group).
 */
export async function balanceChangeInBlock(
  db: Db,
  network: string,
  address: string,
  at: BlockPosition,
): Promise<bigint> {
  const rows = await db
    .selectFrom('operations')
    .select(['source', 'destination', 'amount'])
    .where('network', '=', network)
    .where('level', '=', at.level)
    .where('id', '<', at.beforeId)
    .where('kind', 'in', ['transaction', 'origination'])
    .where((eb) => eb.or([eb('source', '=', address), eb('destination', '=', address)]))
    .where(appliedAt(at))
    .orderBy('id')
    .limit(MAX_BLOCK_ROWS)
    .execute();
  let change = 0n;
  for (const r of rows) {
    const amount = BigInt(String(r.amount ?? '0').split('.')[0] || '0');
    if (r.destination === address) change += amount;
    if (r.source === address) change -= amount;
  }
  return change;
}

/**
 * A big-map entry as the block had left it before `at`: `{ value }` (null: removed) when an earlier operation of
 * the block wrote it, `{ from }` when the map is a copy made in the block (the entry is the source map's at the
 * copy), `{ fresh: true }` when the map was allocated in the block (empty but for written keys), else undefined
 * (the entry is the one at the end of the previous level).
 */
export async function bigMapEntryInBlock(
  db: Db,
  network: string,
  ptr: number,
  keyHash: string,
  at: BlockPosition,
): Promise<{ value: unknown } | { from: { ptr: number; at: BlockPosition } } | { fresh: true } | undefined> {
  const diff = await db
    .selectFrom('big_map_diffs')
    .select(['value'])
    .where('network', '=', network)
    .where('ptr', '=', ptr)
    .where('key_hash', '=', keyHash)
    .where('level', '=', at.level)
    .where('operation_id', '<', at.beforeId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (diff) return { value: diff.value ?? null };
  const made = await db
    .selectFrom('big_map_actions')
    .select(['action', 'source_ptr', 'operation_id'])
    .where('network', '=', network)
    .where('level', '=', at.level)
    .where('operation_id', '<', at.beforeId)
    .where((eb) =>
      eb.or([
        eb.and([eb('action', '=', 'copy'), eb('destination_ptr', '=', ptr)]),
        eb.and([eb('action', '=', 'alloc'), eb('source_ptr', '=', ptr)]),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!made) return undefined;
  if (made.action === 'copy' && made.source_ptr !== null)
    return { from: { ptr: made.source_ptr, at: { ...at, beforeId: made.operation_id } } };
  return { fresh: true };
}

/** How many contracts the group had originated before `at` (the next origination's index in the group). */
export async function originationsBefore(db: Db, network: string, at: BlockPosition): Promise<number> {
  if (at.hash === null) return 0;
  const row = await db
    .selectFrom('operations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('network', '=', network)
    .where('hash', '=', at.hash)
    .where('level', '=', at.level)
    .where('kind', '=', 'origination')
    .where('status', 'in', ['applied', 'backtracked'])
    .where('id', '<', at.beforeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * What an operation recorded of its big maps: the entries it wrote (`value` null: removed; at most `limit`,
 * `more` when it wrote more) and the big maps it allocated or copied, by id (the order they were allocated in).
 */
export async function bigMapChangesOf(
  db: Db,
  network: string,
  operationId: number,
  limit = MAX_BLOCK_ROWS,
): Promise<{
  diffs: { ptr: number; key_hash: string; value: unknown }[];
  more: boolean;
  fresh: number[];
}> {
  const diffs = await db
    .selectFrom('big_map_diffs')
    .select(['ptr', 'key_hash', 'value'])
    .where('network', '=', network)
    .where('operation_id', '=', operationId)
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const made = await db
    .selectFrom('big_map_actions')
    .select(['action', 'source_ptr', 'destination_ptr'])
    .where('network', '=', network)
    .where('operation_id', '=', operationId)
    .where('action', 'in', ['alloc', 'copy'])
    .limit(limit)
    .execute();
  const fresh = made
    .map((m) => (m.action === 'alloc' ? m.source_ptr : m.destination_ptr))
    .filter((p): p is number => p !== null && p >= 0)
    .sort((a, b) => a - b);
  return {
    diffs: diffs.slice(0, limit).map((d) => ({ ptr: d.ptr, key_hash: d.key_hash, value: d.value ?? null })),
    more: diffs.length > limit,
    fresh,
  };
}

/** A block's time and chain id (a run pinned to a past level reads `now` from it), or undefined. */
export async function blockAt(
  db: Db,
  network: string,
  level: number,
): Promise<{ level: number; timestamp: Date; chain_id: string } | undefined> {
  const row = await db
    .selectFrom('blocks')
    .select(['level', 'timestamp', 'chain_id'])
    .where('network', '=', network)
    .where('level', '=', level)
    .executeTakeFirst();
  return row ? { ...row, timestamp: new Date(row.timestamp) } : undefined;
}

/**
 * Whether an applied operation reached `address` (called it, sent it tez, or was its own) after block `level`:
 * its storage, big maps or balance at the head may then differ from those at `level`.
 */
export async function touchedAfter(
  db: Db,
  network: string,
  address: string,
  level: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('operations')
    .select('id')
    .where('network', '=', network)
    .where('level', '>', level)
    .where('status', '=', 'applied')
    .where((eb) => eb.or([eb('destination', '=', address), eb('source', '=', address)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The storage bytes of contract `address` as the block had left them before `at` (a call's storage accounting):
 * `used`, the storage_size of the last call to it that the chain had applied then (undefined: none in the block,
 * its used space is the one at the end of the previous level), and `paid`, the bytes those calls paid for (to add
 * to its paid space at the end of the previous level).
 */
export async function storageSpaceInBlock(
  db: Db,
  network: string,
  address: string,
  at: BlockPosition,
): Promise<{ used: number | undefined; paid: number }> {
  const rows = await db
    .selectFrom('operations')
    .select(['storage_size', 'paid_storage_size_diff'])
    .where('network', '=', network)
    .where('level', '=', at.level)
    .where('id', '<', at.beforeId)
    .where('kind', '=', 'transaction')
    .where('destination', '=', address)
    .where(appliedAt(at))
    .orderBy('id')
    .limit(MAX_BLOCK_ROWS)
    .execute();
  let used: number | undefined;
  let paid = 0;
  for (const r of rows) {
    used = Number(r.storage_size);
    paid += Number(r.paid_storage_size_diff);
  }
  return { used, paid };
}

/**
 * The storage of contract `address` after its last applied call in the block before `at` (undefined: none, its
 * storage is the one at the end of the previous level).
 */
export async function storageInBlock(
  db: Db,
  network: string,
  address: string,
  at: BlockPosition,
): Promise<unknown> {
  const row = await db
    .selectFrom('operations')
    .select('storage')
    .where('network', '=', network)
    .where('destination', '=', address)
    .where('level', '=', at.level)
    .where('id', '<', at.beforeId)
    .where('status', '=', 'applied')
    .where('storage', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.storage ?? undefined;
}
