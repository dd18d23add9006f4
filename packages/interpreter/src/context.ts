/**
 * What the interpreter needs from the chain: given by the caller (the sandbox, a TZT file, a test).
 * Every method is optional; a missing one behaves like an empty chain.
 */
import type { Expr, Ty } from './types';

export interface ContractInfo {
  /** The `parameter` type expression, with its field annotations (entrypoints). */
  parameter: Expr;
  /** For views: storage type and current value, balance. */
  storageType?: Expr;
  storage?: Expr;
  balance?: bigint;
  /** On-chain views: name -> {input, output, code}. */
  views?: Record<string, { input: Expr; output: Expr; code: Expr }>;
}

export interface ChainContext {
  /** Originated contracts (KT1) known to the chain; implicit accounts need no entry. */
  contract?(address: string): ContractInfo | null;
  /** Key and value types of an existing big map, or null when unknown. */
  bigMapTypes?(id: bigint): { key: Ty; value: Ty } | null;
  /** Value stored under `key` (its script-expression hash is given too), or null. */
  bigMapGet?(id: bigint, key: Expr, keyHash: string): Expr | null;
  /** Memo size of a stored Sapling state, or null when there is no state of this id. */
  saplingMemoSize?(id: bigint): number | null;
  /** Global constants by `expr…` hash (used when parsing code). */
  globalConstant?(hash: string): Expr | null;
  /** Address given to the n-th contract originated by CREATE_CONTRACT in this operation. */
  originatedAddress?(index: number): string;
  /** Address registry (Tallinn INDEX_ADDRESS / GET_ADDRESS_INDEX); `create` allocates the next index. */
  addressIndex?(address: string, create: boolean): bigint | null;
  votingPower?(keyHash: string): bigint;
  totalVotingPower?(): bigint;
}

/** The "who/when/how much" of one execution. Addresses are base58 strings. */
export interface ExecEnv {
  self: string;
  /** SELF's full parameter type with annotations; needed by SELF and SELF %ep. */
  selfParameter?: Expr;
  sender: string;
  source: string;
  amount: bigint;
  balance: bigint;
  now: bigint;
  level: bigint;
  chainId: string;
  minBlockTime?: bigint;
}

export const ZERO_PKH = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';
export const DEFAULT_CHAIN_ID = 'NetXdQprcVkpaWU';

export function defaultEnv(partial: Partial<ExecEnv> = {}): ExecEnv {
  return {
    self: 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi',
    sender: ZERO_PKH,
    source: ZERO_PKH,
    amount: 0n,
    balance: 0n,
    now: 0n,
    level: 0n,
    chainId: DEFAULT_CHAIN_ID,
    minBlockTime: 6n,
    ...partial,
  };
}
