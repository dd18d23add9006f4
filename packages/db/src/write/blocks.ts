import { sql, type Transaction } from 'kysely';
import { deferred } from './copy';
import type { Database, Db } from '../schema';
import type { BlockData } from './block-data';
import { revertBlockData, writeBlocksData, type BlockContext } from './chain-data';
import { revertBackfilledAfter } from './backfill-undo';
import { backfillUndoKept } from './undo';
import { encodeLiveNotice, LIVE_CHANNEL_PREFIX, type LiveNotice } from '../live';

/** One block as the indexer stores it (already validated by the indexer's protocol handler). */
export interface BlockRecord {
  level: number;
  hash: string;
  predecessor: string;
  timestamp: Date;
  chainId: string;
  /** Hash of the protocol that validated this block (the block's `protocol` field). */
  protocol: string;
}

/** A protocol as first seen at `startLevel`, with the constants read at that level. */
export interface ProtocolRecord {
  hash: string;
  chainId: string;
  startLevel: number;
  costPerByte: number;
  hardGasLimitPerOperation: number;
  hardStorageLimitPerOperation: number;
  /** Seconds between blocks (`minimal_block_delay`, or `time_between_blocks[0]` before Granada). */
  timeBetweenBlocks: number;
  /** The full `/context/constants` object. */
  constants: Record<string, unknown>;
}

/** Where a network's indexer stands. */
export interface IndexerHead {
  level: number;
  hash: string;
  timestamp: Date;
}

/** The database does not hold what the caller expected (another writer, or a bug): nothing was written. */
export class ChainConsistencyError extends Error {
  override name = 'ChainConsistencyError';
}

type Trx = Transaction<Database>;

/** One block of a batch given to `applyBlocks`. */
export interface BlockWrite {
  block: BlockRecord;
  /** Required when `block.protocol` is not the protocol of the block below it. */
  protocol?: ProtocolRecord;
  /** The block's parsed operations and what they produce (chain-data.ts). */
  data?: BlockData;
}

/**
 * Stores one block in one transaction: the protocol row when the protocol changes (closing the previous
 * protocol at level - 1), the block row, the network's stats row (created once) and `indexer_state`.
 * The block must extend the stored head (same predecessor hash, next level); otherwise nothing is written
 * and a ChainConsistencyError is thrown. `protocol` is required when `block.protocol` is not the
 * network's current protocol. `data` = the block's parsed operations and what they produce (chain-data.ts).
 */
export async function applyBlock(
  db: Db,
  network: string,
  block: BlockRecord,
  protocol?: ProtocolRecord,
  data?: BlockData,
): Promise<void> {
  await applyBlocks(db, network, [{ block, ...(protocol ? { protocol } : {}), ...(data ? { data } : {}) }]);
}

/**
 * Stores consecutive blocks (each extending the one before it, the first extending the stored head) in
 * ONE transaction, as `applyBlock` would one after the other: the rows, ids, before-images and final
 * `indexer_state` are the same as with one transaction per block, so a reorg still reverts them one level
 * at a time, and a crash leaves either all of them or none (the stored level moves with the rows).
 * Used while catching up, where one commit per block costs more than the writing.
 */
