/**
 * The state a what-if bundle evolves over the chain (whatif-exec.ts runs its calls against it): every contract
 * it touched (storage, balance, used and paid bytes), the balance changes of implicit accounts, and an overlay
 * of big maps and Sapling states over the chain's, read through from our index and the node (WhatIfChain).
 *
 * Over ~400 lines because Overlay is one stateful class: its maps of contracts, balances, big maps and Sapling
 * states change together (a call's snapshot and restore, lazy storage diffs across maps) and its methods keep
 * their ids and byte counts consistent.
 */
import { applyLazyStorageDiff, exprBytes, type LazyStore } from '@michelscope/engine';
import {
  toTy,
  tyToExpr,
  type ChainContext,
  type Expr,
  type LazyStorageDiffItem,
  type Ty,
} from '@michelscope/interpreter';
import { normalizeValue, type Micheline } from '@michelscope/michelson';

/** What the debug worker's chain bridge adds for the what-if: scripts with their sizes, and any balance. */
export interface WhatIfChain extends ChainContext {
  /** A contract's code (the whole script) and the bytes its storage uses and has paid for; null: no contract. */
  script?(address: string): { code: Micheline[]; used: string | null; paid: string | null } | null;
  /** An account's balance at the block (null: none, an implicit account never funded or emptied). */
  accountBalance?(address: string): bigint | null;
  /** The bytes a big map of the chain takes (its `total_bytes`), or null when unknown. */
  bigMapBytes?(id: bigint): bigint | null;
  /** The bytes a Sapling state of the chain takes (its `total_bytes`; absent: 0, a state without notes). */
  saplingBytes?(id: bigint): bigint | null;
}

export interface ContractState {
  code: Micheline[];
  parameter: Micheline;
  storageType: Micheline;
  storage: Micheline;
  balance: bigint;
  /** Bytes of the storage value (Optimized binary), and the contract's used and paid bytes. */
  storageBytes: bigint;
  used: bigint;
  paid: bigint;
  /** Originated by the bundle. */
  originated: boolean;
  views: Record<string, { input: Expr; output: Expr; code: Expr }>;
}

interface MapState {
  types: { key: Ty; value: Ty } | null;
  /** the chain big map lookups fall back to (null: none, a map the bundle allocated) */
  base: bigint | null;
  entries: Map<string, { key: Expr; value: Expr | null }>;
  /** bytes the bundle added to the map: for a map of the chain (base = its own id), on top of the chain's */
  bytes: bigint;
  /** the contract whose run first wrote it */
  owner: string | null;
}

/** The failure of a call: the node's kind and message, and what the panel shows. */
export interface CallFailure {
  kind: string;
  message: string;
  with?: Micheline;
  with_text?: string;
  errors?: unknown[];
  /** The internal operation that failed (its index in the call's `operations`), when it is not the call itself. */
  operation?: number;
  /** Storage exhaustion: the limit, the bytes the call needs and the contracts whose storage grew. */
  storage?: {
    limit: number;
    used: number;
    contracts: Array<{ address: string; paid_storage_size_diff: number }>;
    allocations: number;
  };
  /** The payer cannot pay the burn: its balance and the burn. */
  burn?: { payer: string; balance: string; burn: string };
}

export class OpFailure extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure.message);
  }
}

export function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** The storage bytes of a value as the chain keeps it (Optimized form). */
export function valueBytes(type: Micheline | null, v: Micheline): bigint {
  const optimized = type ? safe(() => normalizeValue(type, v, 'optimized')) : undefined;
  return exprBytes(optimized ?? v);
}

export function viewsOf(code: Micheline[]): ContractState['views'] {
  const views: ContractState['views'] = {};
  for (const s of code) {
    const v = s as { prim?: string; args?: Expr[] };
    const name = (v.args?.[0] as { string?: string } | undefined)?.string;
    if (v.prim === 'view' && name && v.args?.length === 4)
      views[name] = { input: v.args[1]!, output: v.args[2]!, code: v.args[3]! };
  }
  return views;
}

export const section = (code: Micheline[], prim: string): Micheline | null =>
  ((code.find((s) => (s as { prim?: string }).prim === prim) as { args?: Micheline[] } | undefined)?.args ??
    [])[0] ?? null;

export interface StartContract {
  address: string;
  script: Micheline[];
  storage: Micheline;
  balance: string;
  usedSpace?: string | undefined;
  paidSpace?: string | undefined;
}

/**
 * The state a bundle evolves over the chain: every contract it touched (storage, balance, sizes), the balance
 * changes of implicit accounts, and a big-map overlay. `chain()` is the chain the interpreter sees.
 */
