/**
 * `originateContract`: checks a new contract like Octez does at origination (script typechecked without
 * legacy allowances, initial storage well-typed) and turns the big maps of the initial storage into
 * allocations, so the caller can store the contract and account for its size.
 */
import type { ChainContext } from './context';
import { parseData, unparse } from './data';
import type { UnparseMode } from './data';
import type { OctezError } from './errors';
import { MichelsonError } from './errors';
import { LIMITS } from './gas-params';
import { dataCost, decodeCost, scriptCost } from './gas-typecheck';
import { Interpreter } from './interpreter';
import type { BigMapDiffItem, LazyStorageDiffItem } from './lazy-storage';
import { extractLazyStorage } from './lazy-storage';
import { encodeExpr } from './pack';
import { loadScript } from './script';
import type { Expr } from './types';
import { defaultEnv } from './context';

export interface OriginateInput {
  script: string | Expr;
  storage: Expr;
  chain?: ChainContext;
  gasLimit?: number;
  allocateBigMapId?: () => bigint;
  /** Fresh Sapling state ids; without it, temporary negative ids. */
  allocateSaplingId?: () => bigint;
  unparsingMode?: UnparseMode;
  /** Accepts tickets in the storage: a contract's CREATE_CONTRACT passes them (default false, as from an implicit account). */
  ticketsInStorage?: boolean;
}

export type OriginateResult =
  | {
      ok: true;
      /** The script as stored (expanded Micheline sections). */
      code: Expr[];
      storage: Expr;
      lazyStorageDiff: LazyStorageDiffItem[];
      bigMapDiff: BigMapDiffItem[];
      /** Octez `storage_size` without lazy storage: script bytes + 4 + storage bytes + 4. */
      storageSize: number;
      consumedMilligas: number;
    }
  | { ok: false; error: MichelsonError; errors: OctezError[]; consumedMilligas: number };

export function originateContract(input: OriginateInput): OriginateResult {
  let it: Interpreter | null = null;
  try {
    const chain = input.chain ?? {};
    const loaded = loadScript(input.script, chain, { legacy: false });
    it = new Interpreter({
      env: defaultEnv(),
      chain,
      gasLimit: input.gasLimit ?? LIMITS.hardGasLimitPerOperation,
    });
    const storageTy = loaded.script.find((x) => !Array.isArray(x) && 'prim' in x && x.prim === 'storage');
    it.consume(
      scriptCost(loaded) +
        decodeCost(input.storage) +
        dataCost(input.storage, storageTy && 'prim' in storageTy ? storageTy.args?.[0] : undefined),
    );
    const storage = parseData(input.storage, loaded.storageTy, {
      ...it.dataContext(),
      allowTickets: input.ticketsInStorage ?? false,
      checkLambda: (c, a, r, rec) => it?.checkLambda(c as Expr[], a, r, rec),
    });
    let temp = 0n;
    const allocate = input.allocateBigMapId ?? ((): bigint => --temp);
    const mode = input.unparsingMode ?? 'Optimized';
    let saplingTemp = 0n;
    const extracted = extractLazyStorage(storage, [], allocate, mode, {
      oldIds: [],
      allocate: input.allocateSaplingId ?? ((): bigint => --saplingTemp),
    });
    const stored = unparse(extracted.storage, mode);
    return {
      ok: true,
      code: loaded.script,
      storage: stored,
      lazyStorageDiff: extracted.lazyStorageDiff,
      bigMapDiff: extracted.bigMapDiff,
      storageSize: loaded.size + 4 + encodeExpr(unparse(extracted.storage, 'Optimized')).length + 4,
      consumedMilligas: it.consumedMilligas,
    };
  } catch (e) {
    const error =
      e instanceof MichelsonError
        ? e
        : new MichelsonError('runtime', `internal error: ${e instanceof Error ? e.message : String(e)}`);
    return { ok: false, error, errors: error.toOctez(), consumedMilligas: it?.consumedMilligas ?? 0 };
  }
}
