/**
 * @michelscope/interpreter — a Michelson evaluator in TypeScript (pure: no I/O).
 *
 * Main entry points:
 * - `runContract(input)`: one contract call with Octez `run_code` semantics → storage, operations,
 *   lazy-storage diff, consumed milligas, or an Octez-shaped error (`errors`).
 * - `runView(input)`: an on-chain view of a script (`run_script_view`).
 * - `originateContract(input)`: origination checks, initial big maps allocated, storage size.
 * - `runTzt(src)`: runs one TZT conformance test (the Octez reference suite format).
 * - `Interpreter`: the stack machine itself, for callers that build stacks by hand (step events, gas).
 *
 * The chain is reached only through `ChainContext` (contracts and their types, big maps, global
 * constants, voting power, address registry), which the caller provides.
 */
import './instructions/register-all';

export { runContract, runView } from './run-contract';
export { bundledWorker } from './bundled-worker';
export { FairScheduler, SchedulerRefusal, type FairSchedulerOptions } from './fair-scheduler';
export type { BundledWorker } from './bundled-worker';
export { originateContract } from './originate';
export type { OriginateInput, OriginateResult } from './originate';
export type {
  EmittedOperation,
  RunContractInput,
  RunContractResult,
  RunViewInput,
  RunViewResult,
} from './run-contract';
export type { ChainContext, ContractInfo, ExecEnv } from './context';
export { DEFAULT_CHAIN_ID, ZERO_PKH, defaultEnv } from './context';
export { Interpreter } from './interpreter';
export type { InterpreterOptions, StepEvent, StepListener } from './interpreter';
export { DEFAULT_PROTOCOL_PREFIX, MichelsonError } from './errors';
export type { ErrorKind, OctezError } from './errors';
export { runTzt } from './tzt';
export type { TztOptions, TztResult, TztRun } from './tzt';
export { parseData, unparse } from './data';
export type { DataContext, UnparseMode } from './data';
export { packValue, unpackValue, scriptExprHash, encodeExpr, decodeExpr } from './pack';
export { compareTyped } from './compare';
export { valuesEqual } from './equality';
export { loadScript, parseScript } from './script';
export { entrypointPath } from './types';
export type { LoadedScript } from './script';
export type {
  BigMapDiffItem,
  BigMapUpdate,
  LazyStorageDiffItem,
  SaplingStateDiffEntry,
  SaplingUpdates,
} from './lazy-storage';
export { saplingTransactionMemoSize } from './sapling';
export type { InternalOperationJson } from './operations-json';
export { BASE_COST, LIMITS, OPERATION_COST, STORAGE_BYTES, STORAGE_COST } from './gas-params';
export { toTy, tyToExpr, tyToExprComb, showTy, COMPARABLE_LEAF } from './types';
export type { Expr, Ty } from './types';
export type { Operation, V } from './values';
