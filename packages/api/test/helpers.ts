import type { Db } from '@michelscope/db';
import { buildApi, type ApiNetwork, type ApiOptions } from '../src/index';

export const NETWORKS: ApiNetwork[] = [
  {
    name: 'ghostnet',
    rpcUrl: 'http://127.0.0.1:9/ghost',
    publicRpcUrl: 'https://rpc.ghostnet.example',
    statsEnabled: true,
  },
  {
    name: 'sandboxnet',
    rpcUrl: 'http://127.0.0.1:9/sandbox',
    publicRpcUrl: 'http://localhost:8080/rpc/sandboxnet',
    statsEnabled: false,
  },
  {
    name: 'mainnet',
    rpcUrl: 'http://127.0.0.1:9/main',
    publicRpcUrl: 'https://rpc.mainnet.example',
    statsEnabled: true,
    explorerUrl: 'https://explorer.example',
  },
  {
    name: 'parisnet',
    rpcUrl: 'http://127.0.0.1:9/paris',
    publicRpcUrl: 'https://rpc.parisnet.example',
    statsEnabled: false,
  },
];

/** A settable clock for `synced` and the response cache. */
export function fakeClock(start = Date.parse('2026-01-10T12:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    set: (ms: number) => {
      t = ms;
    },
  };
}

export function makeApi(db: Db, extra: Partial<ApiOptions> = {}) {
  // no rate limit unless a test asks for one (the fuzz test alone sends thousands of requests)
  return buildApi({ db, networks: NETWORKS, rateLimit: false, ...extra });
}

export interface ProtocolSeed {
  hash: string;
  startLevel: number;
  chainId?: string;
  costPerByte?: number;
  hardGas?: number;
  hardStorage?: number;
  timeBetweenBlocks?: number;
}

export async function insertProtocol(db: Db, network: string, p: ProtocolSeed): Promise<number> {
  const row = await db
    .insertInto('protocols')
    .values({
      network,
      hash: p.hash,
      start_level: p.startLevel,
      chain_id: p.chainId ?? 'NetXdQprcVkpaWU',
      cost_per_byte: p.costPerByte ?? 250,
      hard_gas_limit_per_operation: p.hardGas ?? 1_040_000,
      hard_storage_limit_per_operation: p.hardStorage ?? 60_000,
      time_between_blocks: p.timeBetweenBlocks ?? 8,
      constants: JSON.stringify({ cost_per_byte: String(p.costPerByte ?? 250) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface BlockSeed {
  level: number;
  hash: string;
  predecessor: string;
  timestamp: Date;
  protocolId: number;
  chainId?: string;
  /** Also move indexer_state to this block (as the indexer does in the block's transaction). */
  head?: boolean;
}

export async function insertBlock(db: Db, network: string, b: BlockSeed): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('blocks')
      .values({
        network,
        level: b.level,
        hash: b.hash,
        predecessor: b.predecessor,
        timestamp: b.timestamp,
        protocol_id: b.protocolId,
        chain_id: b.chainId ?? 'NetXdQprcVkpaWU',
      })
      .execute();
    if (b.head !== false) {
      await trx
        .insertInto('indexer_state')
        .values({ network, level: b.level, hash: b.hash, timestamp: b.timestamp })
        .onConflict((oc) =>
          oc.column('network').doUpdateSet({ level: b.level, hash: b.hash, timestamp: b.timestamp }),
        )
        .execute();
    }
  });
}

/** Deletes every row so each test starts from an empty, migrated database. */
export async function clearTables(db: Db): Promise<void> {
  await db.deleteFrom('indexer_state').execute();
  await db.deleteFrom('stats').execute();
  await db.deleteFrom('blocks').execute();
  await db.deleteFrom('protocols').execute();
}
