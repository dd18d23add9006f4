/**
 * One contract call run in our interpreter with its step events recorded as a compact trace (snapshots and
 * diffs, each distinct stack item written once): what the debugger shows. Pure and synchronous; it runs in a
 * debug worker (runner.ts), never on the thread that serves the API.
 */
import type { CallFailure } from './whatif-overlay';
import {
  runContract,
  runView,
  tyToExpr,
  unparse,
  type ChainContext,
  type EmittedOperation,
  type LazyStorageDiffItem,
  type RunContractInput,
  type StepEvent,
  type V,
} from '@michelscope/interpreter';
import {
  TraceBuilder,
  formatWithLocations,
  type CompactTrace,
  type Micheline,
  type NodeSpan,
} from '@michelscope/michelson';
import { errorMeaning, viewErrorMeaning, type MetadataError } from './error-meaning';
import { LocationGas, gasProfile, type GasProfile } from './profile';
import { storageViewResult } from './storage-view';

/**
 * Bounds of one recording: steps kept, and the characters of stack items kept (each item and in all); and the
 * budget of the stepped run (steps, wall-clock ms): past either the run is cut (`DebugRecording.cut`) and its
 * end is computed by the interpreter's fast path, unrecorded.
 */
export interface RecordLimits {
  maxSteps: number;
  maxItemChars: number;
  maxTotalChars: number;
  maxRunSteps?: number;
  maxRunMs?: number;
}

export const DEFAULT_LIMITS: RecordLimits = {
  maxSteps: 250_000,
  maxItemChars: 200_000,
  maxTotalChars: 64_000_000,
  // a step with the listener costs ~0.2–1 µs past the recorded ones: 2 s at most, then the fast path's ≤ 1 s
  // of CPU for the rest, well under the worker's 10 s limit on a loaded machine
  maxRunSteps: 3_000_000,
  maxRunMs: 2_000,
};

/** Thrown by the step listener to stop a run past its budget (the interpreter turns it into a failure). */
class RunCut extends Error {}

/** The call to run: run_code's inputs (script and values as Micheline, addresses base58, amounts mutez). */
export interface DebugCall {
  script: Micheline[];
  storage: Micheline;
  parameter: Micheline;
  entrypoint: string;
  amount: string;
  balance: string;
  sender?: string | undefined;
  source?: string | undefined;
  self: string;
  now: string;
  level: string;
  chainId: string;
  gasLimit: number;
  /** An on-chain view of the script to run (`parameter` is then its input): run_script_view's semantics. */
  view?: string | undefined;
  /** Typecheck as a new script (an origination's rules), not as an originated contract's. */
  newScript?: boolean;
  /** The script wraps an off-chain michelsonStorageView (services/views.ts): its storage after is `Some result`. */
  storageView?: boolean;
  /** the operation's fixed cost in milligas, which the node's receipt adds to the script's gas (the profile) */
  fixedMilligas?: number;
  /**
   * How the storage after the call (and emitted operations) are unparsed, whose gas the run pays: run_code's and
   * trace_code's default is Readable; the protocol applies an operation in Optimized mode (apply.ml calls
   * Script_interpreter.execute … Optimized), so a replay of an indexed call uses Optimized.
   */
  unparsingMode?: 'Readable' | 'Optimized';
  /** A replayed internal call: its parameter (what the emitter passed on) may carry tickets. */
  internal?: boolean;
  /**
   * A replay: the group's hash and how many contracts the group had originated before the call, which give the
   * addresses of the contracts its CREATE_CONTRACTs originate (Octez's origination nonce).
   */
  originations?: { hash: string; before: number };
  /** A replay: the ids the chain gave the big maps the call allocated (its receipt's), in order. */
  bigMapIds?: number[];
}

export interface EmittedOperationOut {
  kind: string;
  destination?: string;
  amount?: string;
  entrypoint?: string;
  parameter?: Micheline;
  tag?: string;
  payload?: Micheline;
  payload_type?: Micheline;
}

