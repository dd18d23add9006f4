// One debug recording in a debug worker (runner.ts). The interpreter is synchronous, the chain (contracts, big
// maps, constants) is in the API's database and the node: each lookup is posted to the API thread, and this
// thread waits on a shared flag until the answer is on the port (Atomics.wait + receiveMessageOnPort).
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { DebugResult, WhatIfResult } from '@michelscope/api-types';
import {
  toTy,
  type ChainContext,
  type ContractInfo,
  type EmittedOperation,
  type Expr,
  type LazyStorageDiffItem,
} from '@michelscope/interpreter';
import type { MetadataError } from './error-meaning';
import { recordCall, type DebugCall, type DebugRecording } from './record';
import { asOnChain, chainValueText, compareReplay, type RecordedResult } from './replay';
import {
  BundleState,
  runBundleCall,
  runWhatIf,
  type BundleCall,
  type BundleStart,
  type WhatIfTask,
} from './whatif';
import type { WhatIfChain } from './whatif-overlay';
import { SchemaCheck, type ValidatedJson } from '../validated-json';
import { analyseSecurity, type SecuritySummary } from '../security/analyse';
import type { Micheline } from '@michelscope/michelson';
import { debugFlow, ownLedgerDelta } from '../flow/debug';

/**
 * What a debug route adds to the recording in its answer: the inputs the call ran with (a replay's storage and
 * parameter are rewritten here in the chain's form), a debugged view's kind and name, the level it ran at.
 */
export type DebugEcho = Pick<DebugResult, 'inputs'> & Partial<Pick<DebugResult, 'view' | 'state'>>;

export interface DebugTask {
  /** The call to record (a debug run). */
  call?: DebugCall;
  /** A debug run with overrides: the state it starts from and the bundle's calls before the recorded one. */
  bundle?: { start: BundleStart; before: BundleCall[]; call?: BundleCall };
  /** Or a what-if bundle (whatif.ts): run, not recorded. */
  whatif?: WhatIfTask;
  /** Or a contract's permission and upgrade-risk summary (security/analyse.ts): no chain lookups. */
  security?: { script: Micheline[]; storage?: Micheline | undefined };
  /** Chain lookups go out and their answers come back on this port. */
  port: MessagePort;
  /** Int32 flag the API thread sets to 1 (and notifies) once an answer is on the port. */
  flag: SharedArrayBuffer;
  /** How long one lookup may take, in ms. */
  lookupTimeoutMs: number;
  maxLookups: number;
  /** The contract's TZIP-16 `errors`: static (FAILWITH values and their meaning) or computed by a view. */
  errors: MetadataError[];
  /** A replayed call: what the chain recorded, compared with the replay (answer's `replay`). */
  recorded?: RecordedResult;
  /** A recording's fields added to the answer as they are (the route's echo of the inputs). */
  extra?: DebugEcho | undefined;
}

export type ChainQuery =
  | { method: 'contract'; address: string }
  | { method: 'bigMapTypes'; id: string }
  | { method: 'bigMapGet'; id: string; keyHash: string }
  | { method: 'globalConstant'; hash: string }
  | { method: 'script'; address: string }
  | { method: 'balance'; address: string }
  | { method: 'bigMapBytes'; id: string }
  | { method: 'saplingBytes'; id: string };

export type ChainAnswer = { ok: true; value: unknown } | { ok: false; message: string };

export class ChainLookupError extends Error {}