export class Overlay {
  private contracts = new Map<string, ContractState | null>();
  /** Storage and balance of each contract when the bundle first touched it (null storage: originated). */
  readonly startOf = new Map<string, { storage: Micheline | null; balance: bigint }>();
  /** Changes of balances, by address (contracts and implicit accounts). */
  private deltas = new Map<string, bigint>();
  private maps = new Map<string, MapState>();
  /** The value each touched key had when the bundle started. */
  private started = new Map<string, Map<string, { key: Expr; value: Expr | null }>>();
  /**
   * Ids of the big maps the bundle creates: -1, -2, … for those contracts keep and for the temporary ones (carried
   * by operations, which cost no storage and are listed in `temporary`) alike, so that every id stays as short as
   * the node's (-1, -2, … for temporaries; the interpreter charges gas by an id's bytes).
   */
  private nextId = 0n;
  private temporary = new Set<string>();
  /** Sapling states the bundle allocated, copied or removed (null), by id; ids of their own, as Octez's. */
  private sapling = new Map<string, { memoSize: number; bytes: bigint } | null>();
  private nextSaplingId = 0n;
  private temporarySapling = new Set<string>();
  /** Implicit accounts the bundle funded from nothing (allocated). */
  private allocated = new Set<string>();

  constructor(
    readonly base: WhatIfChain,
    self: StartContract,
  ) {
    const storageType = section(self.script, 'storage')!;
    const storageBytes = valueBytes(storageType, self.storage);
    const used = self.usedSpace !== undefined ? BigInt(self.usedSpace) : null;
    this.contracts.set(self.address, {
      code: self.script,
      parameter: section(self.script, 'parameter')!,
      storageType,
      storage: self.storage,
      balance: BigInt(self.balance),
      storageBytes,
      used: used ?? storageBytes,
      paid: self.paidSpace !== undefined ? BigInt(self.paidSpace) : (used ?? storageBytes),
      originated: false,
      views: viewsOf(self.script),
    });
    this.startOf.set(self.address, { storage: self.storage, balance: BigInt(self.balance) });
  }

  /** A copy to come back to when a call fails (the chain backtracks it). */
  snapshot(): () => void {
    const contracts = new Map([...this.contracts].map(([k, c]) => [k, c && { ...c }]));
    const startOf = new Map(this.startOf);
    const deltas = new Map(this.deltas);
    const maps = new Map([...this.maps].map(([k, m]) => [k, { ...m, entries: new Map(m.entries) }]));
    const started = new Map([...this.started].map(([k, s]) => [k, new Map(s)]));
    const allocated = new Set(this.allocated);
    const sapling = new Map(this.sapling);
    const temporary = new Set(this.temporary);
    const temporarySapling = new Set(this.temporarySapling);
    const { nextId, nextSaplingId } = this;
    return () => {
      this.contracts = contracts;
      // the start of what a failed call first touched stays known (it is the chain's): only drop nothing
      for (const [k, v] of startOf) this.startOf.set(k, v);
      this.deltas = deltas;
      this.maps = maps;
      this.started = started;
      this.allocated = allocated;
      this.nextId = nextId;
      this.temporary = temporary;
      this.sapling = sapling;
      this.nextSaplingId = nextSaplingId;
      this.temporarySapling = temporarySapling;
    };
  }

  /** A contract of the overlay or of the chain (loaded with its code and sizes), or null. */
  contract(address: string): ContractState | null {
    if (this.contracts.has(address)) return this.contracts.get(address)!;
    let c: ContractState | null = null;
    if (address.startsWith('KT1')) {
      const info = this.base.contract?.(address) ?? null;
      const script = info ? (this.base.script?.(address) ?? null) : null;
      if (info && script && info.storage !== undefined) {
        const storageType = (info.storageType as Micheline) ?? section(script.code, 'storage');
        const storageBytes = valueBytes(storageType, info.storage);
        const used = script.used !== null ? BigInt(script.used) : storageBytes;
        c = {
          code: script.code,
          parameter: info.parameter,
          storageType,
          storage: info.storage,
          balance: info.balance ?? 0n,
          storageBytes,
          used,
          paid: script.paid !== null ? BigInt(script.paid) : used,
          originated: false,
          views: (info.views as ContractState['views']) ?? viewsOf(script.code),
        };
        this.startOf.set(address, { storage: c.storage, balance: c.balance });
      }
    }
    this.contracts.set(address, c);
    return c;
  }

  set(address: string, c: ContractState): void {
    this.contracts.set(address, c);
  }

