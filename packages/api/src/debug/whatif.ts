/**
 * What-if runs (issue 20, capability 5): a bundle of calls of one contract run in order in our interpreter,
 * against a state the caller may override, each call starting from the state the previous one left: storage,
 * balance and big maps (entries written, maps allocated, copied or removed) carry over. Big-map reads go to the
 * overlay first (the overridden entries, then what earlier calls wrote), then to the chain. Internal operations
 * are listed, not executed. Pure and synchronous: it runs in a debug worker (runner.ts).
 */
import {
  runContract,
  toTy,
  tyToExpr,
  type ChainContext,
  type Expr,
  type LazyStorageDiffItem,
  type Ty,
} from '@michelscope/interpreter';
import {
  buildTypeTree,
  decodeParameters,
  diffValues,
  formatMichelson,
  formatTezosErrors,
  normalizeValue,
  toMicheline,
  toMiguel,
  type Micheline,
  type MiguelNode,
  type TypeNode,
} from '@michelscope/michelson';
import { keyString, stampAll } from '../render/big-map-keys';

/** One call of the bundle, ready to run (parameter as Micheline, amounts in mutez). */
export interface BundleCall {
  entrypoint: string;
  parameter: Micheline;
  amount: string;
  sender?: string | undefined;
  source?: string | undefined;
  gasLimit: number;
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
}

export interface WhatIfTask extends BundleStart {
  calls: BundleCall[];
  /** Names (field annotations) of the contract's big maps, by id. */
  names: Record<string, string | null>;
  /** Echoed in `inputs`. */
  inputs: Record<string, unknown>;
}

const MAX_KEYS_SHOWN = 100;

interface MapState {
  types: { key: Ty; value: Ty } | null;
  /** the chain big map lookups fall back to (null: none, a map the bundle allocated) */
  base: bigint | null;
  entries: Map<string, { key: Expr; value: Expr | null }>;
}

const canonical = (e: unknown) => JSON.stringify(e, (k, v: unknown) => (k === 'annots' ? undefined : v));

/**
 * The state a bundle evolves: storage, balance and a big-map overlay over the chain. `chain()` is the chain
 * the interpreter sees (reads through the overlay; SELF's storage and balance are the current ones).
 */
export class BundleState {
  storage: Micheline;
  balance: bigint;
  private readonly maps = new Map<string, MapState>();
  /** The value each touched key had when the bundle started (undefined: not read yet). */
  private readonly started = new Map<string, Map<string, { key: Expr; value: Expr | null }>>();
  private nextTemp = 0n;

  constructor(
    private readonly start: BundleStart,
    private readonly base: ChainContext,
  ) {
    this.storage = start.storage;
    this.balance = BigInt(start.balance);
    for (const e of start.entries) {
      const m = this.mapOf(BigInt(e.ptr));
      m.entries.set(e.keyHash, { key: e.key, value: e.value });
    }
  }

  private mapOf(id: bigint): MapState {
    const k = String(id);
    let m = this.maps.get(k);
    if (!m) {
      m = { types: null, base: id >= 0n ? id : null, entries: new Map() };
      this.maps.set(k, m);
    }
    return m;
  }

  private lookup(id: bigint, key: Expr, keyHash: string): Expr | null {
    const m = this.maps.get(String(id));
    const hit = m?.entries.get(keyHash);
    if (hit) return hit.value;
    const base = m ? m.base : id;
    if (base === null) return null;
    if (m && base !== id) return this.lookup(base, key, keyHash);
    return this.base.bigMapGet?.(base, key, keyHash) ?? null;
  }

  private types(id: bigint): { key: Ty; value: Ty } | null {
    const m = this.maps.get(String(id));
    if (m?.types) return m.types;
    if (m && m.base !== null && m.base !== id) return this.types(m.base);
    if (m && m.base === null) return null;
    return this.base.bigMapTypes?.(id) ?? null;
  }

  /** Micheline types of a big map (for decoding), or null. */
  typesOf(id: bigint): { key: Micheline; value: Micheline } | null {
    const t = this.types(id);
    return t && { key: tyToExpr(t.key), value: tyToExpr(t.value) };
  }

  chain(): ChainContext {
    const self = this.start.self;
    return {
      ...this.base,
      contract: (address) => {
        const c = this.base.contract?.(address) ?? null;
        if (address !== self || !c) return c;
        return { ...c, storage: this.storage, balance: this.balance };
      },
      bigMapTypes: (id) => this.types(id),
      bigMapGet: (id, key, keyHash) => this.lookup(id, key, keyHash),
    };
  }