/** The chain seen through the API thread; `failure` is the first lookup that failed (the run is then void). */
function bridge(task: DebugTask): { chain: WhatIfChain; failure: () => string | undefined } {
  const flag = new Int32Array(task.flag);
  let lookups = 0;
  let failure: string | undefined;
  const fail = (message: string) => {
    failure ??= message;
    return new ChainLookupError(message);
  };
  const ask = (q: ChainQuery): unknown => {
    if (++lookups > task.maxLookups) throw fail(`more than ${task.maxLookups} chain lookups in one call`);
    Atomics.store(flag, 0, 0);
    task.port.postMessage(q);
    if (Atomics.wait(flag, 0, 0, task.lookupTimeoutMs) === 'timed-out')
      throw fail(`chain lookup ${q.method} timed out`);
    // the answer is posted before the flag is set; should it not be readable yet, look again for a while
    let got = receiveMessageOnPort(task.port);
    const until = Date.now() + 1_000;
    while (!got && Date.now() < until) {
      Atomics.wait(flag, 0, 1, 2);
      got = receiveMessageOnPort(task.port);
    }
    const m = got?.message as ChainAnswer | undefined;
    if (!m) throw fail(`chain lookup ${q.method} got no answer`);
    if (!m.ok) throw fail(m.message);
    return m.value;
  };
  const contracts = new Map<string, ContractInfo | null>();
  const types = new Map<string, ReturnType<NonNullable<ChainContext['bigMapTypes']>>>();
  const scripts = new Map<string, ReturnType<NonNullable<WhatIfChain['script']>>>();
  const balances = new Map<string, bigint | null>();
  const mapBytes = new Map<string, bigint | null>();
  const saplingBytes = new Map<string, bigint | null>();
  const chain: WhatIfChain = {
    contract: (address) => {
      if (!contracts.has(address))
        contracts.set(address, ask({ method: 'contract', address }) as ContractInfo | null);
      const c = contracts.get(address) ?? null;
      return c && { ...c, ...(c.balance !== undefined ? { balance: BigInt(c.balance) } : {}) };
    },
    bigMapTypes: (id) => {
      const k = String(id);
      if (!types.has(k)) {
        const t = ask({ method: 'bigMapTypes', id: k }) as { key: Expr; value: Expr } | null;
        types.set(k, t && { key: toTy(t.key), value: toTy(t.value) });
      }
      return types.get(k) ?? null;
    },
    bigMapGet: (id, _key, keyHash) => ask({ method: 'bigMapGet', id: String(id), keyHash }) as Expr | null,
    globalConstant: (hash) => ask({ method: 'globalConstant', hash }) as Expr | null,
    script: (address) => {
      if (!scripts.has(address))
        scripts.set(
          address,
          ask({ method: 'script', address }) as ReturnType<NonNullable<WhatIfChain['script']>>,
        );
      return scripts.get(address) ?? null;
    },
    accountBalance: (address) => {
      if (!balances.has(address)) {
        const b = ask({ method: 'balance', address });
        balances.set(address, typeof b === 'string' && /^\d+$/.test(b) ? BigInt(b) : null);
      }
      return balances.get(address) ?? null;
    },
    bigMapBytes: (id) => {
      const k = String(id);
      if (!mapBytes.has(k)) {
        const b = ask({ method: 'bigMapBytes', id: k });
        mapBytes.set(k, typeof b === 'string' && /^\d+$/.test(b) ? BigInt(b) : null);
      }
      return mapBytes.get(k) ?? null;
    },
    // a Sapling state's bytes (what a copy or a removal of it counts); null: unknown, counted as 0
    saplingBytes: (id) => {
      const k = String(id);
      if (!saplingBytes.has(k)) {
        const b = ask({ method: 'saplingBytes', id: k });
        saplingBytes.set(k, typeof b === 'string' && /^\d+$/.test(b) ? BigInt(b) : null);
      }
      return saplingBytes.get(k) ?? null;
    },
  };
  return { chain, failure: () => failure };
}

/** The flow graph is a view of the recording: a failure building it leaves it out, never fails the answer. */
function orNone<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

export type DebugTaskResult =
  | { json: ValidatedJson<DebugResult> }
  | { whatIf: ValidatedJson<WhatIfResult> }
  | { security: SecuritySummary }
  | { lookupError: string }
  | { invalid: string }
  /** The answer does not match the route's schema (a bug): the first failing path. */
  | { schemaError: string };

