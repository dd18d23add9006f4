import type { Db } from '../schema';
import type { IndexerHead } from './blocks';

/** What the writer reads back: its head, stored hashes (reorg checks) and the current protocol. */

export async function getIndexerHead(db: Db, network: string): Promise<IndexerHead | null> {
  const row = await db
    .selectFrom('indexer_state')
    .select(['level', 'hash', 'timestamp'])
    .where('network', '=', network)
    .executeTakeFirst();
  return row ?? null;
}

/** The stored block hash at `level`, or null when that level is not stored. */
export async function getBlockHash(db: Db, network: string, level: number): Promise<string | null> {
  const row = await db
    .selectFrom('blocks')
    .select('hash')
    .where('network', '=', network)
    .where('level', '=', level)
    .executeTakeFirst();
  return row?.hash ?? null;
}

export interface CurrentProtocol {
  id: number;
  hash: string;
  startLevel: number;
  chainId: string;
}

/** The open protocol of a network (the one of the stored head), or null before the first block. */
export async function getCurrentProtocol(db: Db, network: string): Promise<CurrentProtocol | null> {
  const row = await db
    .selectFrom('protocols')
    .select(['id', 'hash', 'start_level', 'chain_id'])
    .where('network', '=', network)
    .where('end_level', 'is', null)
    .orderBy('start_level', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, hash: row.hash, startLevel: row.start_level, chainId: row.chain_id } : null;
}