  /** The contracts the bundle touched (loaded, run or originated), with what they hold now. */
  touched(): Array<[string, ContractState]> {
    return [...this.contracts].filter((e): e is [string, ContractState] => e[1] !== null);
  }

  /** Moves tez; a contract's balance must cover it (an implicit account's is not checked: the what-if's source). */
  move(from: string, to: string, amount: bigint, external = false): void {
    if (amount === 0n) return;
    // the call's own sender is the what-if's: whatever it is, it is not checked nor loaded
    const src = from.startsWith('KT1') && !external ? this.contract(from) : null;
    if (src) {
      if (src.balance < amount)
        throw new OpFailure({
          kind: 'balance_too_low',
          message: `balance too low: ${from} holds ${src.balance} mutez and sends ${amount}`,
        });
      src.balance -= amount;
    }
    const dst = to.startsWith('KT1') ? this.contract(to) : null;
    if (dst) dst.balance += amount;
    this.deltas.set(from, (this.deltas.get(from) ?? 0n) - amount);
    this.deltas.set(to, (this.deltas.get(to) ?? 0n) + amount);
  }

  /** Whether crediting this implicit account allocates it (it holds nothing on the chain nor in the bundle). */
  allocates(address: string): boolean {
    if (this.allocated.has(address) || (this.deltas.get(address) ?? 0n) > 0n) return false;
    const b = this.base.accountBalance?.(address);
    if (b === undefined) return false;
    if (b === null || b === 0n) {
      this.allocated.add(address);
      return true;
    }
    return false;
  }

  balanceChanges(): Array<{ address: string; change: bigint; before?: bigint; after?: bigint }> {
    return [...this.deltas]
      .filter(([, c]) => c !== 0n)
      .map(([address, change]) => {
        const start = this.startOf.get(address);
        return start
          ? { address, change, before: start.balance, after: start.balance + change }
          : { address, change };
      });
  }

  // ---- big maps ------------------------------------------------------------------------------------------

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

  typesOf(id: bigint): { key: Micheline; value: Micheline } | null {
    const t = this.types(id);
    return t && { key: tyToExpr(t.key), value: tyToExpr(t.value) };
  }

  ownerOf(id: bigint): string | null {
    return this.maps.get(String(id))?.owner ?? null;
  }

  /**
   * The keys a big map the bundle allocated holds now (those with a value), and the chain map it is a copy of
   * (whose other keys are on the chain); null for a map of the chain or one the bundle does not know.
   */
  newMapEntries(id: bigint): { entries: Array<{ key: Expr; value: Expr }>; copyOf: bigint | null } | null {
    if (id >= 0n || this.temporary.has(String(id))) return null;
    const m = this.maps.get(String(id));
    if (!m) return null;
    const entries = [...m.entries.values()]
      .filter((e): e is { key: Expr; value: Expr } => e.value !== null)
      .map((e) => ({ key: e.key, value: e.value }));
    return { entries, copyOf: m.base !== null && m.base >= 0n ? m.base : null };
  }

  /** The bytes a big map takes now: the chain's (when it is a map of the chain) and the bundle's changes. */
  private totalBytes(id: bigint): bigint {
    const m = this.maps.get(String(id));
    const chain = !m || m.base === id ? (id >= 0n ? (this.base.bigMapBytes?.(id) ?? 0n) : 0n) : 0n;
    return chain + (m?.bytes ?? 0n);
  }

  private mapOf(id: bigint): MapState {
    const k = String(id);
    let m = this.maps.get(k);
    if (!m) {
      m = { types: null, base: id >= 0n ? id : null, entries: new Map(), bytes: 0n, owner: null };
      this.maps.set(k, m);
    }
    return m;
  }

  /** Overridden entries (before anything runs). */
  override(ptr: number, keyHash: string, key: Micheline, value: Micheline | null): void {
    this.mapOf(BigInt(ptr)).entries.set(keyHash, { key, value });
  }

  allocate = (): bigint => --this.nextId;
  allocateTemp = (): bigint => {
    const id = --this.nextId;
    this.temporary.add(String(id));
    return id;
  };
  allocateSapling = (): bigint => --this.nextSaplingId;
  allocateSaplingTemp = (): bigint => {
    const id = --this.nextSaplingId;
    this.temporarySapling.add(String(id));
    return id;
  };

  private noteStart(id: bigint, keyHash: string, key: Expr): Expr | null {
    const k = String(id);
    const before = this.lookup(id, key, keyHash);
    let s = this.started.get(k);
    if (!s) this.started.set(k, (s = new Map()));
    // a map the bundle allocated or copied is new: its keys had no value before
    if (!s.has(keyHash)) s.set(keyHash, { key, value: id < 0n ? null : before });
    return before;
  }

