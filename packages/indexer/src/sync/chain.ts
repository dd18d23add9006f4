import {
  applyBlocks,
  getBlockHash,
  refuseRevertOverPruned,
  revertBlock,
  type BlockWrite,
  type ProtocolRecord,
} from '@michelscope/db/write';
import type { BlockHeader, ParsedBlock, ProtocolConstants } from '../protocols/handler';
import { InvalidNodeDataError } from '../protocols/validate';
import { RpcError } from '../rpc/client';
import { buildBlockData } from './block-data';
import type { ChainContext } from './chain-context';
import { migrateScripts, type MigrationResult } from './migrate';

export type { ChainContext } from './chain-context';

/** A fetched block: the validated header part and the raw node JSON (operations are parsed at commit). */
export type FetchedBlock = ParsedBlock & { raw: unknown };

export interface StoredHead {
  level: number;
  hash: string;
}

function protocolOf(raw: unknown): string {
  const p = typeof raw === 'object' && raw !== null ? (raw as { protocol?: unknown }).protocol : undefined;
  return typeof p === 'string' ? p : '';
}

/** GET /chains/main/blocks/{id}/header, validated. */
export async function fetchHeader(ctx: ChainContext, id: number | 'head'): Promise<BlockHeader> {
  const raw = await ctx.rpc.get(`/chains/main/blocks/${id}/header`);
  return ctx.registry.get(protocolOf(raw)).parseHeader(raw, `header of block ${id}`);
}

/** GET /chains/main/blocks/{level}, validated; the node must answer the level that was asked for. */
export async function fetchBlock(ctx: ChainContext, level: number): Promise<FetchedBlock> {
  const raw = await ctx.rpc.get(`/chains/main/blocks/${level}`);
  const block = ctx.registry.get(protocolOf(raw)).parseBlock(raw, `block ${level}`);
  if (block.level !== level)
    throw new InvalidNodeDataError(`block ${level}: the node answered level ${block.level}`);
  return { ...block, raw };
}

/** Constants of a protocol read at its first block; none for genesis-like protocols. */
export async function fetchConstants(ctx: ChainContext, block: ParsedBlock): Promise<ProtocolConstants> {
  const handler = ctx.registry.get(block.protocol);
  const none: ProtocolConstants = {
    costPerByte: 0,
    hardGasLimitPerOperation: 0,
    hardStorageLimitPerOperation: 0,
    timeBetweenBlocks: 0,
    raw: {},
  };
  if (!handler.hasConstants) return none;
  try {
    const raw = await ctx.rpc.get(`/chains/main/blocks/${block.level}/context/constants`);
    return handler.parseConstants(raw, `constants of ${block.protocol} at level ${block.level}`);
  } catch (err) {
    if (err instanceof RpcError && err.kind === 'not_found') {
      ctx.line(
        `protocol ${block.protocol} has no constants at level ${block.level}; storing it without constants`,
      );
      return none;
    }
    throw err;
  }
}

/** A block parsed and ready to store, with the log line to print once it is stored. */
export interface PreparedBlock {
  write: BlockWrite;
  /** Rows it writes (operations + big-map diffs): sizes the batches. */
  rows: number;
  note: string | null;
}

/** The protocol row a block starts (its first block), from the protocol's constants. */
export function protocolRecord(block: FetchedBlock, c: ProtocolConstants): ProtocolRecord {
  return {
    hash: block.protocol,
    chainId: block.chainId,
    startLevel: block.level,
    costPerByte: c.costPerByte,
    hardGasLimitPerOperation: c.hardGasLimitPerOperation,
    hardStorageLimitPerOperation: c.hardStorageLimitPerOperation,
    timeBetweenBlocks: c.timeBetweenBlocks,
    constants: c.raw,
  };
}

/** The block's own row. */
export function blockRow(block: FetchedBlock) {
  return {
    level: block.level,
    hash: block.hash,
    predecessor: block.predecessor,
    timestamp: block.timestamp,
    chainId: block.chainId,
    protocol: block.protocol,
  };
}

/**
 * Parses `block` (above a block of `currentProtocol`) into what `applyBlocks` stores: the protocol row
 * (with its constants, fetched from the node) when the block starts a protocol, and the block's data. The
 * contracts it originates are remembered by the cache for the blocks parsed after it.
 */
