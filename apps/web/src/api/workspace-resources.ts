/**
 * The registry's entries (./resources.ts) the contract workspace runs: simulated calls, views, forks, the
 * debugger's recordings, what-if bundles, the code diff, the approval helpers and shared simulations.
 */
import type {
  ApproveData,
  ApproveRequest,
  ApproveSchema,
  CallRequest,
  CodeDiffRequest,
  CodeDiffResponse,
  DebugRequest,
  DebugResult,
  FlowGraph,
  ForkRequest,
  ForkResult,
  MiguelNode,
  OffChainViewRequest,
  Operation,
  ScriptDebugRequest,
  ShareCreated,
  SharedSimulation,
  StoredShare,
  ViewRequest,
  ViewSchema,
  WhatIfRequest,
  WhatIfResult,
} from '@michelscope/api-types';
import { action, contract, enc, resource, type At, type Mount } from './resource-builders';

/** A recording may take the API's whole 10 s worker limit after a queue: the debugger waits 60 s. */
const DEBUG: Mount = { timeoutMs: 60_000 };

/** The workspace's calls: simulations, views, forks, debug recordings, what-if, code diff, approvals, shares. */
export const WORKSPACE_RESOURCES = {
  /** A call simulated by the node's run_code (storage and internal operations only). */
  trace: action<At, CallRequest, Operation[]>((p) => `${contract(p)}/entrypoints/trace`),
  /** A call applied by the node's run_operation (gas, storage, burn, big-map changes, events). */
  runOperation: action<At, CallRequest, Operation[]>((p) => `${contract(p)}/entrypoints/run_operation`),
  /** The same call's flow graph (issue 37): what run_operation answers, as accounts and edges. */
  runOperationFlow: action<At, CallRequest, FlowGraph>(
    (p) => `${contract(p)}/entrypoints/run_operation/flow`,
  ),
  /** An on-chain or off-chain view run; its result as Miguel trees (null: none). */
  executeView: action<At, ViewRequest, MiguelNode[] | null>((p) => `${contract(p)}/views/execute`),
  /** The form of a TZIP-16 off-chain view (null: no michelsonStorageView implementation). */
  offChainView: action<void, OffChainViewRequest, ViewSchema | null>(() => '/off_chain_view'),
  /** Code and storage Micheline for a new origination from a contract and a storage form. */
  fork: action<void, ForkRequest, ForkResult>(() => '/fork'),
  /** One call recorded step by step by the debugger (issue 20). */
  debug: action<At, DebugRequest, DebugResult>((p) => `${contract(p)}/entrypoints/debug`, DEBUG),
  /** A view (on-chain or TZIP-16 off-chain) recorded step by step by the debugger. */
  viewDebug: action<At, ViewRequest, DebugResult>((p) => `${contract(p)}/views/debug`, DEBUG),
  /** A call of an undeployed script (the deploy page) recorded step by step. */
  scriptDebug: action<{ network: string }, ScriptDebugRequest, DebugResult>(
    (p) => `/script/${enc(p.network)}/debug`,
    DEBUG,
  ),
  /** An indexed contract call replayed at its level and compared with the recorded one. */
  operationDebug: action<{ network: string; id: number }, Record<string, never>, DebugResult>(
    (p) => `/operation/${enc(p.network)}/${p.id}/debug`,
    DEBUG,
  ),
  /** A bundle of calls run against overridden state (issue 20, capability 5); as long as a recording. */
  whatIf: action<At, WhatIfRequest, WhatIfResult>((p) => `${contract(p)}/entrypoints/what_if`, DEBUG),
  /** The code of two contracts compared by blocks (entrypoints, views), then lines (a POST, read as a query). */
  codeDiff: action<void, CodeDiffRequest, CodeDiffResponse>(() => '/diff'),
  /** The token-approval form's JSON schema (reference §4.7; static; read by slices/contract/interact/approvals). */
  approveSchema: resource<void, ApproveSchema>(() => '/helpers/approve/schema'),
  /** The approve and revoke calls of token approvals. */
  approveData: action<void, ApproveRequest, ApproveData>(() => '/helpers/approve/data'),
  /** Stores a simulation too long for a link's fragment; the same state always gets the same id (issue 20). */
  shareCreate: action<void, SharedSimulation, ShareCreated>(() => '/shares'),
  /** A stored simulation, by the id of its link (`#share=…`). */
  share: resource<{ id: string }, StoredShare>((p) => `/shares/${enc(p.id)}`),
};
