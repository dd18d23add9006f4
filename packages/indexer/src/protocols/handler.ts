import { tenderbakeEra, type EraHandler } from '../parse/era';
import {
  asObject,
  InvalidNodeDataError,
  readBlockHash,
  readChainId,
  readCount,
  readLevel,
  readProtocolHash,
  readTimestamp,
  type Obj,
} from './validate';

/** What every handler extracts from `/blocks/{id}/header` (the shell header plus hash, protocol, chain). */
export interface BlockHeader {
  level: number;
  hash: string;
  predecessor: string;
  timestamp: Date;
  /** The protocol that validated this block. */
  protocol: string;
  chainId: string;
}

/** What a handler extracts from a full `/blocks/{level}` answer (v0: the header part only). */
export interface ParsedBlock extends BlockHeader {
  /** The protocol of the next block (differs from `protocol` on a migration block). */
  nextProtocol: string | null;
}

export interface ProtocolConstants {
  costPerByte: number;
  hardGasLimitPerOperation: number;
  hardStorageLimitPerOperation: number;
  /** Seconds between blocks. */
  timeBetweenBlocks: number;
  raw: Record<string, unknown>;
}

/**
 * How the indexer reads the data of one protocol. A protocol that changes something spreads the previous
 * handler and overrides only that (see registry.ts). v0 handlers parse headers and constants; operation
 * parsers join here later.
 */
/**
 * The generation of contract scripts a protocol runs: Babylon (005) rewrote pre-Babylon scripts and gave their
 * big maps real pointers; Jakarta (013) rewrote some again. A change of generation between two protocols
 * re-reads every contract's script (§6.12 `update` migrations).
 */
export type ScriptGeneration = 'alpha' | 'babylon' | 'jakarta';

export interface ProtocolHandler {
  /** Short name of the protocol family, e.g. `granada`. */
  readonly name: string;
  /** False for genesis/activation protocols, which have no `/context/constants`. */
  readonly hasConstants: boolean;
  parseHeader(raw: unknown, where: string): BlockHeader;
  parseBlock(raw: unknown, where: string): ParsedBlock;
  parseConstants(raw: unknown, where: string): ProtocolConstants;
  /** How this protocol's operation receipts are read (big-map diffs, gas, consensus kinds). */
  readonly era: EraHandler;
  /** Script generation; null for genesis/activation protocols (never a migration from or to them). */
  readonly scriptGeneration: ScriptGeneration | null;
}

/** Reads the fields of the block header shared by every protocol. */
export function parseShellHeader(header: Obj, top: Obj, where: string): BlockHeader {
  const level = readLevel(header, 'level', where);
  const hash = readBlockHash(top, 'hash', where);
  const predecessor = readBlockHash(header, 'predecessor', where);
  if (level > 0 && predecessor === hash)
    throw new InvalidNodeDataError(`${where}: predecessor equals the block's own hash`);
  return {
    level,
    hash,
    predecessor,
    timestamp: readTimestamp(header, 'timestamp', where),
    protocol: readProtocolHash(top, 'protocol', where),
    chainId: readChainId(top, 'chain_id', where),
  };
}

/** Constants of Granada and later: `minimal_block_delay`. */
function parseModernConstants(raw: unknown, where: string): ProtocolConstants {
  const c = asObject(raw, where);
  return { ...limits(c, where), timeBetweenBlocks: readCount(c, 'minimal_block_delay', where), raw: c };
}

/** Constants before Granada: the first entry of `time_between_blocks` (bcdhub's fallback: 30 s). */
function parseLegacyConstants(raw: unknown, where: string): ProtocolConstants {
  const c = asObject(raw, where);
  const tbb = c.time_between_blocks;
  const first: unknown = Array.isArray(tbb) ? (tbb as unknown[])[0] : undefined;
  const timeBetweenBlocks =
    first === undefined ? 30 : readCount({ first }, 'first', `${where} time_between_blocks`);
  return { ...limits(c, where), timeBetweenBlocks, raw: c };
}

function limits(c: Obj, where: string) {
  return {
    costPerByte: readCount(c, 'cost_per_byte', where),
    hardGasLimitPerOperation: readCount(c, 'hard_gas_limit_per_operation', where),
    hardStorageLimitPerOperation: readCount(c, 'hard_storage_limit_per_operation', where),
  };
}

/** The handler of current protocols, also used for hashes the registry does not know. */
export const modernHandler: ProtocolHandler = {
  name: 'default',
  hasConstants: true,
  era: tenderbakeEra,
  scriptGeneration: 'jakarta',
  parseHeader(raw, where) {
    const top = asObject(raw, where);
    return parseShellHeader(top, top, where);
  },
  parseBlock(raw, where) {
    const top = asObject(raw, where);
    const header = parseShellHeader(asObject(top.header, `${where} header`), top, where);
    const metadata = top.metadata;
    let nextProtocol: string | null = null;
    if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
      const meta = metadata as Obj;
      if (
        meta.protocol !== undefined &&
        readProtocolHash(meta, 'protocol', `${where} metadata`) !== header.protocol
      ) {
        throw new InvalidNodeDataError(
          `${where}: metadata.protocol differs from the block's protocol ${header.protocol}`,
        );
      }
      if (meta.next_protocol !== undefined)
        nextProtocol = readProtocolHash(meta, 'next_protocol', `${where} metadata`);
    }
    return { ...header, nextProtocol };
  },
  parseConstants: parseModernConstants,
};

export const legacyConstantsParser = parseLegacyConstants;
export const modernConstantsParser = parseModernConstants;
