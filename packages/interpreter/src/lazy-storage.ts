/**
 * Lazy-storage bookkeeping (big maps and Sapling states) at the end of a contract call, following Octez's
 * `extract_lazy_storage_diff`: the first big map (state) of the new storage with an id the old storage owned
 * is updated in place; any other with an id is copied to a fresh id; one created during the call is
 * allocated; ids of the old storage that are no longer used are removed. Big maps and Sapling states have
 * separate id counters (Octez's Storage.Big_map.Next and Storage.Sapling.Next). Returns the storage with every
 * big map and state as an id.
 */
import { unparse } from './data';
import type { UnparseMode } from './data';
import { scriptExprHash } from './pack';
import type { Expr, Ty } from './types';
import { tyToExprComb } from './types';
import type { BigMapV, SaplingStateV, V } from './values';

export interface BigMapUpdate {
  key_hash: string;
  key: Expr;
  value?: Expr;
}
/** One entry of a receipt's `lazy_storage_diff`. */
export type LazyStorageDiffItem = BigMapDiffEntry | SaplingStateDiffEntry;
export interface BigMapDiffEntry {
  kind: 'big_map';
  id: string;
  diff:
    | { action: 'update'; updates: BigMapUpdate[] }
    | { action: 'remove' }
    | { action: 'copy'; source: string; updates: BigMapUpdate[] }
    | { action: 'alloc'; updates: BigMapUpdate[]; key_type: Expr; value_type: Expr };
}
/**
 * Octez's Sapling_repr.diff_encoding: new commitments with their ciphertexts, and spent nullifiers. Always
 * empty here: without proof verification no state ever changes (see sapling.ts).
 */
export interface SaplingUpdates {
  commitments_and_ciphertexts: unknown[];
  nullifiers: unknown[];
}
/** Lazy_storage_kind.Sapling_state: an alloc carries the memo size. */
export interface SaplingStateDiffEntry {
  kind: 'sapling_state';
  id: string;
  diff:
    | { action: 'update'; updates: SaplingUpdates }
    | { action: 'remove' }
    | { action: 'copy'; source: string; updates: SaplingUpdates }
    | { action: 'alloc'; updates: SaplingUpdates; memo_size: number };
}
/** The older `big_map_diff` form of the same changes. */
export type BigMapDiffItem =
  | { action: 'update'; big_map: string; key_hash: string; key: Expr; value?: Expr }
  | { action: 'remove'; big_map: string }
  | { action: 'copy'; source_big_map: string; destination_big_map: string }
  | { action: 'alloc'; big_map: string; key_type: Expr; value_type: Expr };

type LazyV = BigMapV | SaplingStateV;

/** Every big map and Sapling state inside a value, in left-to-right order. */
export function collectLazy(v: V, out: LazyV[] = []): LazyV[] {
  switch (v.k) {
    case 'big_map':
    case 'sapling_state':
      out.push(v);
      break;
    case 'pair':
      collectLazy(v.a, out);
      collectLazy(v.b, out);
      break;
    case 'or':
      collectLazy(v.v, out);
      break;
    case 'option':
      if (v.v) collectLazy(v.v, out);
      break;
    case 'list':
    case 'set':
      for (const x of v.v) collectLazy(x, out);
      break;
    case 'map':
      for (const [, x] of v.v) collectLazy(x, out);
      break;
    case 'ticket':
      collectLazy(v.content, out);
      break;
    default:
      break;
  }
  return out;
}

/** Every big map inside a value, in left-to-right order. */
export function collectBigMaps(v: V): BigMapV[] {
  return collectLazy(v).filter((x): x is BigMapV => x.k === 'big_map');
}

/** Every Sapling state inside a value, in left-to-right order. */
export function collectSaplingStates(v: V): SaplingStateV[] {
  return collectLazy(v).filter((x): x is SaplingStateV => x.k === 'sapling_state');
}

/**
 * Rebuilds a value with its big maps and Sapling states replaced, by position: the n-th one met (in the order
 * of `collectLazy`) becomes `repl[n]`. By position, not by identity: after DUP the same big-map object sits in
 * several places, and each place gets its own id.
 */
function replaceBigMaps(v: V, repl: readonly LazyV[], pos = { n: 0 }): V {
  switch (v.k) {
    case 'big_map':
    case 'sapling_state':
      return repl[pos.n++] ?? v;
    case 'pair':
      return { ...v, a: replaceBigMaps(v.a, repl, pos), b: replaceBigMaps(v.b, repl, pos) };
    case 'or':
      return { ...v, v: replaceBigMaps(v.v, repl, pos) };
    case 'option':
      return v.v ? { ...v, v: replaceBigMaps(v.v, repl, pos) } : v;
    case 'list':
      return { ...v, v: v.v.map((x) => replaceBigMaps(x, repl, pos)) };
    case 'set':
      return { ...v, v: v.v.map((x) => replaceBigMaps(x, repl, pos)) };
    case 'map':
      return { ...v, v: v.v.map(([k, x]) => [k, replaceBigMaps(x, repl, pos)] as [V, V]) };
    case 'ticket':
      return { ...v, content: replaceBigMaps(v.content, repl, pos) };
    default:
      return v;
  }
}

