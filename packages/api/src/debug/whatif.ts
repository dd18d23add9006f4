/**
 * What-if runs (issue 20, capability 5): a bundle of calls of one contract run in order in our interpreter,
 * against a state the caller may override, each call starting from the state the previous one left. Each call
 * runs with its internal operations, as the chain applies them (whatif-exec.ts): every contract it reaches runs
 * against the bundle's overlay (storage, balance, big maps), originations create contracts, tez move; a failed
 * operation fails its call. The answer has, per call and for the bundle: the storage diff of every contract
 * touched, big-map changes, balance changes, events, the internal operations with their status, and gas,
 * paid storage, burn and the fee a wallet would propose. Pure and synchronous: it runs in a debug worker.
 *
 * Over ~400 lines because runWhatIf builds one answer (per call and bundle totals of diffs, balances, burns,
 * gas and fees) from the run's state in one pass; its execution is already in whatif-exec.ts and its fee
 * estimate in fee.ts.
 */
import type { ChainContext, Expr } from '@michelscope/interpreter';
import {
  buildTypeTree,
  decodeParameters,
  diffValues,
  normalizeValue,
  originatedContractAddress,
  toMicheline,
  toMiguel,
  type Micheline,
  type MiguelNode,
  type TypeNode,
} from '@michelscope/michelson';
import { keyString, stampAll } from '../render/big-map-keys';
import { estimateFee } from './fee';
import { executeCall, whatIfOperationHash, type CallRun } from './whatif-exec';
import { Overlay, type WhatIfChain } from './whatif-overlay';
import { withNewBigMaps } from './whatif-new-maps';
import { ledgerSnapshot, whatIfFlow, type LedgerSnapshot } from '../flow/whatif';

/** One call of the bundle, ready to run (parameter as Micheline, amounts in mutez). */
export interface BundleCall {
  entrypoint: string;
  parameter: Micheline;
  amount: string;
  sender?: string | undefined;
  source?: string | undefined;
  gasLimit: number;
  /** bytes of paid storage the call may use (absent: not checked) */
  storageLimit?: number | undefined;
}

/** An overridden big-map entry: its key hash computed by the API (key typed against the map's key type). */
export interface EntryOverride {
  ptr: number;
  keyHash: string;
  key: Micheline;
  value: Micheline | null;
}

/** The state the bundle starts from (each field the override or the head's value). */
export interface BundleStart {
  script: Micheline[];
  storageType: Micheline;
  parameterType: Micheline;
  self: string;
  storage: Micheline;
  balance: string;
  now: string;
  level: string;
  chainId: string;
  entries: EntryOverride[];
  /** The bytes the contract's storage uses and has paid for (the node's used_space / paid_space). */
  usedSpace?: string | undefined;
  paidSpace?: string | undefined;
  /** Network constants: mutez per byte of new storage, bytes burned per origination or new account. */
  costPerByte?: string | undefined;
  originationSize?: number | undefined;
}

export interface WhatIfTask extends BundleStart {
  calls: BundleCall[];
  /** Names (field annotations) of the contract's big maps, by id. */
  names: Record<string, string | null>;
  /** Echoed in `inputs`. */
  inputs: Record<string, unknown>;
  /** Echoed: the level whose state the bundle starts from, the head then, whether the contract changed since. */
  state?: { level: number; head_level: number; changed_since: boolean } | undefined;
}

const MAX_KEYS_SHOWN = 100;
/** Bytes burned per origination or new implicit account when the network's constants do not say. */
export const ORIGINATION_SIZE = 257;

const canonical = (e: unknown) => JSON.stringify(e, (k, v: unknown) => (k === 'annots' ? undefined : v));

/** The state a bundle evolves: every contract it touched, balances and big maps, over the chain. */
export class BundleState {
  readonly overlay: Overlay;
  private calls = 0;

  constructor(
    readonly start: BundleStart,
    base: WhatIfChain,
  ) {
    this.overlay = new Overlay(base, {
      address: start.self,
      script: start.script,
      storage: start.storage,
      balance: start.balance,
      usedSpace: start.usedSpace,
      paidSpace: start.paidSpace,
    });
    for (const e of start.entries) this.overlay.override(e.ptr, e.keyHash, e.key, e.value);
  }

  get storage(): Micheline {
    return this.overlay.contract(this.start.self)!.storage;
  }

  get balance(): bigint {
    return this.overlay.contract(this.start.self)!.balance;
  }

  /** The chain a recording of the next call sees (contracts and big maps as the bundle left them). */
  chain(): ChainContext {
    return this.overlay.chain(() => originatedContractAddress(whatIfOperationHash('debug'), 0));
  }