export async function prepareBlock(
  ctx: ChainContext,
  block: FetchedBlock,
  currentProtocol: string | null,
): Promise<PreparedBlock> {
  let protocol: ProtocolRecord | undefined;
  if (block.protocol !== currentProtocol) {
    const c = await fetchConstants(ctx, block);
    protocol = protocolRecord(block, c);
  }
  if (protocol) ctx.costPerByte.set(protocol.hash, protocol.costPerByte);
  // A change of script generation migrates contract scripts before the block's operations run.
  let migration: MigrationResult | undefined;
  const plan = migratesScripts(ctx, block.protocol, currentProtocol);
  if (plan && currentProtocol !== null) {
    migration = await migrateScripts(ctx, block.level, currentProtocol, block.protocol, plan);
    ctx.cache.migrated(block.level, migration.changed);
  }
  const costPerByte = ctx.costPerByte.get(block.protocol) ?? (await storedCostPerByte(ctx, block.protocol));
  const data = await buildBlockData(
    ctx.rpc,
    ctx.cache,
    ctx.registry.get(block.protocol).era,
    costPerByte,
    block,
  );
  if (migration) data.scriptMigration = migration.migration;
  ctx.cache.remember(block.level, data);
  return {
    write: {
      block: blockRow(block),
      ...(protocol ? { protocol } : {}),
      data,
    },
    rows:
      data.operations.length +
      data.bigMapDiffs.length +
      (migration ? migration.migration.contracts.length + migration.migration.legacyPointers.length : 0),
    note:
      protocol && currentProtocol !== null
        ? `protocol ${protocol.hash} starts at level ${block.level} (after ${currentProtocol})`
        : null,
  };
}

/**
 * What a block of `protocol` above a block of `currentProtocol` does to contract scripts (null: nothing). The
 * follower stores every block below such a block before preparing it: the migration reads the stored contracts.
 */
export function migratesScripts(
  ctx: ChainContext,
  protocol: string,
  currentProtocol: string | null,
): { legacyBigMaps: boolean } | null {
  if (currentProtocol === null || protocol === currentProtocol) return null;
  return ctx.registry.scriptMigration(currentProtocol, protocol);
}

/** Stores prepared consecutive blocks in one transaction, then logs their notes. */
export async function storeBlocks(ctx: ChainContext, blocks: PreparedBlock[]): Promise<void> {
  await applyBlocks(
    ctx.db,
    ctx.network,
    blocks.map((b) => b.write),
  );
  ctx.cache.stored(blocks[blocks.length - 1]!.write.block.level);
  for (const b of blocks) if (b.note) ctx.line(b.note);
}

/** Stores `block` on top of a block of `currentProtocol` in one transaction (prepareBlock + storeBlocks). */
export async function commitBlock(
  ctx: ChainContext,
  block: FetchedBlock,
  currentProtocol: string | null,
): Promise<void> {
  await storeBlocks(ctx, [await prepareBlock(ctx, block, currentProtocol)]);
}

/**
 * The node's chain and ours differ at or below `fromLevel`: walks back (node headers vs stored hashes)
 * to the highest level where both agree, then reverts stored blocks from `head` down, one transaction
 * per block. Returns the new stored head (null when nothing is left).
 */
export async function revertToCommonAncestor(
  ctx: ChainContext,
  head: StoredHead,
  fromLevel: number,
): Promise<StoredHead | null> {
  let level = Math.min(fromLevel, head.level);
  let ancestor: StoredHead | null = null;
  while (level >= 0) {
    const stored = await getBlockHash(ctx.db, ctx.network, level);
    if (stored === null) break;
    const node = await fetchHeader(ctx, level);
    if (node.hash === stored) {
      ancestor = { level, hash: stored };
      break;
    }
    level--;
  }
  const bottom = ancestor ? ancestor.level + 1 : level + 1;
  // blocks backfilled after the lowest one were written: their before-images must still be there (nothing is
  // reverted otherwise)
  if (bottom <= head.level) await refuseRevertOverPruned(ctx.db, ctx.network, bottom);
  ctx.cache.clear();
  let current: StoredHead | null = head;
  for (let l = head.level; l >= bottom; l--) current = await revertBlock(ctx.db, ctx.network, l);
  const count = head.level - bottom + 1;
  ctx.line(
    count > 0
      ? `reorg: reverted ${count} block(s) from level ${head.level} down to ${bottom}; the chains agree at ${ancestor ? `level ${ancestor.level}` : 'no stored level'}`
      : `reorg check: the stored head ${head.level} is on the node's chain`,
  );
  return current ? { level: current.level, hash: current.hash } : null;
}

async function storedCostPerByte(ctx: ChainContext, hash: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('protocols')
    .select('cost_per_byte')
    .where('network', '=', ctx.network)
    .where('hash', '=', hash)
    .executeTakeFirst();
  const v = row?.cost_per_byte ?? 0;
  ctx.costPerByte.set(hash, v);
  return v;
}