export interface DebugRecording {
  /** The script as the debugger shows it (formatted Michelson) and each traced location's place in it. */
  code: string;
  spans: Record<string, NodeSpan>;
  /** Instructions with code blocks (IF…, DIP, LOOP, ITER, MAP, LAMBDA…): location → their last node's location. */
  blocks: Record<string, number>;
  /** Each traced location → the innermost block instruction around it (absent at the top level of `code`). */
  enclosing: Record<string, number>;
  trace: CompactTrace;
  /** gas per line and per block; its total is the node's consumed gas for the operation */
  profile: GasProfile;
  status: 'applied' | 'failed';
  consumed_milligas: number;
  gas_limit: number;
  storage?: Micheline;
  /** A view's run: the value it returned. */
  result?: Micheline;
  /**
   * The stepped run went past its budget (steps or time) and was stopped there: the trace and the profile
   * cover the steps before; status, gas, storage, operations and failure are the whole run's (the fast path).
   */
  cut?: { steps: number; ms: number; message: string };
  operations: EmittedOperationOut[];
  /** A failed run: Octez's error list, the failing instruction's location and the FAILWITH value. */
  errors?: unknown[];
  failure?: {
    kind: string;
    message: string;
    location?: number;
    with?: Micheline;
    /** Storage exhaustion (whatif-exec.ts): the limit, the bytes the call pays for, the contracts that grew. */
    storage?: CallFailure['storage'];
    /** The payer cannot pay the storage burn. */
    burn?: CallFailure['burn'];
    /**
     * What the contract's TZIP-16 metadata says the FAILWITH value means: its static `errors` entry, or the
     * off-chain view (`view`) an entry names, run with the value.
     */
    meaning?: { text: string; languages?: string[]; view?: string };
  };
}

const MARKER: Micheline = { prim: '…' };

/** The given big-map ids in turn, then temporary ones (-1, -2, …) as run_code gives. */
function bigMapIdsOf(ids: readonly number[]): () => bigint {
  let next = 0;
  let temp = 0n;
  return () => (next < ids.length ? BigInt(ids[next++]!) : --temp);
}

const nodeCount = (n: Micheline): number =>
  1 +
  (Array.isArray(n)
    ? n.reduce((a: number, c) => a + nodeCount(c), 0)
    : 'prim' in n
      ? (n.args ?? []).reduce((a: number, c) => a + nodeCount(c), 0)
      : 0);

/**
 * The locations that are never an instruction: the script's root and its parameter and storage declarations
 * (Octez numbers nodes in pre-order from 0). The code of a lambda value (from the storage or the parameter,
 * run by EXEC) is numbered from 0 on its own, so its steps and its failure have locations there: they must not
 * be shown as 'parameter at line 1'.
 */
export function declarationLocations(script: readonly Micheline[]): Set<number> {
  const out = new Set<number>([0]);
  let next = 1;
  for (const section of script) {
    const size = nodeCount(section);
    if (!Array.isArray(section) && 'prim' in section && ['parameter', 'storage'].includes(section.prim))
      for (let l = next; l < next + size; l++) out.add(l);
    next += size;
  }
  return out;
}

/** Block instructions (with their last node) and each node's innermost block instruction, by location. */
function blockStructure(script: Micheline[]): {
  blocks: Map<number, number>;
  enclosing: Map<number, number>;
} {
  const blocks = new Map<number, number>();
  const enclosing = new Map<number, number>();
  let next = 0;
  const walk = (e: Micheline, around: number | undefined): void => {
    const here = next++;
    if (around !== undefined) enclosing.set(here, around);
    if (Array.isArray(e)) {
      for (const x of e) walk(x, around);
      return;
    }
    if (!('prim' in e)) return;
    const args = e.args ?? [];
    const isBlock = /^[A-Z]/.test(e.prim) && args.some((a) => Array.isArray(a));
    for (const a of args) walk(a, isBlock ? here : around);
    if (isBlock) blocks.set(here, next - 1);
  };
  walk(script, undefined);
  return { blocks, enclosing };
}

