/**
 * `runContract`: one contract call with Octez `run_code` semantics (storage, emitted operations,
 * lazy-storage diff, consumed milligas, or the Octez-shaped error), and `runView` for on-chain views.
 */
import type { ChainContext, ExecEnv } from './context';
import { DEFAULT_CHAIN_ID, ZERO_PKH, defaultEnv } from './context';
import type { UnparseMode } from './data';
import { parseData, unparse } from './data';
import type { OctezError } from './errors';
import { MichelsonError } from './errors';
import { LIMITS } from './gas-params';
import { TYPECHECK_COST, dataCost, decodeCost, scriptCost, tyEqCost, unparseCost } from './gas-typecheck';
import type { StepListener } from './interpreter';
import { Interpreter } from './interpreter';
import type { BigMapDiffItem, LazyStorageDiffItem } from './lazy-storage';
import { collectBigMaps, collectLazy, collectSaplingStates, extractLazyStorage } from './lazy-storage';
import type { InternalOperationJson } from './operations-json';
import { operationToJson } from './operations-json';
import { encodeExpr } from './pack';
import type { LoadedScript } from './script';
import { loadScript } from './script';
import type { Expr, Ty } from './types';
import { entrypointPath, showTy, toTy, tyEq, tySize, tyToExpr } from './types';
import type { Operation, V } from './values';
import { pair } from './values';
import './instructions/register-all';

export interface RunContractInput {
  /** Michelson text or Micheline JSON (the `code` array of an RPC script). */
  script: string | Expr;
  /** Storage as Micheline (big maps may be ids known to `chain`). */
  storage: Expr;
  /** Parameter of the entrypoint, as Micheline. */
  parameter: Expr;
  entrypoint?: string;
  amount?: bigint;
  /** Balance of the contract, including `amount` (as Octez credits it before running). */
  balance?: bigint;
  /** SOURCE (Octez `payer`); defaults to the zero key hash. */
  source?: string;
  /** SENDER (Octez `source`); defaults to `self`. */
  sender?: string;
  /** The contract's own address (SELF_ADDRESS). */
  self?: string;
  now?: bigint;
  level?: bigint;
  chainId?: string;
  /** Milligas available (default: the hard limit per operation). */
  gasLimit?: number;
  chain?: ChainContext;
  /** Per-step events (location, instruction, stack after, gas left); nothing is computed without it. */
  onStep?: StepListener;
  /** Fresh big-map ids; without it, new big maps get temporary negative ids (-1, -2, …). */
  allocateBigMapId?: () => bigint;
  /**
   * Ids for big maps carried by emitted operations (parameters, originated storage). Octez copies them to
   * temporary (negative) ids that the receiving contract copies again and that are dropped at the end of
   * the operation; pass such an allocator to do the same. Defaults to `allocateBigMapId`.
   */
  allocateTemporaryBigMapId?: () => bigint;
  /** Fresh Sapling state ids (a counter of their own); without it, temporary negative ids. */
  allocateSaplingId?: () => bigint;
  /** Ids for Sapling states carried by emitted operations; defaults to `allocateSaplingId`. */
  allocateTemporarySaplingId?: () => bigint;
  /** How values are written in the result (default Readable, like run_code; receipts use Optimized). */
  unparsingMode?: UnparseMode;
  /** Typecheck as an already-originated contract (default true); false for a new origination. */
  legacy?: boolean;
  /**
   * The parameter of an internal transaction (a contract's call, or the one a transfer_ticket makes): it may
   * carry tickets (Octez refuses tickets forged in an external parameter), and it is already typed, so Octez
   * charges no decoding nor parsing for it, only the equality of its type with the entrypoint's
   * (script_interpreter.ml, `lift_execution_arg` of a `Typed_arg`: `Typecheck_costs.ty_eq`). Default false.
   */
  ticketsInParameter?: boolean;
}

export interface EmittedOperation {
  /** Octez JSON form. */
  json: InternalOperationJson;
  /** Typed form, for a chain that applies it (the parameter value keeps its type). */
  raw: Operation;
}