/** The routes' response schemas, compiled once per worker (on its first task of each kind). */
let debugCheck: SchemaCheck<typeof DebugResult> | undefined;
let whatIfCheck: SchemaCheck<typeof WhatIfResult> | undefined;

/**
 * The recording as the JSON text of the route's answer (built here: a large trace never crosses threads as
 * objects), checked against the route's schema before it is written.
 */
export function runDebugTask(task: DebugTask): DebugTaskResult {
  task.port.postMessage({ method: 'started' });
  try {
    if (task.security) return { security: analyseSecurity(task.security.script, task.security.storage) };
    const { chain, failure } = bridge(task);
    if (task.whatif) {
      // whatif.ts writes the text: read back and checked here, off the API's thread
      const text = runWhatIf(task.whatif, chain);
      const failed = failure();
      if (failed !== undefined) return { lookupError: failed };
      const checked = (whatIfCheck ??= new SchemaCheck(WhatIfResult)).checkText(text);
      return 'error' in checked ? { schemaError: `WhatIfResult ${checked.error}` } : { whatIf: checked.json };
    }
    if (!task.call) return { invalid: 'nothing to run' };
    if (!task.extra) return { invalid: 'a recording without its inputs' };
    let call = task.call;
    let seen = chain;
    let state: BundleState | undefined;
    if (task.bundle) {
      state = new BundleState(task.bundle.start, chain);
      for (const [i, c] of task.bundle.before.entries()) {
        const r = runBundleCall(state, c);
        if (!r.ok && failure() === undefined)
          return {
            invalid: `call ${i + 1} of the bundle (${c.entrypoint}) fails before the debugged one: ${(r.failure?.message ?? '').slice(0, 200)}`,
          };
      }
      call = { ...call, storage: state.storage, balance: String(state.balance) };
      seen = state.chain();
    }
    let extra = task.extra;
    if (task.recorded) {
      // a replay: the storage and big-map values in the chain's form; the echoed inputs say what ran
      ({ call, chain: seen } = asOnChain(call, seen));
      extra = { ...extra, inputs: { ...extra.inputs, storage: call.storage, parameter: call.parameter } };
    }
    let lazy: readonly LazyStorageDiffItem[] = [];
    let emitted: readonly EmittedOperation[] = [];
    const out: DebugRecording = recordCall(
      call,
      seen,
      undefined,
      task.errors,
      (d) => (lazy = d),
      (ops) => (emitted = ops),
    );
    // the flow graph (a contract call only, not a view): its own ledger changes read now, before a storage
    // limit's run below moves the bundle's state on
    const flows = call.view === undefined && !call.storageView;
    const ledger = flows ? orNone(() => ownLedgerDelta(call, out.storage, lazy, seen)) : undefined;
    // with a storage limit: the call with its internal operations and the storage it pays for (whatif-exec.ts)
    const limited = task.bundle?.call;
    if (state && limited && out.status === 'applied') {
      const run = state.run(limited);
      const f = run.failure;
      if (f && (f.kind === 'storage_exhausted' || f.kind === 'cannot_pay_storage_fee')) {
        out.status = 'failed';
        out.failure = {
          kind: f.kind,
          message: f.message,
          ...(f.storage ? { storage: f.storage } : {}),
          ...(f.burn ? { burn: f.burn } : {}),
        };
      }
    }
    const failed = failure();
    if (failed !== undefined) return { lookupError: failed };
    const replay = task.recorded
      ? { replay: compareReplay(task.recorded, out, lazy, chainValueText(seen, call.chainId)) }
      : {};
    const flow = flows ? orNone(() => debugFlow(call, out.status, emitted, ledger, seen)) : undefined;
    const answer: DebugResult = { ...out, ...replay, ...extra, ...(flow ? { flow } : {}) };
    const checked = (debugCheck ??= new SchemaCheck(DebugResult)).stringify(answer);
    return 'error' in checked ? { schemaError: `DebugResult ${checked.error}` } : { json: checked.json };
  } finally {
    task.port.close();
  }
}