/** Runs the call and records it. The chain is what the caller gives (the debug worker's bridge). */
export function recordCall(
  call: DebugCall,
  chain: ChainContext,
  limits = DEFAULT_LIMITS,
  errors: readonly MetadataError[] = [],
  /** receives the run's lazy-storage diff (a replay compares it with the receipt's) */
  onLazyDiff?: (diff: readonly LazyStorageDiffItem[]) => void,
  /** receives the operations the call emitted, typed (the flow graph reads their tickets and originations) */
  onEmitted?: (ops: readonly EmittedOperation[]) => void,
): DebugRecording {
  let builder: TraceBuilder | null = null;
  const ids = new Map<V, number>();
  const typeIds = new Map<string, number>();
  const typeOf = new WeakMap<object, number>();
  let chars = 0;
  const itemId = (t: CompactTrace, v: V): number => {
    let id = ids.get(v);
    if (id !== undefined) return id;
    let ty = typeOf.get(v.t);
    if (ty === undefined) {
      const tyKey = JSON.stringify(tyToExpr(v.t));
      ty = typeIds.get(tyKey);
      if (ty === undefined) {
        ty = t.types.length;
        typeIds.set(tyKey, ty);
        t.types.push(JSON.parse(tyKey) as Micheline);
      }
      typeOf.set(v.t, ty);
    }
    let value = unparse(v);
    const size = JSON.stringify(value).length;
    id = t.items.length;
    if (size > limits.maxItemChars || chars + size > limits.maxTotalChars) {
      value = MARKER;
      t.elided.push(id);
    } else chars += size;
    t.items.push([ty, value]);
    ids.set(v, id);
    return id;
  };
  const byLocation = new LocationGas();
  const maxRunSteps = limits.maxRunSteps ?? Infinity;
  const maxRunMs = limits.maxRunMs ?? Infinity;
  const started = performance.now();
  let stepped = 0;
  let cut: { steps: number; ms: number } | undefined;
  const onStep = (e: StepEvent) => {
    stepped++;
    // the budget: every step counts, the clock is read every 4,096 steps
    if (stepped > maxRunSteps || ((stepped & 4095) === 0 && performance.now() - started > maxRunMs)) {
      cut = { steps: stepped - 1, ms: Math.round(performance.now() - started) };
      throw new RunCut();
    }
    byLocation.add(e.location, e.gasBefore, e.gasLeft);
    builder ??= new TraceBuilder(e.gasBefore);
    const t = builder.trace;
    if (t.steps >= limits.maxSteps) {
      t.truncated = true;
      return;
    }
    builder.add(
      e.location,
      e.gasLeft,
      e.values.map((v) => itemId(t, v)),
    );
  };
  const input: RunContractInput = {
    script: call.script,
    storage: call.storage,
    parameter: call.parameter,
    entrypoint: call.entrypoint,
    amount: BigInt(call.amount),
    balance: BigInt(call.balance) + BigInt(call.amount),
    ...(call.sender ? { sender: call.sender } : {}),
    ...(call.source ? { source: call.source } : {}),
    self: call.self,
    now: BigInt(call.now),
    level: BigInt(call.level),
    chainId: call.chainId,
    gasLimit: call.gasLimit,
    chain,
    onStep,
    ...(call.newScript ? { legacy: false } : {}),
    ...(call.unparsingMode ? { unparsingMode: call.unparsingMode } : {}),
    ...(call.internal ? { ticketsInParameter: true } : {}),
    ...(call.bigMapIds?.length ? { allocateBigMapId: bigMapIdsOf(call.bigMapIds) } : {}),
  };
  const runIt = (i: RunContractInput) =>
    call.view !== undefined ? runView({ ...i, view: call.view, input: call.parameter }) : runContract(i);
  let run = runIt(input);
  if (cut) {
    // the rest unrecorded, on the interpreter's fast path (the same result and gas as the stepping path)
    const { onStep: _recorded, ...unrecorded } = input;
    run = runIt(unrecorded);
    builder ??= new TraceBuilder(call.gasLimit);
    builder.trace.truncated = true;
  }
  const trace = builder?.trace ?? new TraceBuilder(call.gasLimit).trace;
  const { text, spans: all } = formatWithLocations(call.script);
  const spans: Record<string, NodeSpan> = {};
  // a lambda value's code is numbered from 0 on its own: its locations land on the script's declarations
  const declarations = declarationLocations(call.script);
  const keep = (loc: number | undefined) => {
    if (loc !== undefined && all[loc] && !declarations.has(loc)) spans[loc] = all[loc];
  };
  const structure = blockStructure(call.script);
  const blocks: Record<string, number> = {};
  const enclosing: Record<string, number> = {};
  for (const loc of new Set(trace.loc)) {
    keep(loc);
    const b = structure.blocks.get(loc);
    if (b !== undefined) blocks[loc] = b;
    const around = structure.enclosing.get(loc);
    if (around !== undefined) {
      enclosing[loc] = around;
      blocks[around] = structure.blocks.get(around)!;
    }
  }
  const out: DebugRecording = {
    code: text,
    spans,
    blocks,
    enclosing,
    trace,
    profile: gasProfile(
      call.script,
      byLocation,
      (loc) => all[loc],
      run.consumedMilligas,
      call.gasLimit,
      call.fixedMilligas ?? 0,
      run.ok ? undefined : { location: run.error.data.location ?? run.error.data.ranOutAt },
    ),
    status: run.ok ? 'applied' : 'failed',
    consumed_milligas: run.consumedMilligas,
    gas_limit: call.gasLimit,
    operations: [],
  };
  if (cut)
    out.cut = {
      ...cut,
      message:
        `The debugger stopped recording after ${cut.steps.toLocaleString('en-US')} steps (${(cut.ms / 1000).toFixed(1)} s), ` +
        `its budget for one call: the trace shows ${
          trace.steps < cut.steps ? `its first ${trace.steps.toLocaleString('en-US')}` : 'those'
        } steps; the result and the gas are the whole call's, run without recording.`,
    };
  if (!run.ok) {
    const e = run.error;
    out.errors = run.errors;
    out.failure = {
      kind: e.kind,
      message: e.message,
      ...((e.data.location ?? e.data.ranOutAt) !== undefined
        ? { location: (e.data.location ?? e.data.ranOutAt)! }
        : {}),
      ...(e.data.with !== undefined ? { with: e.data.with } : {}),
    };
    const meaning =
      e.data.with === undefined
        ? undefined
        : (errorMeaning(errors, e.data.with) ?? viewErrorMeaning(errors, e.data.with, call, chain));
    if (meaning) out.failure.meaning = meaning;
    keep(e.data.location ?? e.data.ranOutAt);
  } else if ('storage' in run) {
    onLazyDiff?.(run.lazyStorageDiff);
    onEmitted?.(run.operations);
    out.storage = run.storage;
    out.operations = run.operations.map(({ json: o }) => {
      const op: EmittedOperationOut = { kind: o.kind };
      const r = o as unknown as Record<string, unknown>;
      if (typeof r.destination === 'string') op.destination = r.destination;
      if (typeof r.amount === 'string') op.amount = r.amount;
      const p = r.parameters as { entrypoint?: string; value?: Micheline } | undefined;
      if (p?.value !== undefined) {
        op.entrypoint = p.entrypoint ?? 'default';
        op.parameter = p.value;
      }
      if (typeof r.tag === 'string') op.tag = r.tag;
      if (r.payload !== undefined) op.payload = r.payload as Micheline;
      if (r.type !== undefined) op.payload_type = r.type as Micheline;
      return op;
    });
    if (call.storageView) out.result = storageViewResult(run.storage);
  } else out.result = run.data;
  return out;
}
