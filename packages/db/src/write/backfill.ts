/**
 * The history backfill's writes (issue 32; migrations/0270_history_backfills.sql). An adopted address's past
 * is stored as whole blocks below the network's forward range, through the forward write path
 * (`writeBlocksData` with a {@link Backfill}): the same rows a forward index writes for those blocks, with
 * ids that sort by chain order below the forward ids, counters added, and "latest" / "first" columns taken
 * from whichever block is newer / older. A block already stored is skipped, so a block is written once
 * whatever the order, the source or the number of restarts.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../schema';
import type { BlockRecord, BlockWrite, ProtocolRecord } from './blocks';
import { writeBlocksData } from './chain-data';
import { ChainConsistencyError, protocolValues } from './blocks';

type Trx = Transaction<Database>;

/**
 * The network's forward floor: the lowest level of its forward range, fixed (history_floor) the first time it
 * is asked, when no block below it is stored yet. Null when nothing is stored.
 */
export async function historyFloor(db: Db | Trx, network: string): Promise<number | null> {
  return (await floorOf(db, network))?.floor ?? null;
}

/** Slots of 2^49 ids: a network's backfilled ids lie in [−(slot + 1) × 2^49, −slot × 2^49) for floors < 2^28. */
const SLOT = 2 ** 49;

async function floorOf(db: Db | Trx, network: string): Promise<{ floor: number; offset: number } | null> {
  const read = () =>
    db
      .selectFrom('history_floor')
      .select(['floor_level', 'slot'])
      .where('network', '=', network)
      .executeTakeFirst();
  let row = await read();
  if (!row) {
    await sql`INSERT INTO history_floor (network, floor_level)
      SELECT ${network}, min(level) FROM blocks WHERE network = ${network} HAVING min(level) IS NOT NULL
      ON CONFLICT (network) DO NOTHING`.execute(db);
    row = await read();
  }
  if (!row) return null;
  if (row.slot >= 15 || row.floor_level >= 2 ** 28)
    throw new ChainConsistencyError(`[${network}] no backfill id range left (slot ${row.slot})`);
  return { floor: row.floor_level, offset: -row.slot * SLOT };
}

/** Levels of `levels` already stored (forward or backfilled). */
export async function storedLevels(db: Db, network: string, levels: number[]): Promise<Set<number>> {
  if (levels.length === 0) return new Set();
  const rows = await db
    .selectFrom('blocks')
    .select('level')
    .where('network', '=', network)
    .where('level', 'in', levels)
    .execute();
  return new Set(rows.map((r) => r.level));
}

/** The protocol row a block needs, if the database has one for its hash (else its constants must be read). */
export async function storedProtocol(
  db: Db,
  network: string,
  hash: string,
): Promise<{ costPerByte: number } | null> {
  const row = await db
    .selectFrom('protocols')
    .select('cost_per_byte')
    .where('network', '=', network)
    .where('hash', '=', hash)
    .executeTakeFirst();
  return row ? { costPerByte: row.cost_per_byte } : null;
}

/**
 * Stores one block below the forward floor, in one transaction: its protocol row (a protocol first seen here
 * is stored closed at this level, and widened as older or newer blocks of it come: never the network's
 * current one), the block, and its data as forward indexing writes it. Returns false when the block is
 * already stored. Refuses (ChainConsistencyError) a block at or above the floor: the forward index owns those.
 */
export async function writeBackfillBlock(
  db: Db,
  network: string,
  write: BlockWrite & { protocol?: ProtocolRecord },
): Promise<boolean> {
  const { block } = write;
  return db.transaction().execute(async (trx) => {
    // one writer per network: the forward writer takes the same lock
    await sql`SELECT 1 FROM indexer_state WHERE network = ${network} FOR UPDATE`.execute(trx);
    const at = await floorOf(trx, network);
    const floor = at?.floor ?? null;
    if (at === null || floor === null || block.level >= floor)
      throw new ChainConsistencyError(
        `[${network}] backfill of level ${block.level}: only levels below the forward floor ${floor ?? '(nothing stored)'} are backfilled`,
      );
    const stored = await trx
      .selectFrom('blocks')
      .select('hash')
      .where('network', '=', network)
      .where('level', '=', block.level)
      .executeTakeFirst();
    if (stored) return false;
    const protocolId = await backfillProtocol(trx, network, block, write.protocol);
    await trx
      .insertInto('blocks')
      .values({
        network,
        level: block.level,
        hash: block.hash,
        predecessor: block.predecessor,
        timestamp: block.timestamp,
        protocol_id: protocolId,
        chain_id: block.chainId,
      })
      .execute();
    if (write.data) {
      await writeBlocksData(
        trx,
        [{ b: { network, level: block.level, timestamp: block.timestamp, protocolId }, d: write.data }],
        { idBase: floor, idOffset: at.offset },
      );
      await ghostsOfUnstoredContracts(trx, network, write.data.accounts);
    }
    return true;
  });
}