export type RunContractResult =
  | {
      ok: true;
      storage: Expr;
      operations: EmittedOperation[];
      lazyStorageDiff: LazyStorageDiffItem[];
      bigMapDiff: BigMapDiffItem[];
      consumedMilligas: number;
      /** Binary size of the new storage in bytes (without lazy storage). */
      storageSize: number;
      /** Binary size of the script in bytes. */
      scriptSize: number;
    }
  | { ok: false; error: MichelsonError; errors: OctezError[]; consumedMilligas: number };

function storageTypeExpr(loaded: LoadedScript): Expr | undefined {
  const s = loaded.script.find((x) => !Array.isArray(x) && 'prim' in x && x.prim === 'storage');
  return s && !Array.isArray(s) && 'prim' in s ? s.args?.[0] : undefined;
}

function envOf(input: Omit<RunContractInput, 'parameter'>, loaded: LoadedScript): ExecEnv {
  const self = input.self ?? 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
  return defaultEnv({
    self,
    selfParameter: loaded.parameter,
    sender: input.sender ?? self,
    source: input.source ?? ZERO_PKH,
    amount: input.amount ?? 0n,
    balance: input.balance ?? 4_000_000_000_000n,
    now: input.now ?? BigInt(Math.floor(Date.now() / 1000)),
    level: input.level ?? 1n,
    chainId: input.chainId ?? DEFAULT_CHAIN_ID,
  });
}

function failure(e: unknown, it: Interpreter | null): RunContractResult {
  const error =
    e instanceof MichelsonError
      ? e
      : new MichelsonError('runtime', `internal error: ${e instanceof Error ? e.message : String(e)}`);
  return { ok: false, error, errors: error.toOctez(), consumedMilligas: it?.consumedMilligas ?? 0 };
}

function badParameter(input: RunContractInput, message: string): MichelsonError {
  return new MichelsonError('bad_contract_parameter', message, { contract: input.self ?? '' });
}

/** Runs one call of a contract. Never throws: failures come back as `{ok: false}`. */
export function runContract(input: RunContractInput): RunContractResult {
  let it: Interpreter | null = null;
  try {
    const chain = input.chain ?? {};
    const loaded = loadScript(input.script, chain, { legacy: input.legacy });
    const mode = input.unparsingMode ?? 'Readable';
    it = new Interpreter({
      env: envOf(input, loaded),
      chain,
      gasLimit: input.gasLimit ?? LIMITS.hardGasLimitPerOperation,
      onStep: input.onStep,
      root: loaded.script,
      legacy: loaded.legacy,
    });
    const typed = input.ticketsInParameter ?? false;
    it.consume(
      scriptCost(loaded) +
        decodeCost(input.storage) +
        dataCost(input.storage, storageTypeExpr(loaded)) +
        (typed ? 0 : decodeCost(input.parameter)),
    );

    const ep = input.entrypoint ?? 'default';
    const found = entrypointPath(loaded.parameter, ep);
    if (!found) throw badParameter(input, `no entrypoint ${ep}`);
    // an external parameter is decoded and parsed against the entrypoint's type; an internal one only has its
    // type compared with it (the two types are equal once it runs: the smaller's size is either's)
    it.consume(
      TYPECHECK_COST.findEntrypoint +
        (typed ? tyEqCost(tySize(found.ty)) : dataCost(input.parameter, tyToExpr(found.ty))),
    );
    let param: V;
    try {
      const pctx = { ...it.dataContext(), allowTickets: input.ticketsInParameter ?? false };
      parseData(input.parameter, found.ty, pctx);
      let wrapped = input.parameter;
      for (let i = found.path.length - 1; i >= 0; i--)
        wrapped = { prim: found.path[i] as string, args: [wrapped] };
      param = parseData(wrapped, loaded.parameterTy, pctx);
    } catch (e) {
      if (e instanceof MichelsonError && e.kind === 'ill_typed')
        throw badParameter(input, `bad parameter for ${ep}: ${e.message}`);
      throw e;
    }
    const storage = parseData(input.storage, loaded.storageTy, { ...it.dataContext(), allowTickets: true });
    const oldIds = collectBigMaps(storage).flatMap((b) => (b.id === null ? [] : [b.id]));
    const oldSaplingIds = collectSaplingStates(storage).flatMap((b) => (b.id === null ? [] : [b.id]));

    const stack: V[] = [pair(param, storage)];
    it.exec(loaded.code, stack);
    const result = stack[0];
    const expected = {
      prim: 'pair',
      args: [{ prim: 'list', args: [{ prim: 'operation', args: [] }] }, loaded.storageTy],
    } as Ty;
    if (stack.length !== 1 || result?.k !== 'pair' || !tyEq(result.t, expected)) {
      throw new MichelsonError('ill_typed', `code must return ${showTy(expected)}`);
    }
    let temp = 0n;
    const allocate = input.allocateBigMapId ?? ((): bigint => --temp);
    let saplingTemp = 0n;
    const allocateSapling = input.allocateSaplingId ?? ((): bigint => --saplingTemp);
    const extracted = extractLazyStorage(result.b, oldIds, allocate, mode, {
      oldIds: oldSaplingIds,
      allocate: allocateSapling,
    });
    const lazyStorageDiff = [...extracted.lazyStorageDiff];
    const bigMapDiff = [...extracted.bigMapDiff];
    const operations: EmittedOperation[] = [];
    for (const o of (result.a as Extract<V, { k: 'list' }>).v) {
      let raw = (o as Extract<V, { k: 'operation' }>).op;
      // Big maps passed to other contracts are copied (or allocated) to fresh ids.
      if (raw.kind === 'transaction' || raw.kind === 'origination') {
        const carried = raw.kind === 'transaction' ? raw.parameter : raw.storage;
        if (collectLazy(carried).length > 0) {
          const x = extractLazyStorage(carried, [], input.allocateTemporaryBigMapId ?? allocate, mode, {
            oldIds: [],
            allocate: input.allocateTemporarySaplingId ?? allocateSapling,
          });
          lazyStorageDiff.push(...x.lazyStorageDiff);
          bigMapDiff.push(...x.bigMapDiff);
          raw =
            raw.kind === 'transaction' ? { ...raw, parameter: x.storage } : { ...raw, storage: x.storage };
        }
      }
      operations.push({ json: operationToJson(raw, mode), raw });
    }
    const storageOut = unparse(extracted.storage, mode);
    it.consume(unparseCost(storageOut));
    return {
      ok: true,
      storage: storageOut,
      operations,
      lazyStorageDiff,
      bigMapDiff,
      consumedMilligas: it.consumedMilligas,
      storageSize: encodeExpr(unparse(extracted.storage, 'Optimized')).length,
      scriptSize: loaded.size,
    };
  } catch (e) {
    return failure(e, it);
  }
}