  allocate = (): bigint => --this.nextTemp;

  /** Remembers the value a key had at the start of the bundle, before a call writes it. */
  private noteStart(id: bigint, keyHash: string, key: Expr): void {
    const k = String(id);
    let s = this.started.get(k);
    if (!s) this.started.set(k, (s = new Map()));
    if (s.has(keyHash)) return;
    // a map the bundle allocated or copied is new: its keys had no value before
    s.set(keyHash, { key, value: id < 0n ? null : this.lookup(id, key, keyHash) });
  }

  /** Applies a call's lazy storage diff to the overlay. */
  apply(diff: readonly LazyStorageDiffItem[]): void {
    for (const d of diff) {
      if (d.kind !== 'big_map') continue;
      const id = BigInt(d.id);
      if (d.diff.action === 'remove') {
        this.maps.set(d.id, { types: this.types(id), base: null, entries: new Map() });
        continue;
      }
      if (d.diff.action === 'alloc') {
        this.maps.set(d.id, {
          types: { key: toTy(d.diff.key_type), value: toTy(d.diff.value_type) },
          base: null,
          entries: new Map(),
        });
      } else if (d.diff.action === 'copy') {
        const src = BigInt(d.diff.source);
        const from = this.maps.get(d.diff.source);
        this.maps.set(d.id, {
          types: this.types(src),
          base: from ? from.base : src,
          entries: new Map(from?.entries ?? []),
        });
      }
      const m = this.mapOf(id);
      for (const u of d.diff.updates) {
        this.noteStart(id, u.key_hash, u.key);
        m.entries.set(u.key_hash, { key: u.key, value: u.value ?? null });
      }
    }
  }

  /** Keys written by the bundle: by map, each key's start and end values. */
  changes(): Array<{
    ptr: bigint;
    keys: Array<{ keyHash: string; key: Expr; before: Expr | null; after: Expr | null }>;
  }> {
    return [...this.started].map(([k, s]) => {
      const ptr = BigInt(k);
      const m = this.maps.get(k);
      return {
        ptr,
        keys: [...s].map(([keyHash, v]) => ({
          keyHash,
          key: v.key,
          before: v.value,
          after: m?.entries.get(keyHash)?.value ?? null,
        })),
      };
    });
  }
}

type RunOutcome = ReturnType<typeof runContract>;

/** Runs one call against the state; an applied call moves the state on. */
export function runBundleCall(state: BundleState, start: BundleStart, call: BundleCall): RunOutcome {
  const res = runContract({
    script: start.script,
    storage: state.storage,
    parameter: call.parameter,
    entrypoint: call.entrypoint,
    amount: BigInt(call.amount),
    balance: state.balance + BigInt(call.amount),
    ...(call.sender ? { sender: call.sender } : {}),
    ...(call.source ? { source: call.source } : {}),
    self: start.self,
    now: BigInt(start.now),
    level: BigInt(start.level),
    chainId: start.chainId,
    gasLimit: call.gasLimit,
    chain: state.chain(),
    allocateBigMapId: state.allocate,
  });
  if (res.ok) {
    state.apply(res.lazyStorageDiff);
    state.storage = res.storage;
    let balance = state.balance + BigInt(call.amount);
    for (const { json } of res.operations) {
      const a = (json as unknown as { amount?: unknown }).amount;
      if (typeof a === 'string' && /^\d+$/.test(a)) balance -= BigInt(a);
    }
    state.balance = balance;
  }
  return res;
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
  destination?: string;
  amount?: string;
  entrypoint?: string;
  parameter?: Micheline;
  parameters?: MiguelNode[];
  tag?: string;
  payload?: MiguelNode[];
}

