/**
 * The fee a wallet would propose for a call: Taquito's own `Estimate` (the class the sandbox wallet's estimate
 * comes from, apps/web …/wallet/sandbox-wallet.ts), fed as Taquito's RPC estimator feeds it: the consumed milligas
 * plus 100 gas, the paid storage plus 20 bytes, and the forged size of the operation plus its signature. Only the
 * estimate module is loaded (no RPC client).
 */
import { createRequire } from 'node:module';
import { encodeExpr } from '@michelscope/interpreter';
import { NAMED_ENTRYPOINTS, type Micheline } from '@michelscope/michelson';
import type { Estimate as TaquitoEstimate } from '@taquito/taquito';

const { Estimate } = createRequire(import.meta.url)('@taquito/taquito/dist/lib/estimate/estimate.js') as {
  Estimate: new (
    milligasLimit: number,
    storageLimit: number,
    opSize: number,
    minimalFeePerStorageByteMutez: number,
  ) => TaquitoEstimate;
};

/** Taquito's RpcEstimateProvider buffers (MILLIGAS_BUFFER, STORAGE_BUFFER). */
const MILLIGAS_BUFFER = 100_000;
const STORAGE_BUFFER = 20;

/** Bytes of a zarith natural. */
function zarith(n: bigint | number): number {
  let v = BigInt(n);
  let bytes = 1;
  while (v >= 128n) {
    v >>= 7n;
    bytes++;
  }
  return bytes;
}

/**
 * Bytes of a signed transaction (branch, one transaction content, signature) as Taquito counts them: the
 * forged operation plus 64 bytes of signature. Fee and counter are taken at 3 and 4 bytes (their usual sizes).
 */
export function transactionSize(t: {
  amount: string;
  entrypoint: string;
  parameter: Micheline;
  gasLimit: number;
  storageLimit: number;
}): number {
  const branch = 32;
  const signature = 64;
  const head = 1 + 21 + 3 + 4 + zarith(t.gasLimit) + zarith(t.storageLimit) + zarith(BigInt(t.amount)) + 22;
  const isUnitDefault = t.entrypoint === 'default' && (t.parameter as { prim?: string }).prim === 'Unit';
  const entrypoint = NAMED_ENTRYPOINTS.includes(t.entrypoint) ? 1 : 2 + t.entrypoint.length;
  const params = isUnitDefault ? 1 : 1 + entrypoint + 4 + encodeExpr(t.parameter).length;
  return branch + head + params + signature;
}

export interface FeeEstimate {
  gasLimit: number;
  storageLimit: number;
  opSize: number;
  fee: number;
}

/** The limits and the suggested fee Taquito's estimate gives for a transaction with these figures. */
export function estimateFee(t: {
  milligas: number;
  /** bytes of paid storage (with the bytes of originations and new accounts) */
  storage: number;
  costPerByte: number;
  amount: string;
  entrypoint: string;
  parameter: Micheline;
}): FeeEstimate {
  const milligasLimit = t.milligas + MILLIGAS_BUFFER;
  const storageLimit = t.storage > 0 ? t.storage + STORAGE_BUFFER : 0;
  const gasLimit = Math.ceil(milligasLimit / 1000);
  const opSize = transactionSize({ ...t, gasLimit, storageLimit });
  const e = new Estimate(milligasLimit, storageLimit, opSize, t.costPerByte);
  return { gasLimit: e.gasLimit, storageLimit: e.storageLimit, opSize, fee: e.suggestedFeeMutez };
}
