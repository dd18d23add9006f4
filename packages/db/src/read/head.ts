import type { Db } from '../schema';

/** Where a network's indexer stands, with the protocol and constants of that head block. */
export interface HeadRow {
  network: string;
  level: number;
  hash: string;
  timestamp: Date;
  /** null when the head block row (or its protocol) is missing. */
  predecessor: string | null;
  chain_id: string | null;
  protocol: string | null;
  cost_per_byte: number | null;
  hard_gas_limit_per_operation: number | null;
  hard_storage_limit_per_operation: number | null;
  time_between_blocks: number | null;
}

/**
 * The indexed head of each of the given networks (from `indexer_state`, which the indexer writes in the
 * block's own transaction), joined with that block and its protocol row. Networks with no head are absent.
 */
export async function getHeads(db: Db, networks: readonly string[]): Promise<Map<string, HeadRow>> {
  if (networks.length === 0) return new Map();
  const rows = await db
    .selectFrom('indexer_state as s')
    .leftJoin('blocks as b', (join) =>
      join.onRef('b.network', '=', 's.network').onRef('b.level', '=', 's.level'),
    )
    .leftJoin('protocols as p', 'p.id', 'b.protocol_id')
    .select([
      's.network',
      's.level',
      's.hash',
      's.timestamp',
      'b.predecessor',
      'b.chain_id',
      'p.hash as protocol',
      'p.cost_per_byte',
      'p.hard_gas_limit_per_operation',
      'p.hard_storage_limit_per_operation',
      'p.time_between_blocks',
    ])
    .where('s.network', 'in', networks)
    .execute();
  return new Map(rows.map((row) => [row.network, { ...row, timestamp: toDate(row.timestamp) }]));
}

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
