/**
 * One contract call run in our interpreter with its step events recorded as a compact trace (snapshots and
 * diffs, each distinct stack item written once): what the debugger shows. Pure and synchronous; it runs in a
 * debug worker (runner.ts), never on the thread that serves the API.
 */
import type { CallFailure } from './whatif-exec';
import {
  defaultEnv,
  Interpreter,
  loadScript,
  parseData,
  runContract,
  runView,
  tyToExpr,
  unparse,
  type ChainContext,
  type LazyStorageDiffItem,
  type RunContractInput,
  type StepEvent,
  type V,
} from '@michelscope/interpreter';
import {
  TraceBuilder,
  formatMichelsonInline,
  formatWithLocations,
  originatedContractAddress,
  readableValue,
  type CompactTrace,
  type Micheline,
  type NodeSpan,
} from '@michelscope/michelson';
import { LocationGas, gasProfile, type GasProfile } from './profile';

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

/**
 * A replay as the chain ran it: the call's storage and the big-map values it
 * reads in the form the chain holds them, the Optimized unparse of the typed value (addresses as bytes, right
 * combs of four or more as sequences, …), whose size is what decoding and parsing them costs (the index may
 * keep another form of the same value; a node's RPC prints big-map values readable); and the addresses its
 * CREATE_CONTRACTs get from the group's origination nonce. A value that does not parse is left as it is (the
 * run then says why).
 */
export function asOnChain(call: DebugCall, chain: ChainContext): { call: DebugCall; chain: ChainContext } {
  const parse = (e: Micheline, ty: Parameters<typeof parseData>[1]) => {
    const it = new Interpreter({ env: defaultEnv({ chainId: call.chainId }), chain });
    return unparse(parseData(e, ty, { ...it.dataContext(), allowTickets: true }), 'Optimized');
  };
  const seen: ChainContext = { ...chain };
  if (chain.bigMapGet)
    seen.bigMapGet = (id, key, keyHash) => {
      const e = chain.bigMapGet!(id, key, keyHash);
      const t = e === null ? null : chain.bigMapTypes?.(id);
      try {
        return e !== null && t ? parse(e, t.value) : e;
      } catch {
        return e;
      }
    };
  if (call.originations) {
    const { hash, before } = call.originations;
    let next = before;
    seen.originatedAddress = () => originatedContractAddress(hash, next++);
  }
  try {
    const loaded = loadScript(call.script, chain);
    return { call: { ...call, storage: parse(call.storage, loaded.storageTy) }, chain: seen };
  } catch {
    return { call, chain: seen };
  }
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

/** What the chain recorded for a call that is replayed: compared with the replay's result. */
export interface RecordedResult {
  status: string;
  /** storage after the call (applied calls) */
  storage?: Micheline;
  storageType: Micheline;
  /** the receipt's consumed milligas without the fixed costs of a call (the script's share) */
  milligas: number;
  /**
   * The entries of big maps the call wrote (applied calls; `value` null: removed), as the index has them; the
   * temporary big maps it passed on are not among them. Undefined: not compared (more than the index read).
   */
  bigMapDiffs?: { ptr: number; key_hash: string; value: unknown }[];
  /**
   * A call backtracked with `storage_exhausted.operation` (it ran to its end, then its storage growth passed its
   * limit): the bytes its receipt says its contract would have paid for. The replay must run out of storage too.
   */
  storageExhausted?: { contract: string; paid: number };
  /** A failed call's FAILWITH value, as its receipt's script_rejected error has it. */
  failedWith?: Micheline;
}

export interface ReplayComparison {
  recorded: { status: string; consumed_milligas: number; storage?: Micheline };
  equal: boolean;
  /** what differs, in words ('status: recorded applied, replayed failed', …) */
  differences: string[];
}

/** A big-map value written the same way whatever its form (readable or optimized, macros): its canonical text. */
export type ValueText = (ptr: number, value: Micheline) => string;

/**
 * A ValueText that reads values with their big map's value type and writes them as the chain would (Optimized),
 * else as they are.
 */
export function chainValueText(chain: ChainContext, chainId: string): ValueText {
  return (ptr, value) => {
    try {
      const t = chain.bigMapTypes?.(BigInt(ptr));
      if (!t) return canonical(value);
      const it = new Interpreter({ env: defaultEnv({ chainId }), chain });
      return canonical(
        unparse(parseData(value, t.value, { ...it.dataContext(), allowTickets: true }), 'Optimized'),
      );
    } catch {
      return canonical(value);
    }
  };
}

/** The entries a run wrote in big maps that outlive it (ids ≥ 0), `ptr key_hash` → value (null: removed). */
function writtenEntries(diff: readonly LazyStorageDiffItem[], text: ValueText): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of diff) {
    if (item.kind !== 'big_map' || !/^\d+$/.test(item.id) || !('updates' in item.diff)) continue;
    for (const u of item.diff.updates)
      out.set(`${item.id} ${u.key_hash}`, u.value === undefined ? 'null' : text(Number(item.id), u.value));
  }
  return out;
}

