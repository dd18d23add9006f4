/**
 * Applying a run's lazy_storage_diff (big maps and Sapling states) with the node's storage accounting, over any
 * store: the sandbox's chain state and the what-if's overlay of the chain both implement `LazyStore`, so both
 * count the same bytes (the figures are the interpreter's `STORAGE_BYTES`). Octez lazy_storage_diff.ml
 * `apply_diff`: an empty big map costs 33 bytes plus its key and value types, a copy the source's total bytes, a
 * new key 65 bytes plus its value, an overwrite the difference of the values, a removal frees what it took; a
 * Sapling state created empty costs 33 bytes, a copy the source's total bytes plus 33, a removal frees the same.
 * Temporary ids (those carried by operations) are applied but cost nobody anything.
 */
import { encodeExpr, STORAGE_BYTES, type Expr, type LazyStorageDiffItem } from '@michelscope/interpreter';

/** Bytes of a Micheline expression in the binary form (the node's storage size of a value or a type). */
export const exprBytes = (e: unknown): bigint => BigInt(encodeExpr(e as Expr).length);

/** The lazy storage a diff is applied to. Ids are the diff's (decimal strings, negative for the temporary). */
export interface LazyStore {
  /** Whether an id is temporary (its map or state counts for no contract's storage). */
  temporary(kind: LazyStorageDiffItem['kind'], id: string): boolean;
  /** The bytes a big map takes now (`total_bytes`), or null when there is no such map. */
  bigMapBytes(id: string): bigint | null;
  /** Adds to a big map's `total_bytes`. */
  addBigMapBytes(id: string, delta: bigint): void;
  /** Creates an empty big map of these types (its bytes 0). */
  allocBigMap(id: string, keyType: Expr, valueType: Expr): void;
  /** Creates a big map holding the source's keys (its bytes 0). */
  copyBigMap(id: string, source: string): void;
  removeBigMap(id: string): void;
  /** Writes a key (null value: removes it) and returns the value it had (null: none). */
  writeBigMapEntry(id: string, keyHash: string, key: Expr, value: Expr | null): Expr | null;
  /** The stored bytes of a value of a big map (default: its binary form as given). */
  valueBytes?(id: string, value: Expr): bigint;
  /** The bytes a Sapling state takes (`total_bytes`), or null when there is no such state. */
  saplingBytes(id: string): bigint | null;
  allocSapling(id: string, memoSize: number): void;
  copySapling(id: string, source: string): void;
  removeSapling(id: string): void;
}

/**
 * Applies the diff to the store and returns the change of bytes the owner's storage uses (positive or
 * negative); each big map's `total_bytes` is kept up to date.
 */
export function applyLazyStorageDiff(store: LazyStore, diff: readonly LazyStorageDiffItem[]): bigint {
  let delta = 0n;
  for (const item of diff) {
    if (item.kind === 'sapling_state') delta += applySaplingDiff(store, item);
    else delta += applyBigMapDiff(store, item);
  }
  return delta;
}

function applyBigMapDiff(store: LazyStore, item: Extract<LazyStorageDiffItem, { kind: 'big_map' }>): bigint {
  const { id, diff: d } = item;
  const counts = !store.temporary('big_map', id);
  if (d.action === 'remove') {
    const bytes = store.bigMapBytes(id);
    if (bytes === null) return 0n;
    store.removeBigMap(id);
    return counts ? -bytes : 0n;
  }
  let mapDelta = 0n;
  if (d.action === 'alloc') {
    store.allocBigMap(id, d.key_type, d.value_type);
    mapDelta = STORAGE_BYTES.bigMapAlloc + exprBytes(d.key_type) + exprBytes(d.value_type);
  } else if (d.action === 'copy') {
    const bytes = store.bigMapBytes(d.source);
    if (bytes === null) throw new Error(`copy of unknown big map ${d.source}`);
    store.copyBigMap(id, d.source);
    mapDelta = bytes;
  } else if (store.bigMapBytes(id) === null) {
    throw new Error(`update of unknown big map ${id}`);
  }
  const size = (v: Expr) => store.valueBytes?.(id, v) ?? exprBytes(v);
  for (const u of d.updates) {
    const value = u.value ?? null;
    const old = store.writeBigMapEntry(id, u.key_hash, u.key, value);
    if (value !== null)
      mapDelta += old !== null ? size(value) - size(old) : STORAGE_BYTES.bigMapKey + size(value);
    else if (old !== null) mapDelta -= STORAGE_BYTES.bigMapKey + size(old);
  }
  store.addBigMapBytes(id, mapDelta);
  return counts ? mapDelta : 0n;
}

/** Updates are not counted: no SAPLING_VERIFY_UPDATE succeeds here (the interpreter's sapling.ts). */
function applySaplingDiff(
  store: LazyStore,
  item: Extract<LazyStorageDiffItem, { kind: 'sapling_state' }>,
): bigint {
  const { id, diff: d } = item;
  const counts = !store.temporary('sapling_state', id);
  const empty = STORAGE_BYTES.saplingStateAlloc;
  if (d.action === 'remove') {
    const bytes = store.saplingBytes(id);
    if (bytes === null) return 0n;
    store.removeSapling(id);
    return counts ? -(bytes + empty) : 0n;
  }
  if (d.action === 'alloc') {
    store.allocSapling(id, d.memo_size);
    return counts ? empty : 0n;
  }
  if (d.action === 'copy') {
    const bytes = store.saplingBytes(d.source);
    if (bytes === null) throw new Error(`copy of unknown sapling state ${d.source}`);
    store.copySapling(id, d.source);
    return counts ? bytes + empty : 0n;
  }
  if (store.saplingBytes(id) === null) throw new Error(`update of unknown sapling state ${id}`);
  return 0n;
}