/**
 * The backfill parses a block with the scripts of the contracts it calls read from the node, so its accounts
 * rows name them 'contract'; but only an origination stores a contract. A contract called in a backfilled
 * block whose origination is not stored (yet) is a 'ghost', as forward indexing marks a contract it does not
 * hold: asked for, it is then adopted (the API asks the indexer for a ghost), instead of passing for stored
 * with no contract row (its page and `GET /v1/contract` answered 'not found'). Its origination, backfilled
 * later, makes it a contract again (the accounts upsert upgrades a ghost).
 */
async function ghostsOfUnstoredContracts(
  trx: Trx,
  network: string,
  accounts: readonly { address: string; type: string }[],
): Promise<void> {
  const called = accounts.filter((a) => a.type === 'contract').map((a) => a.address);
  if (called.length === 0) return;
  await sql`UPDATE accounts a SET type = 'ghost'
    WHERE a.network = ${network} AND a.address = ANY(${called}::text[]) AND a.type = 'contract'
      AND NOT EXISTS (SELECT 1 FROM contracts c WHERE c.network = a.network AND c.address = a.address)`.execute(
    trx,
  );
}

async function backfillProtocol(
  trx: Trx,
  network: string,
  block: BlockRecord,
  protocol: ProtocolRecord | undefined,
): Promise<number> {
  const row = await trx
    .selectFrom('protocols')
    .select(['id', 'start_level', 'end_level'])
    .where('network', '=', network)
    .where('hash', '=', block.protocol)
    .executeTakeFirst();
  if (row) {
    const start = Math.min(row.start_level, block.level);
    const end = row.end_level === null ? null : Math.max(row.end_level, block.level);
    if (start !== row.start_level || end !== row.end_level)
      await trx
        .updateTable('protocols')
        .set({ start_level: start, end_level: end })
        .where('id', '=', row.id)
        .execute();
    return row.id;
  }
  if (!protocol || protocol.hash !== block.protocol)
    throw new ChainConsistencyError(
      `[${network}] backfilled block ${block.level} of protocol ${block.protocol}: no protocol record was given`,
    );
  const inserted = await trx
    .insertInto('protocols')
    .values({
      network,
      hash: protocol.hash,
      start_level: block.level,
      end_level: block.level,
      ...protocolValues(protocol),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** One address's backfill, as persisted. */
export interface BackfillJob {
  address: string;
  state: string;
  source: string | null;
  cursor: string | null;
  toLevel: number;
  fromLevel: number | null;
  covered: number;
  blocks: number;
  levelsFound: number;
}

/**
 * Opens a backfill for every address adopted (address_requests) that has none, below `floor`: the levels it
 * covers are those below the forward floor (above it, the forward index holds every block).
 */
export async function openBackfills(db: Db, network: string, floor: number): Promise<void> {
  await sql`INSERT INTO history_backfills (network, address, to_level)
    SELECT network, address, ${floor - 1} FROM address_requests
    WHERE network = ${network} AND state = 'adopted' AND ${floor} > 1
    ON CONFLICT (network, address) DO NOTHING`.execute(db);
}

/** The next backfill to work on: pending or running first (oldest), then a failed one whose retry time came. */
export async function nextBackfill(db: Db, network: string): Promise<BackfillJob | null> {
  const row = await db
    .selectFrom('history_backfills')
    .selectAll()
    .where('network', '=', network)
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['pending', 'running']),
        eb.and([eb('state', '=', 'failed'), eb('retry_at', '<=', new Date())]),
      ]),
    )
    .orderBy(sql`state = 'failed'`)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    address: row.address,
    state: row.state,
    source: row.source,
    cursor: row.cursor,
    toLevel: row.to_level,
    fromLevel: row.from_level,
    covered: row.covered,
    blocks: row.blocks,
    levelsFound: row.levels_found,
  };
}

/** Saves a backfill's progress (after a page whose blocks are all stored, or on a state change). */
export async function saveBackfill(
  db: Db,
  network: string,
  address: string,
  p: {
    state: 'pending' | 'running' | 'done' | 'failed';
    source?: string | null;
    cursor?: string | null;
    fromLevel?: number | null;
    covered?: number;
    blocks?: number;
    levelsFound?: number;
    message?: string | null;
    retryAt?: Date | null;
  },
): Promise<void> {
  await db
    .updateTable('history_backfills')
    .set({
      state: p.state,
      ...(p.source !== undefined ? { source: p.source } : {}),
      ...(p.cursor !== undefined ? { cursor: p.cursor } : {}),
      ...(p.fromLevel !== undefined ? { from_level: p.fromLevel } : {}),
      ...(p.covered !== undefined ? { covered: p.covered } : {}),
      ...(p.blocks !== undefined ? { blocks: p.blocks } : {}),
      ...(p.levelsFound !== undefined ? { levels_found: p.levelsFound } : {}),
      message: p.message ?? null,
      retry_at: p.retryAt ?? null,
      updated_at: new Date(),
    })
    .where('network', '=', network)
    .where('address', '=', address)
    .execute();
}