/**
 * The replay's status, storage, gas and big-map writes (`lazy`: its lazy-storage diff) against the recorded
 * ones.
 */
export function compareReplay(
  rec: RecordedResult,
  out: DebugRecording,
  lazy: readonly LazyStorageDiffItem[] = [],
  text: ValueText = (_ptr, v) => canonical(v),
): ReplayComparison {
  const differences: string[] = [];
  const exhausted = rec.storageExhausted;
  if (exhausted) {
    // backtracked for its storage: the replay ran the whole script, then its storage check failed
    const f = out.failure;
    if (f?.kind !== 'storage_exhausted' || !f.storage)
      differences.push(
        `status: recorded ${rec.status} (storage exhausted), replayed ${out.status}${f ? ` (${f.kind})` : ''}`,
      );
    else {
      const paid =
        f.storage.contracts.find((c) => c.address === exhausted.contract)?.paid_storage_size_diff ?? 0;
      if (paid !== exhausted.paid)
        differences.push(`storage growth: recorded ${exhausted.paid} bytes, replayed ${paid} bytes`);
      if (rec.milligas !== out.consumed_milligas)
        differences.push(`gas: recorded ${rec.milligas / 1000}, replayed ${out.consumed_milligas / 1000}`);
    }
  } else if (rec.status === 'backtracked' ? out.status !== 'applied' : rec.status !== out.status)
    // a backtracked call ran to its end (its group failed after it): its replay applies
    differences.push(`status: recorded ${rec.status}, replayed ${out.status}`);
  else if (rec.status === 'failed' && rec.failedWith !== undefined && out.failure?.with !== undefined) {
    const text = (v: Micheline) => formatMichelsonInline(v).slice(0, 200);
    if (canonical(rec.failedWith) !== canonical(out.failure.with))
      differences.push(`failed with: recorded ${text(rec.failedWith)}, replayed ${text(out.failure.with)}`);
  }
  // what a call that ran to its end left: compared when the replay ran to its end too
  const ran =
    (rec.status === 'applied' || (rec.status === 'backtracked' && !exhausted)) && out.status === 'applied';
  if (ran && rec.storage !== undefined) {
    const norm = (v: Micheline) => canonical(readableValue(rec.storageType, v));
    if (out.storage === undefined || norm(rec.storage) !== norm(out.storage))
      differences.push('storage after the call differs from the recorded one');
  }
  if (ran && rec.milligas !== out.consumed_milligas)
    differences.push(`gas: recorded ${rec.milligas / 1000}, replayed ${out.consumed_milligas / 1000}`);
  if (ran && rec.bigMapDiffs) {
    const recorded = new Map(
      rec.bigMapDiffs.map((d) => [
        `${d.ptr} ${d.key_hash}`,
        d.value == null ? 'null' : text(d.ptr, d.value as Micheline),
      ]),
    );
    const replayed = writtenEntries(lazy, text);
    const differ = [...new Set([...recorded.keys(), ...replayed.keys()])].filter(
      (k) => recorded.get(k) !== replayed.get(k),
    );
    if (differ.length > 0) {
      const [ptr, keyHash] = differ[0]!.split(' ');
      differences.push(
        `big-map diff: ${differ.length} of ${Math.max(recorded.size, replayed.size)} entries differ ` +
          `(recorded ${recorded.size}, replayed ${replayed.size}; first: big map ${ptr}, key ${keyHash})`,
      );
    }
  }
  return {
    recorded: {
      status: rec.status,
      consumed_milligas: rec.milligas,
      ...(rec.storage !== undefined ? { storage: rec.storage } : {}),
    },
    equal: differences.length === 0,
    differences,
  };
}

/**
 * A TZIP-16 `errors` entry: static (a FAILWITH value and its expansion, both Micheline), or computed by an
 * off-chain view of the metadata (`view`), whose michelsonStorageView the API resolved (`storageView`).
 */
export interface MetadataError {
  error?: unknown;
  expansion?: unknown;
  languages?: unknown;
  view?: string;
  storageView?: { parameter?: Micheline; returnType: Micheline; code: Micheline };
}

/** Bounds of the error views run for one failure: how many, the gas and the wall-clock time of each. */
export const ERROR_VIEW_LIMITS = { views: 3, milligas: 200_000_000, ms: 1_000 };