export async function applyBlocks(db: Db, network: string, writes: BlockWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const lz4 = await lz4Supported(db);
  await db.transaction().execute(async (trx) => {
    // Large values (operation storage and parameters, scripts) are TOASTed: lz4 costs a fraction of the
    // default pglz's CPU, which mostly fails to compress Micheline JSON anyway (PostgreSQL built with lz4).
    if (lz4) await deferred(sql`SET LOCAL default_toast_compression = 'lz4'`).execute(trx);
    const head = await lockHead(trx, network);
    let below: { level: number; hash: string } | undefined = head;
    for (const { block } of writes) {
      if (below && (below.level !== block.level - 1 || below.hash !== block.predecessor)) {
        throw new ChainConsistencyError(
          `[${network}] block ${block.hash} at level ${block.level} (predecessor ${block.predecessor}) does not extend the stored head ${below.hash} at level ${below.level}`,
        );
      }
      below = block;
    }
    const contexts: BlockContext[] = [];
    for (const { block, protocol } of writes) {
      const protocolId = await resolveProtocol(trx, network, block, protocol);
      contexts.push({ network, level: block.level, timestamp: block.timestamp, protocolId });
    }
    await deferred(sql`INSERT INTO blocks (network, level, hash, predecessor, timestamp, protocol_id, chain_id)
      SELECT ${network}, r.level, r.hash, r.predecessor, r.timestamp, r.protocol_id, r.chain_id
      FROM jsonb_to_recordset(${JSON.stringify(
        writes.map(({ block }, i) => ({
          level: block.level,
          hash: block.hash,
          predecessor: block.predecessor,
          timestamp: block.timestamp.toISOString(),
          protocol_id: contexts[i]!.protocolId,
          chain_id: block.chainId,
        })),
      )}::jsonb) AS r(level integer, hash text, predecessor text, timestamp timestamptz, protocol_id integer, chain_id text)
      ORDER BY r.level`).execute(trx);
    await deferred(
      sql`INSERT INTO stats (network) VALUES (${network}) ON CONFLICT (network) DO NOTHING`,
    ).execute(trx);
    await writeBlocksData(
      trx,
      writes.flatMap(({ data }, i) => (data ? [{ b: contexts[i]!, d: data }] : [])),
    );
    const top = writes[writes.length - 1]!.block;
    await deferred(sql`INSERT INTO indexer_state (network, level, hash, timestamp, updated_at)
      VALUES (${network}, ${top.level}, ${top.hash}, ${top.timestamp}, now())
      ON CONFLICT (network) DO UPDATE SET level = excluded.level, hash = excluded.hash, timestamp = excluded.timestamp,
        updated_at = excluded.updated_at`).execute(trx);
    // delivered to the listeners at COMMIT, never for a rolled-back write (db/src/live.ts)
    await notifyLive(trx, blockNotice(network, writes));
  });
}

/** The live notice of stored blocks: the top one as the head, and what they touched. */
function blockNotice(network: string, writes: BlockWrite[]): LiveNotice {
  const addresses = new Set<string>();
  const bigMaps = new Set<number>();
  const operations = new Set<string>();
  for (const { data } of writes) {
    if (!data) continue;
    for (const a of data.accounts) addresses.add(a.address);
    for (const o of data.operations) {
      if (o.source) addresses.add(o.source);
      if (o.destination) addresses.add(o.destination);
      if (o.hash) operations.add(o.hash);
    }
    for (const d of data.bigMapDiffs) bigMaps.add(d.ptr);
    for (const a of data.bigMapActions) {
      if (a.source_ptr !== null) bigMaps.add(a.source_ptr);
      if (a.destination_ptr !== null) bigMaps.add(a.destination_ptr);
    }
  }
  const top = writes[writes.length - 1]!.block;
  return {
    kind: 'block',
    network,
    level: top.level,
    from: writes[0]!.block.level,
    hash: top.hash,
    time: top.timestamp.toISOString(),
    protocol: top.protocol,
    addresses: [...addresses],
    bigMaps: [...bigMaps],
    operations: [...operations],
  };
}

async function notifyLive(trx: Trx, notice: LiveNotice): Promise<void> {
  await deferred(
    sql`SELECT pg_notify(${LIVE_CHANNEL_PREFIX} || current_schema(), ${encodeLiveNotice(notice)})`,
  ).execute(trx);
}

/**
 * Refuses (ChainConsistencyError) to revert the forward block at `level` when blocks backfilled after it was
 * written no longer have their before-images (undo.ts pruneBackfilled: kept only within FINALITY of the head):
 * a reorg deeper than finality, which would otherwise restore rows without what those blocks added.
 */
export async function refuseRevertOverPruned(db: Trx | Db, network: string, level: number): Promise<void> {
  if (!(await backfillUndoKept(db, network, level)))
    throw new ChainConsistencyError(
      `[${network}] cannot revert level ${level}: blocks backfilled after it was stored no longer have their before-images (kept only while a block within finality of the head precedes them), a reorg deeper than finality; that block is not reverted: use a node of the indexed chain or reset this network's data`,
    );
}

/**
 * Reverts the stored head block of a network (it must be at `level`) in one transaction: deletes the block
 * and what was written for it (the protocol row it opened, re-opening the previous protocol) and moves
 * `indexer_state` back to the block below, or removes it when no block is left. Returns the new head.
 */