export interface RunViewInput extends Omit<
  RunContractInput,
  'parameter' | 'entrypoint' | 'allocateBigMapId'
> {
  view: string;
  input: Expr;
}
export type RunViewResult =
  | { ok: true; data: Expr; consumedMilligas: number }
  | { ok: false; error: MichelsonError; errors: OctezError[]; consumedMilligas: number };

/** Runs an on-chain view of a script (`run_script_view`). */
export function runView(input: RunViewInput): RunViewResult {
  let it: Interpreter | null = null;
  try {
    const chain = input.chain ?? {};
    const loaded = loadScript(input.script, chain, { legacy: input.legacy });
    const view = loaded.views[input.view];
    if (!view) throw new MichelsonError('runtime', `no view named ${input.view}`);
    it = new Interpreter({
      env: { ...envOf(input, loaded), amount: 0n },
      chain,
      gasLimit: input.gasLimit ?? LIMITS.hardGasLimitPerOperation,
      onStep: input.onStep,
      root: loaded.script,
      legacy: loaded.legacy,
    });
    it.inView = true;
    const arg = it.parseValue(input.input, toTy(view.input));
    const storage = parseData(input.storage, loaded.storageTy, { ...it.dataContext(), allowTickets: true });
    const stack: V[] = [pair(arg, storage)];
    it.exec(Array.isArray(view.code) ? view.code : [view.code], stack);
    const outTy = toTy(view.output);
    if (stack.length !== 1 || !tyEq((stack[0] as V).t, outTy))
      throw new MichelsonError('ill_typed', `view must return ${showTy(outTy)}`);
    return {
      ok: true,
      data: unparse(stack[0] as V, input.unparsingMode ?? 'Readable'),
      consumedMilligas: it.consumedMilligas,
    };
  } catch (e) {
    const f = failure(e, it);
    if (f.ok) throw new Error('unreachable');
    return f;
  }
}