  /**
   * Applies a run's lazy storage diff (big maps and Sapling states) with the engine's accounting, the sandbox's;
   * the change of bytes the owner's storage uses.
   */
  apply(diff: readonly LazyStorageDiffItem[], owner: string): bigint {
    const store: LazyStore = {
      temporary: (kind, id) => (kind === 'big_map' ? this.temporary : this.temporarySapling).has(id),
      // a map of the chain or one the bundle wrote: its bytes are known (or 0), never "no such map"
      bigMapBytes: (id) => this.totalBytes(BigInt(id)),
      addBigMapBytes: (id, delta) => {
        const m = this.mapOf(BigInt(id));
        m.owner ??= owner;
        m.bytes += delta;
      },
      allocBigMap: (id, keyType, valueType) => {
        this.maps.set(id, {
          types: { key: toTy(keyType), value: toTy(valueType) },
          base: null,
          entries: new Map(),
          bytes: 0n,
          owner,
        });
      },
      copyBigMap: (id, source) => {
        const src = BigInt(source);
        const from = this.maps.get(source);
        this.maps.set(id, {
          types: this.types(src),
          base: from ? from.base : src,
          entries: new Map(from?.entries ?? []),
          bytes: 0n,
          owner,
        });
      },
      removeBigMap: (id) => {
        this.maps.set(id, {
          types: this.types(BigInt(id)),
          base: null,
          entries: new Map(),
          bytes: 0n,
          owner: this.maps.get(id)?.owner ?? owner,
        });
      },
      writeBigMapEntry: (id, keyHash, key, value) => {
        const n = BigInt(id);
        const m = this.mapOf(n);
        m.owner ??= owner;
        const old = this.noteStart(n, keyHash, key);
        m.entries.set(keyHash, { key, value });
        return old;
      },
      // values as the chain keeps them (Optimized): the what-if's runs and our index give them Readable
      valueBytes: (id, value) => valueBytes(this.typesOf(BigInt(id))?.value ?? null, value),
      saplingBytes: (id) => {
        const st = this.sapling.get(id);
        if (st !== undefined) return st && st.bytes;
        return BigInt(id) >= 0n ? (this.base.saplingBytes?.(BigInt(id)) ?? 0n) : null;
      },
      allocSapling: (id, memoSize) => {
        this.sapling.set(id, { memoSize, bytes: 0n });
      },
      copySapling: (id, source) => {
        const src = this.sapling.get(source);
        const memoSize = src?.memoSize ?? this.base.saplingMemoSize?.(BigInt(source)) ?? 0;
        this.sapling.set(id, { memoSize, bytes: store.saplingBytes(source) ?? 0n });
      },
      removeSapling: (id) => {
        this.sapling.set(id, null);
      },
    };
    return applyLazyStorageDiff(store, diff);
  }

  /** A Sapling state's memo size, as the bundle left it or as on the chain (null: no such state). */
  private saplingMemoSize(id: bigint): number | null {
    const st = this.sapling.get(String(id));
    if (st !== undefined) return st && st.memoSize;
    return id >= 0n ? (this.base.saplingMemoSize?.(id) ?? null) : null;
  }

  /** Keys written by the bundle: by map, each key's start and end values. */
  changes(): Array<{
    ptr: bigint;
    keys: Array<{ keyHash: string; key: Expr; before: Expr | null; after: Expr | null }>;
  }> {
    return [...this.started]
      .filter(([k]) => !this.temporary.has(k))
      .map(([k, s]) => {
        const m = this.maps.get(k);
        return {
          ptr: BigInt(k),
          keys: [...s].map(([keyHash, v]) => ({
            keyHash,
            key: v.key,
            before: v.value,
            after: m?.entries.get(keyHash)?.value ?? null,
          })),
        };
      });
  }

  /** The chain the interpreter sees: contracts as the overlay holds them, big maps through the overlay. */
  chain(originated: () => string): ChainContext {
    return {
      ...this.base,
      contract: (address) => {
        const c = this.contract(address);
        if (!c) return address.startsWith('KT1') ? null : (this.base.contract?.(address) ?? null);
        return {
          parameter: c.parameter,
          storageType: c.storageType,
          storage: c.storage,
          balance: c.balance,
          views: c.views,
        };
      },
      bigMapTypes: (id) => this.types(id),
      bigMapGet: (id, key, keyHash) => this.lookup(id, key, keyHash),
      saplingMemoSize: (id) => this.saplingMemoSize(id),
      originatedAddress: () => originated(),
    };
  }
}