export async function revertBlock(db: Db, network: string, level: number): Promise<IndexerHead | null> {
  return db.transaction().execute(async (trx) => {
    const head = await lockHead(trx, network);
    if (!head || head.level !== level) {
      throw new ChainConsistencyError(
        `[${network}] cannot revert level ${level}: the stored head is ${head ? `level ${head.level}` : 'empty'}`,
      );
    }
    await refuseRevertOverPruned(trx, network, level);
    await revertBackfilledAfter(trx, network, level);
    await revertBlockData(trx, network, level);
    const removed = await trx
      .deleteFrom('blocks')
      .where('network', '=', network)
      .where('level', '=', level)
      .returning('protocol_id')
      .executeTakeFirst();
    if (removed) {
      const opened = await trx
        .deleteFrom('protocols')
        .where('id', '=', removed.protocol_id)
        .where('start_level', '=', level)
        .returning('id')
        .executeTakeFirst();
      if (opened) {
        await trx
          .updateTable('protocols')
          .set({ end_level: null })
          .where('network', '=', network)
          .where('end_level', '=', level - 1)
          .execute();
      }
    }
    const below = await trx
      .selectFrom('blocks')
      .select(['level', 'hash', 'timestamp'])
      .where('network', '=', network)
      .where('level', '<', level)
      .orderBy('level', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!below) {
      await trx.deleteFrom('indexer_state').where('network', '=', network).execute();
      await notifyLive(trx, { kind: 'revert', network, level: -1, hash: '' });
      return null;
    }
    await notifyLive(trx, { kind: 'revert', network, level: below.level, hash: below.hash });
    await trx
      .updateTable('indexer_state')
      .set({ level: below.level, hash: below.hash, timestamp: below.timestamp, updated_at: new Date() })
      .where('network', '=', network)
      .execute();
    return { level: below.level, hash: below.hash, timestamp: below.timestamp };
  });
}

const LZ4 = new WeakMap<Db, Promise<boolean>>();

/** Whether the server can compress with lz4 (PostgreSQL built with it; not PGlite), asked once per database. */
function lz4Supported(db: Db): Promise<boolean> {
  let p = LZ4.get(db);
  if (!p) {
    p = sql<{
      ok: boolean;
    }>`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`
      .execute(db)
      .then((r) => r.rows[0]?.ok === true)
      .catch(() => false);
    LZ4.set(db, p);
  }
  return p;
}

/** The stored head of a network, locked for the rest of the transaction (one writer per network). */
async function lockHead(trx: Trx, network: string): Promise<IndexerHead | undefined> {
  const rows =
    await sql<IndexerHead>`SELECT level, hash, timestamp FROM indexer_state WHERE network = ${network} FOR UPDATE`.execute(
      trx,
    );
  return rows.rows[0];
}

/** A protocol row's columns that come from its constants (its levels are the caller's). */
export function protocolValues(protocol: ProtocolRecord) {
  return {
    chain_id: protocol.chainId,
    cost_per_byte: protocol.costPerByte,
    hard_gas_limit_per_operation: protocol.hardGasLimitPerOperation,
    hard_storage_limit_per_operation: protocol.hardStorageLimitPerOperation,
    time_between_blocks: protocol.timeBetweenBlocks,
    constants: JSON.stringify(protocol.constants),
  };
}

async function resolveProtocol(
  trx: Trx,
  network: string,
  block: BlockRecord,
  protocol: ProtocolRecord | undefined,
): Promise<number> {
  const current = await trx
    .selectFrom('protocols')
    .select(['id', 'hash'])
    .where('network', '=', network)
    .where('end_level', 'is', null)
    .orderBy('start_level', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (current?.hash === block.protocol) return current.id;
  if (!protocol || protocol.hash !== block.protocol) {
    throw new ChainConsistencyError(
      `[${network}] block ${block.level} starts protocol ${block.protocol} but no protocol record was given`,
    );
  }
  if (current) {
    await trx
      .updateTable('protocols')
      .set({ end_level: block.level - 1 })
      .where('id', '=', current.id)
      .execute();
  }
  const values = { start_level: protocol.startLevel, end_level: null, ...protocolValues(protocol) };
  // A protocol seen again (a reorg that crossed its activation, or a network reset) takes the new values.
  const row = await trx
    .insertInto('protocols')
    .values({ network, hash: protocol.hash, ...values })
    .onConflict((oc) => oc.columns(['network', 'hash']).doUpdateSet(values))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