/** Micheline without annotations, as JSON with sorted keys: equal values write the same. */
function canonical(e: unknown): string {
  return JSON.stringify(e, (k, v: unknown) =>
    k === 'annots'
      ? undefined
      : v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
  );
}

/** An expansion as text (a string, UTF-8 bytes, else its JSON), at most 2,000 characters. */
function expansionText(x: unknown): string {
  const e = x as { string?: unknown; bytes?: unknown } | undefined;
  let text: string;
  if (typeof e?.string === 'string') text = e.string;
  else if (typeof e?.bytes === 'string' && /^([0-9a-f]{2})*$/i.test(e.bytes))
    text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(e.bytes, 'hex'));
  else text = JSON.stringify(x);
  return text.slice(0, 2000);
}

const languagesOf = (entry: MetadataError) => {
  const languages = Array.isArray(entry.languages)
    ? entry.languages.filter((l): l is string => typeof l === 'string')
    : undefined;
  return languages?.length ? { languages } : {};
};

/** The expansion of the static `errors` entry of `value`, as text (a string, or UTF-8 bytes). */
export function errorMeaning(
  errors: readonly MetadataError[],
  value: Micheline,
): { text: string; languages?: string[] } | undefined {
  const key = canonical(value);
  const hit = errors.find((e) => e.error !== undefined && canonical(e.error) === key);
  if (!hit || hit.expansion === undefined) return undefined;
  return { text: expansionText(hit.expansion), ...languagesOf(hit) };
}

/**
 * The meaning of `value` computed by the `errors` entries that name an off-chain view: each view (at most
 * {@link ERROR_VIEW_LIMITS}.views) runs with the value as its input and the contract's storage, bounded in gas
 * and time; the first that returns a string or bytes gives the meaning. A view that fails, or whose input type
 * does not take the value, gives none.
 */
export function viewErrorMeaning(
  errors: readonly MetadataError[],
  value: Micheline,
  call: DebugCall,
  chain: ChainContext,
  limits = ERROR_VIEW_LIMITS,
): { text: string; languages?: string[]; view: string } | undefined {
  const storageType = (
    call.script.find((s) => !Array.isArray(s) && 'prim' in s && s.prim === 'storage') as
      { args?: Micheline[] } | undefined
  )?.args?.[0];
  if (!storageType) return undefined;
  for (const entry of errors.filter((e) => e.view && e.storageView).slice(0, limits.views)) {
    const v = entry.storageView!;
    const until = Date.now() + limits.ms;
    let steps = 0;
    const run = runContract({
      script: storageViewScript(v.parameter, storageType, v.returnType, v.code),
      storage: { prim: 'None' },
      parameter: v.parameter ? { prim: 'Pair', args: [value, call.storage] } : call.storage,
      entrypoint: 'default',
      amount: 0n,
      balance: 0n,
      self: call.self,
      now: BigInt(call.now),
      level: BigInt(call.level),
      chainId: call.chainId,
      gasLimit: limits.milligas,
      chain,
      // the wall-clock bound: a step past it stops the run (a failed run: no meaning)
      onStep: () => {
        if (++steps % 1024 === 0 && Date.now() > until) throw new Error('error view: time limit');
      },
    });
    const out = run.ok ? storageViewResult(run.storage) : undefined;
    const x = out as { string?: unknown; bytes?: unknown } | undefined;
    if (typeof x?.string === 'string' || typeof x?.bytes === 'string')
      return { text: expansionText(out), ...languagesOf(entry), view: entry.view! };
  }
  return undefined;
}

/**
 * A TZIP-16 michelsonStorageView as a script that run_code runs: its parameter is the view's input paired with
 * the contract's storage (the storage alone for a view without input), its storage `Some result` after.
 */
export function storageViewScript(
  paramType: Micheline | undefined,
  storageType: Micheline,
  returnType: Micheline,
  code: Micheline,
): Micheline[] {
  return [
    { prim: 'parameter', args: [paramType ? { prim: 'pair', args: [paramType, storageType] } : storageType] },
    { prim: 'storage', args: [{ prim: 'option', args: [returnType] }] },
    {
      prim: 'code',
      args: [
        [
          { prim: 'CAR' },
          ...(Array.isArray(code) ? code : [code]),
          { prim: 'SOME' },
          { prim: 'NIL', args: [{ prim: 'operation' }] },
          { prim: 'PAIR' },
        ],
      ],
    },
  ];
}

/** An off-chain view's result out of its wrapper script's storage after the run (`Some result`), or undefined. */
export function storageViewResult(storage: Micheline): Micheline | undefined {
  return !Array.isArray(storage) && 'prim' in storage && storage.prim === 'Some'
    ? storage.args?.[0]
    : undefined;
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