function updatesOf(bm: BigMapV, mode: UnparseMode): BigMapUpdate[] {
  const out: BigMapUpdate[] = [];
  for (const { key, value } of bm.diff.values()) {
    const u: BigMapUpdate = { key_hash: scriptExprHash(key), key: unparse(key, mode) };
    if (value !== null) u.value = unparse(value, mode);
    out.push(u);
  }
  return out.sort((a, b) => (a.key_hash < b.key_hash ? -1 : a.key_hash > b.key_hash ? 1 : 0));
}

export interface LazyStorageResult {
  storage: V;
  lazyStorageDiff: LazyStorageDiffItem[];
  bigMapDiff: BigMapDiffItem[];
}

/** Sapling ids of a call: those the storage owned before it, and where fresh ones come from. */
export interface SaplingIds {
  oldIds: bigint[];
  allocate: () => bigint;
}

const emptySaplingUpdates = (): SaplingUpdates => ({ commitments_and_ciphertexts: [], nullifiers: [] });

/**
 * @param oldIds big-map ids owned by the storage before the call
 * @param allocate gives the next fresh big-map id
 * @param sapling the same for Sapling states (default: none owned, temporary ids -1, -2, …)
 */
export function extractLazyStorage(
  storage: V,
  oldIds: bigint[],
  allocate: () => bigint,
  mode: UnparseMode,
  sapling: SaplingIds = temporarySaplingIds(),
): LazyStorageResult {
  const lazy: LazyStorageDiffItem[] = [];
  const legacy: BigMapDiffItem[] = [];
  const owned = new Set(oldIds.map(String));
  const claimed = new Set<string>();
  const saplingOwned = new Set(sapling.oldIds.map(String));
  const saplingClaimed = new Set<string>();
  const repl: LazyV[] = [];
  for (const bm of collectLazy(storage)) {
    if (bm.k === 'sapling_state') {
      // Octez diff_of_sapling_state: Existing when owned (and not taken yet), else Copy; Alloc when new.
      let id: bigint;
      if (bm.id !== null && saplingOwned.has(String(bm.id)) && !saplingClaimed.has(String(bm.id))) {
        id = bm.id;
        lazy.push({
          kind: 'sapling_state',
          id: String(id),
          diff: { action: 'update', updates: emptySaplingUpdates() },
        });
      } else if (bm.id !== null) {
        id = sapling.allocate();
        lazy.push({
          kind: 'sapling_state',
          id: String(id),
          diff: { action: 'copy', source: String(bm.id), updates: emptySaplingUpdates() },
        });
      } else {
        id = sapling.allocate();
        lazy.push({
          kind: 'sapling_state',
          id: String(id),
          diff: { action: 'alloc', updates: emptySaplingUpdates(), memo_size: bm.t.memo ?? 0 },
        });
      }
      saplingClaimed.add(String(id));
      repl.push({ k: 'sapling_state', t: bm.t, id });
      continue;
    }
    const ups = updatesOf(bm, mode);
    const kt = tyToExprComb(bm.t.args[0] as Ty);
    const vt = tyToExprComb(bm.t.args[1] as Ty);
    let id: bigint;
    if (bm.id !== null && owned.has(String(bm.id)) && !claimed.has(String(bm.id))) {
      id = bm.id;
      lazy.push({ kind: 'big_map', id: String(id), diff: { action: 'update', updates: ups } });
    } else if (bm.id !== null) {
      id = allocate();
      lazy.push({
        kind: 'big_map',
        id: String(id),
        diff: { action: 'copy', source: String(bm.id), updates: ups },
      });
      legacy.push({ action: 'copy', source_big_map: String(bm.id), destination_big_map: String(id) });
    } else {
      id = allocate();
      lazy.push({
        kind: 'big_map',
        id: String(id),
        diff: { action: 'alloc', updates: ups, key_type: kt, value_type: vt },
      });
      legacy.push({ action: 'alloc', big_map: String(id), key_type: kt, value_type: vt });
    }
    claimed.add(String(id));
    for (const u of ups) legacy.push({ action: 'update', big_map: String(id), ...u });
    repl.push({ k: 'big_map', t: bm.t, id, diff: new Map() });
  }
  for (const id of oldIds) {
    if (!claimed.has(String(id))) {
      lazy.push({ kind: 'big_map', id: String(id), diff: { action: 'remove' } });
      legacy.push({ action: 'remove', big_map: String(id) });
    }
  }
  for (const id of sapling.oldIds) {
    if (!saplingClaimed.has(String(id)))
      lazy.push({ kind: 'sapling_state', id: String(id), diff: { action: 'remove' } });
  }
  // Octez lists lazy storage diffs by decreasing id (temporary negative ids last).
  lazy.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0));
  return { storage: replaceBigMaps(storage, repl), lazyStorageDiff: lazy, bigMapDiff: legacy };
}

/** Sapling ids when the caller keeps no Sapling store: nothing owned, temporary ids -1, -2, … */
export function temporarySaplingIds(): SaplingIds {
  let temp = 0n;
  return { oldIds: [], allocate: () => --temp };
}
