/**
 * Big-map bookkeeping at the end of a contract call, following Octez's `extract_lazy_storage_diff`:
 * the first big map of the new storage with an id the old storage owned is updated in place; any other
 * big map with an id is copied to a fresh id; a big map created during the call is allocated; ids of the
 * old storage that are no longer used are removed. Returns the storage with every big map as an id.
 */
import { unparse } from './data';
import type { UnparseMode } from './data';
import { scriptExprHash } from './pack';
import type { Expr, Ty } from './types';
import { tyToExprComb } from './types';
import type { BigMapV, V } from './values';

export interface BigMapUpdate {
  key_hash: string;
  key: Expr;
  value?: Expr;
}
/** One entry of a receipt's `lazy_storage_diff`. */
export interface LazyStorageDiffItem {
  kind: 'big_map';
  id: string;
  diff:
    | { action: 'update'; updates: BigMapUpdate[] }
    | { action: 'remove' }
    | { action: 'copy'; source: string; updates: BigMapUpdate[] }
    | { action: 'alloc'; updates: BigMapUpdate[]; key_type: Expr; value_type: Expr };
}
/** The older `big_map_diff` form of the same changes. */
export type BigMapDiffItem =
  | { action: 'update'; big_map: string; key_hash: string; key: Expr; value?: Expr }
  | { action: 'remove'; big_map: string }
  | { action: 'copy'; source_big_map: string; destination_big_map: string }
  | { action: 'alloc'; big_map: string; key_type: Expr; value_type: Expr };

/** Every big map inside a value, in left-to-right order. */
export function collectBigMaps(v: V, out: BigMapV[] = []): BigMapV[] {
  switch (v.k) {
    case 'big_map':
      out.push(v);
      break;
    case 'pair':
      collectBigMaps(v.a, out);
      collectBigMaps(v.b, out);
      break;
    case 'or':
      collectBigMaps(v.v, out);
      break;
    case 'option':
      if (v.v) collectBigMaps(v.v, out);
      break;
    case 'list':
    case 'set':
      for (const x of v.v) collectBigMaps(x, out);
      break;
    case 'map':
      for (const [, x] of v.v) collectBigMaps(x, out);
      break;
    case 'ticket':
      collectBigMaps(v.content, out);
      break;
    default:
      break;
  }
  return out;
}

/**
 * Rebuilds a value with its big maps replaced, by position: the n-th big map met (in the order of
 * `collectBigMaps`) becomes `repl[n]`. By position, not by identity: after DUP the same big-map object
 * sits in several places, and each place gets its own id.
 */
function replaceBigMaps(v: V, repl: readonly BigMapV[], pos = { n: 0 }): V {
  switch (v.k) {
    case 'big_map':
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

/**
 * @param oldIds big-map ids owned by the storage before the call
 * @param allocate gives the next fresh big-map id
 */
export function extractLazyStorage(
  storage: V,
  oldIds: bigint[],
  allocate: () => bigint,
  mode: UnparseMode,
): LazyStorageResult {
  const lazy: LazyStorageDiffItem[] = [];
  const legacy: BigMapDiffItem[] = [];
  const owned = new Set(oldIds.map(String));
  const claimed = new Set<string>();
  const repl: BigMapV[] = [];
  for (const bm of collectBigMaps(storage)) {
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
  // Octez lists lazy storage diffs by decreasing id (temporary negative ids last).
  lazy.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0));
  return { storage: replaceBigMaps(storage, repl), lazyStorageDiff: lazy, bigMapDiff: legacy };
}