  /** Runs one call of the bundle with its internal operations; an applied call moves the state on. */
  run(call: BundleCall): CallRun {
    const i = this.calls++;
    const s = this.start;
    return executeCall(this.overlay, {
      self: s.self,
      entrypoint: call.entrypoint,
      parameter: call.parameter,
      amount: BigInt(call.amount),
      sender: call.sender,
      source: call.source,
      now: BigInt(s.now),
      level: BigInt(s.level),
      chainId: s.chainId,
      gasLimit: call.gasLimit,
      storageLimit: call.storageLimit,
      operationHash: whatIfOperationHash(`what-if/${s.self}/${s.level}/${i}`),
      costPerByte: BigInt(s.costPerByte ?? '0'),
      originationSize: BigInt(s.originationSize ?? ORIGINATION_SIZE),
    });
  }
}

/** Runs one call against the state (with its internal operations); an applied call moves the state on. */
export function runBundleCall(state: BundleState, call: BundleCall): CallRun {
  return state.run(call);
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

interface OperationOut {
  kind: string;
  source: string;
  status: string;
  depth: number;
  consumed_milligas: number;
  destination?: string;
  amount?: string;
  entrypoint?: string;
  parameter?: Micheline;
  parameters?: MiguelNode[];
  delegate?: string | null;
  tag?: string;
  payload?: MiguelNode[];
  originated_contract?: string;
  storage_size?: number;
  paid_storage_size_diff?: number;
  allocated_destination_contract?: boolean;
}

/** Gas, storage and burn of a call or of the bundle (mutez as strings). */
interface Fees {
  consumed_milligas: number;
  consumed_gas: number;
  paid_storage_size_diff: number;
  storage_burn: string;
  allocations: number;
  allocation_burn: string;
  burn: string;
  /** The limits a wallet would set (Taquito's estimate: gas + 100, storage + 20) and the fee it proposes. */
  gas_limit: number;
  storage_limit: number;
  op_size: number;
  fee: string;
}

/** Runs the bundle and builds the answer (as JSON text: a large one never crosses threads as objects). */
export function runWhatIf(task: WhatIfTask, chain: WhatIfChain): string {
  const state = new BundleState(task, chain);
  const overlay = state.overlay;
  const costPerByte = BigInt(task.costPerByte ?? '0');
  const originationSize = BigInt(task.originationSize ?? ORIGINATION_SIZE);
  const parameterOf = (address: string): Micheline | null =>
    address.startsWith('KT1') ? (overlay.contract(address)?.parameter ?? null) : null;
  const storageTypeOf = (address: string) => {
    const t = overlay.contract(address)?.storageType;
    return t ? (safe(() => buildTypeTree(t)) ?? null) : null;
  };
  const readable = (address: string, v: Micheline) => {
    const t = overlay.contract(address)?.storageType;
    return (t && safe(() => normalizeValue(t, v, 'readable'))) ?? v;
  };

  const calls: Record<string, unknown>[] = [];
  const totals = { milligas: 0, paid: 0n, allocations: 0, opSize: 0, fee: 0n };
  /** Field names of the big maps the bundle allocated, by id (from the storages they sit in). */
  const newNames = new Map<string, string>();
  let failedAt = -1;
  /** The token ledgers after each call, for the flow graph's checks. */
  const ledgers: LedgerSnapshot[] = [];
  for (const [i, call] of task.calls.entries()) {
    const decoded = safe(() =>
      decodeParameters(task.parameterType, { entrypoint: call.entrypoint, value: call.parameter }),
    );
    const base = { entrypoint: call.entrypoint, ...(decoded ? { parameters: decoded } : {}) };
    if (failedAt >= 0) {
      calls.push({
        ...base,
        status: 'skipped',
        consumed_gas: 0,
        consumed_milligas: 0,
        operations: [],
        events: [],
        balance_updates: [],
        contracts: [],
      });
      continue;
    }
    const before = new Map(
      overlay.touched().map(([a, c]) => [a, { storage: c.storage, balance: c.balance }] as const),
    );
    const balancesBefore = new Map(overlay.balanceChanges().map((b) => [b.address, b.change]));
    const res = state.run(call);
    ledgers.push(ledgerSnapshot(overlay));
    const main = res.main;
    const scriptMilligas = main?.consumedMilligas ?? 0;
    const out: Record<string, unknown> = {
      ...base,
      status: res.ok ? 'applied' : 'failed',
      consumed_gas: Math.ceil(res.consumedMilligas / 1000),
      consumed_milligas: res.consumedMilligas,
      script_milligas: scriptMilligas,
    };
    const operations: OperationOut[] = [];
    const events: OperationOut[] = [];
    for (const o of res.operations) {
      const op: OperationOut = {
        kind: o.kind,
        source: o.source,
        status: o.status,
        depth: o.depth,
        consumed_milligas: o.consumed_milligas,
      };
      if (o.destination !== undefined) op.destination = o.destination;
      if (o.amount !== undefined) op.amount = o.amount;
      if (o.parameter !== undefined) {
        op.entrypoint = o.entrypoint ?? 'default';
        op.parameter = o.parameter;
        const t = op.destination ? parameterOf(op.destination) : null;
        const p = t
          ? safe(() => decodeParameters(t, { entrypoint: op.entrypoint, value: o.parameter! }))
          : undefined;
        if (p) op.parameters = p;
      }
      if (o.delegate !== undefined) op.delegate = o.delegate;
      if (o.tag !== undefined) op.tag = o.tag;
      if (o.originated_contract) op.originated_contract = o.originated_contract;
      if (o.storage_size !== undefined) op.storage_size = o.storage_size;
      if (o.paid_storage_size_diff !== undefined) op.paid_storage_size_diff = o.paid_storage_size_diff;
      if (o.allocated_destination_contract) op.allocated_destination_contract = true;
      if (o.kind === 'event') {
        const payload =
          o.type !== undefined && o.payload !== undefined
            ? safe(() => toMiguel(toMicheline(o.type), toMicheline(o.payload)))
            : undefined;
        if (payload) op.payload = payload;
        events.push(op);
      }
      operations.push(op);
    }
    const updates: { address: string; change: string }[] = [];
    const contracts: Record<string, unknown>[] = [];
    if (res.ok) {
      out.storage = state.storage;
      out.storage_diff = withNewBigMaps(
        safe(() =>
          diffValues(buildTypeTree(task.storageType), state.storage, before.get(task.self)!.storage),
        ),
        overlay,
        newNames,
      );
      for (const b of overlay.balanceChanges()) {
        const change = b.change - (balancesBefore.get(b.address) ?? 0n);
        if (change !== 0n) updates.push({ address: b.address, change: String(change) });
      }
      for (const address of res.contracts) {
        const c = overlay.contract(address)!;
        const prev = before.get(address)?.storage ?? null;
        const t = storageTypeOf(address);
        contracts.push({
          address,
          originated: prev === null && c.originated,
          storage_before: prev,
          storage_after: readable(address, c.storage),
          storage_diff: withNewBigMaps(
            t &&
              safe(() =>
                prev === null
                  ? stampAll(toMiguel(t, c.storage)[0]!, 'create')
                  : diffValues(t, c.storage, prev),
              ),
            overlay,
            newNames,
          ),
          storage_size: Number(c.used),
          paid_storage_size_diff: Number(res.paid.get(address) ?? 0n),
        });
      }
    } else {
      failedAt = i;
      const f = res.failure!;
      if (f.errors) out.errors = f.errors;
      out.failure = f;
    }
    let paid = 0n;
    for (const b of res.paid.values()) paid += b;
    const fees = feesOf(res.consumedMilligas, paid, res.allocations, costPerByte, originationSize, call);
    totals.milligas += res.consumedMilligas;
    totals.paid += paid;
    totals.allocations += res.allocations;
    totals.opSize += fees.op_size;
    totals.fee += BigInt(fees.fee);
    out.fees = fees;
    out.operations = operations;
    out.events = events;
    out.balance_updates = updates;
    out.contracts = contracts;
    calls.push(out);
  }
  if (failedAt >= 0)
    for (const c of calls.slice(0, failedAt)) if (c.status === 'applied') c.status = 'backtracked';

  // every contract the bundle touched: its storage at the start and after the last applied call
  const contracts = [...overlay.startOf]
    .filter(([address]) => overlay.contract(address))
    .map(([address, s]) => {
      const c = overlay.contract(address)!;
      const t = storageTypeOf(address);
      const after = readable(address, c.storage);
      const diff =
        t &&
        safe(() =>
          s.storage === null
            ? stampAll(toMiguel(t, c.storage)[0]!, 'create')
            : diffValues(t, c.storage, s.storage),
        );
      return {
        address,
        originated: s.storage === null,
        storage_before: s.storage,
        storage_after: after,
        storage_diff: withNewBigMaps(diff, overlay, newNames),
        changed: s.storage === null || canonical(readable(address, s.storage)) !== canonical(after),
      };
    })
    .filter((c) => c.changed || c.address === task.self)
    .map(({ changed: _, ...c }) => c);

  const last = state.storage;
  const storageDiff = withNewBigMaps(
    safe(() => diffValues(buildTypeTree(task.storageType), last, task.storage)),
    overlay,
    newNames,
  );

  const bigMaps = overlay.changes().map(({ ptr, keys }) => {
    const types = overlay.typesOf(ptr);
    const kt = types && safe(() => buildTypeTree(types.key));
    const vt = types && safe(() => buildTypeTree(types.value));
    const counts = { added: 0, changed: 0, removed: 0 };
    const items: Record<string, unknown>[] = [];
    const norm = (v: Expr) => (vt ? (safe(() => normalizeValue(vt, v, 'readable')) ?? v) : v);
    for (const k of keys) {
      const change =
        k.before === null && k.after !== null
          ? 'added'
          : k.before !== null && k.after === null
            ? 'removed'
            : k.before !== null && k.after !== null && canonical(norm(k.before)) !== canonical(norm(k.after))
              ? 'changed'
              : null;
      if (!change) continue;
      counts[change]++;
      if (items.length >= MAX_KEYS_SHOWN) continue;
      const miguel = (v: Expr, t: TypeNode) => toMiguel(t, v)[0]!;
      const value = vt
        ? safe(() =>
            change === 'added'
              ? stampAll(miguel(k.after!, vt), 'create')
              : change === 'removed'
                ? stampAll(miguel(k.before!, vt), 'delete')
                : diffValues(vt, k.after as Micheline, k.before as Micheline),
          )
        : undefined;
      items.push({
        key_hash: k.keyHash,
        key: (kt && safe(() => miguel(k.key, kt))) ?? null,
        key_string: keyString(kt ?? undefined, k.key),
        change,
        value: value ?? null,
      });
    }
    const owner = overlay.ownerOf(ptr);
    return {
      ptr: Number(ptr),
      // a map the bundle allocated: the field it sits in (its id is the run's, never the chain's)
      name: task.names[String(ptr)] ?? newNames.get(String(ptr)) ?? null,
      ...(owner ? { contract: owner } : {}),
      counts,
      items,
    };
  });

  const balanceChanges = overlay.balanceChanges().map((b) =>
    b.before !== undefined
      ? {
          address: b.address,
          before: String(b.before),
          after: String(b.after),
          change: String(b.change),
        }
      : { address: b.address, change: String(b.change) },
  );
  const storageBurn = totals.paid * costPerByte;
  const allocationBurn = BigInt(totals.allocations) * originationSize * costPerByte;
  return JSON.stringify({
    status: failedAt >= 0 ? 'failed' : 'applied',
    calls,
    storage_before: task.storage,
    storage_after: last,
    storage_diff: storageDiff,
    contracts,
    big_maps: bigMaps.filter((m) => m.counts.added + m.counts.changed + m.counts.removed > 0),
    balance_changes: balanceChanges,
    totals: {
      consumed_milligas: totals.milligas,
      consumed_gas: Math.ceil(totals.milligas / 1000),
      paid_storage_size_diff: Number(totals.paid),
      storage_burn: String(storageBurn),
      allocations: totals.allocations,
      allocation_burn: String(allocationBurn),
      burn: String(storageBurn + allocationBurn),
      fee: String(totals.fee),
    },
    cost_per_byte: String(costPerByte),
    ...(task.state ? { state: task.state } : {}),
    flow: whatIfFlow(task.self, task.calls, calls, ledgers),
    inputs: task.inputs,
  });
}

/** A call's gas, storage and burn, and the fee a wallet would propose for it (`estimateFee`). */
function feesOf(
  milligas: number,
  paid: bigint,
  allocations: number,
  costPerByte: bigint,
  originationSize: bigint,
  call: BundleCall,
): Fees {
  const storageBurn = paid * costPerByte;
  const allocationBurn = BigInt(allocations) * originationSize * costPerByte;
  const storage = Number(paid + BigInt(allocations) * originationSize);
  const estimate = estimateFee({
    milligas,
    storage,
    costPerByte: Number(costPerByte),
    amount: call.amount,
    entrypoint: call.entrypoint,
    parameter: call.parameter,
  });
  return {
    consumed_milligas: milligas,
    consumed_gas: Math.ceil(milligas / 1000),
    paid_storage_size_diff: Number(paid),
    storage_burn: String(storageBurn),
    allocations,
    allocation_burn: String(allocationBurn),
    burn: String(storageBurn + allocationBurn),
    gas_limit: estimate.gasLimit,
    storage_limit: estimate.storageLimit,
    op_size: estimate.opSize,
    fee: String(estimate.fee),
  };
}
