import type { Db } from '@michelscope/db';
import type { ProtocolRegistry } from '../protocols/registry';
import type { NodeRpc } from '../rpc/client';
import type { ContractCache } from './block-data';

/** Everything the sync steps need; `head` mirrors the stored indexer_state. */
export interface ChainContext {
  db: Db;
  network: string;
  rpc: NodeRpc;
  registry: ProtocolRegistry;
  line(text: string): void;
  /** Scripts/constants read back for parsing (cleared on reorgs). */
  cache: ContractCache;
  /** cost_per_byte per protocol hash (filled from the protocols table or the constants read). */
  costPerByte: Map<string, number>;
  /** A protocol migration logs its progress every this many contracts (default 1,000). */
  migrationProgressEvery?: number;
}