/** Runs the bundle and builds the answer (as JSON text: a large one never crosses threads as objects). */
export function runWhatIf(task: WhatIfTask, chain: ChainContext): string {
  const state = new BundleState(task, chain);
  const storageType = buildTypeTree(task.storageType);
  const paramOf = new Map<string, Micheline | null>([[task.self, task.parameterType]]);
  const parameterOf = (address: string): Micheline | null => {
    if (!paramOf.has(address))
      paramOf.set(
        address,
        address.startsWith('KT1') ? ((chain.contract?.(address)?.parameter as Micheline) ?? null) : null,
      );
    return paramOf.get(address) ?? null;
  };
  const balances = new Map<string, bigint>();
  const move = (updates: { address: string; change: string }[], address: string, change: bigint) => {
    if (change === 0n) return;
    updates.push({ address, change: String(change) });
    balances.set(address, (balances.get(address) ?? 0n) + change);
  };

  const calls: Record<string, unknown>[] = [];
  let failedAt = -1;
  let last = task.storage;
  for (const [i, call] of task.calls.entries()) {
    const base = {
      entrypoint: call.entrypoint,
      ...(safe(() =>
        decodeParameters(task.parameterType, { entrypoint: call.entrypoint, value: call.parameter }),
      )
        ? {
            parameters: decodeParameters(task.parameterType, {
              entrypoint: call.entrypoint,
              value: call.parameter,
            }),
          }
        : {}),
    };
    if (failedAt >= 0) {
      calls.push({
        ...base,
        status: 'skipped',
        consumed_gas: 0,
        consumed_milligas: 0,
        operations: [],
        events: [],
        balance_updates: [],
      });
      continue;
    }
    const before = state.storage;
    const res = runBundleCall(state, task, call);
    const out: Record<string, unknown> = {
      ...base,
      status: res.ok ? 'applied' : 'failed',
      consumed_gas: Math.ceil(res.consumedMilligas / 1000),
      consumed_milligas: res.consumedMilligas,
    };
    const updates: { address: string; change: string }[] = [];
    const operations: OperationOut[] = [];
    const events: OperationOut[] = [];
    if (res.ok) {
      last = state.storage;
      out.storage = state.storage;
      out.storage_diff = safe(() => diffValues(storageType, state.storage, before)) ?? null;
      const amount = BigInt(call.amount);
      move(updates, call.sender ?? call.source ?? task.self, -amount);
      move(updates, task.self, amount);
      for (const { json } of res.operations) {
        const o = json as unknown as Record<string, unknown>;
        const op: OperationOut = { kind: String(o.kind) };
        if (typeof o.destination === 'string') op.destination = o.destination;
        if (typeof o.amount === 'string') op.amount = o.amount;
        const p = o.parameters as { entrypoint?: string; value?: Micheline } | undefined;
        if (p?.value !== undefined) {
          op.entrypoint = p.entrypoint ?? 'default';
          op.parameter = p.value;
          const t = op.destination ? parameterOf(op.destination) : null;
          const decoded = t
            ? safe(() => decodeParameters(t, { entrypoint: op.entrypoint, value: p.value! }))
            : undefined;
          if (decoded) op.parameters = decoded;
        }
        if (typeof o.tag === 'string') op.tag = o.tag;
        if (op.kind === 'event') {
          const payload =
            o.type !== undefined && o.payload !== undefined
              ? safe(() => toMiguel(toMicheline(o.type), toMicheline(o.payload)))
              : undefined;
          if (payload) op.payload = payload;
          events.push(op);
          continue;
        }
        if (op.kind === 'transaction' && op.amount && op.destination) {
          move(updates, task.self, -BigInt(op.amount));
          move(updates, op.destination, BigInt(op.amount));
        }
        operations.push(op);
      }
    } else {
      failedAt = i;
      const errors = formatTezosErrors(res.errors);
      if (errors) out.errors = errors;
      const w = res.error.data.with;
      out.failure = {
        kind: res.error.kind,
        message: res.error.message,
        ...(w !== undefined ? { with: w, with_text: safe(() => formatMichelson(w)) ?? '' } : {}),
      };
    }
    out.operations = operations;
    out.events = events;
    out.balance_updates = updates;
    calls.push(out);
  }
  if (failedAt >= 0)
    for (const c of calls.slice(0, failedAt)) if (c.status === 'applied') c.status = 'backtracked';

  const bigMaps = state.changes().map(({ ptr, keys }) => {
    const types = state.typesOf(ptr);
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
    return { ptr: Number(ptr), name: task.names[String(ptr)] ?? null, counts, items };
  });

  const start = BigInt(task.balance);
  const balanceChanges = [...balances]
    .filter(([, c]) => c !== 0n)
    .map(([address, change]) =>
      address === task.self
        ? { address, before: String(start), after: String(start + change), change: String(change) }
        : { address, change: String(change) },
    );
  return JSON.stringify({
    status: failedAt >= 0 ? 'failed' : 'applied',
    calls,
    storage_before: task.storage,
    storage_after: last,
    storage_diff: safe(() => diffValues(storageType, last, task.storage)) ?? null,
    big_maps: bigMaps.filter((m) => m.counts.added + m.counts.changed + m.counts.removed > 0),
    balance_changes: balanceChanges,
    inputs: task.inputs,
  });
}
