// Applying a receipt's lazy_storage_diff (big maps) to the state, with the storage accounting of
// the node: an empty big map costs 33 bytes plus its key and value types, a new key 65 bytes plus
// its value, an overwrite the difference of value sizes, a removal frees the same amounts.
import { encodeExpr, type Expr, type LazyStorageDiffItem } from '@michelscope/interpreter';
import type { State } from './state';

export const BIG_MAP_ALLOC_BYTES = 33n;
export const BIG_MAP_KEY_BYTES = 65n;

export function exprSize(e: unknown): bigint {
  return BigInt(encodeExpr(e as Expr).length);
}

function applyUpdates(
  state: State,
  id: string,
  updates: Array<{ key_hash: string; key: Expr; value?: Expr }>,
): bigint {
  let delta = 0n;
  for (const u of updates) {
    const old = state.bigMapEntry(id, u.key_hash);
    if (u.value !== undefined) {
      const size = exprSize(u.value);
      delta += old ? size - exprSize(old.value) : BIG_MAP_KEY_BYTES + size;
      state.setBigMapEntry(id, u.key_hash, { key: u.key, value: u.value });
    } else if (old) {
      delta -= BIG_MAP_KEY_BYTES + exprSize(old.value);
      state.setBigMapEntry(id, u.key_hash, undefined);
    }
  }
  return delta;
}

/**
 * Applies the diff to the state and returns the change of bytes used (positive or negative). Each
 * big map's `total_bytes` is kept up to date. Temporary big maps (negative ids) are applied but
 * count for no contract's storage (nobody pays for them; they are dropped after the operation).
 */
export function applyLazyStorageDiff(state: State, diff: LazyStorageDiffItem[]): bigint {
  let delta = 0n;
  for (const item of diff) {
    if (item.kind === 'sapling_state') {
      delta += applySaplingDiff(state, item);
      continue;
    }
    const id = item.id;
    const d = item.diff;
    let mapDelta = 0n;
    if (d.action === 'remove') {
      const info = state.bigMap(id);
      if (!info) continue;
      for (const h of state.bigMapKeyHashes(id)) state.setBigMapEntry(id, h, undefined);
      state.setBigMap(id, undefined);
      if (!id.startsWith('-')) delta -= BigInt(info.total_bytes);
      continue;
    }
    if (d.action === 'alloc') {
      mapDelta = BIG_MAP_ALLOC_BYTES + exprSize(d.key_type) + exprSize(d.value_type);
      state.setBigMap(id, { key_type: d.key_type, value_type: d.value_type, total_bytes: '0' });
    } else if (d.action === 'copy') {
      const src = state.bigMap(d.source);
      if (!src) throw new Error(`copy of unknown big map ${d.source}`);
      for (const h of state.bigMapKeyHashes(d.source))
        state.setBigMapEntry(id, h, state.bigMapEntry(d.source, h));
      state.setBigMap(id, { ...src, total_bytes: '0' });
      mapDelta = BigInt(src.total_bytes);
    } else if (!state.bigMap(id)) {
      throw new Error(`update of unknown big map ${id}`);
    }
    mapDelta += applyUpdates(state, id, d.updates);
    const info = state.bigMap(id)!;
    state.setBigMap(id, { ...info, total_bytes: String(BigInt(info.total_bytes) + mapDelta) });
    if (!id.startsWith('-')) delta += mapDelta;
  }
  return delta;
}

/** Octez lazy_storage_diff.ml `Sapling_state.bytes_size_for_empty`. */
export const SAPLING_STATE_ALLOC_BYTES = 33n;

/**
 * A Sapling state's diff, with Octez's accounting (lazy_storage_diff.ml `apply_diff`): an alloc costs 33 bytes,
 * a copy the source's total bytes plus 33, a removal frees the same; temporary (negative) ids cost nothing.
 * Updates are always empty here (no SAPLING_VERIFY_UPDATE succeeds in the sandbox).
 */
function applySaplingDiff(
  state: State,
  item: Extract<LazyStorageDiffItem, { kind: 'sapling_state' }>,
): bigint {
  const { id, diff: d } = item;
  const temp = id.startsWith('-');
  if (d.action === 'remove') {
    const info = state.saplingState(id);
    if (!info) return 0n;
    state.setSaplingState(id, undefined);
    return temp ? 0n : -(BigInt(info.total_bytes) + SAPLING_STATE_ALLOC_BYTES);
  }
  if (d.action === 'alloc') {
    state.setSaplingState(id, { memo_size: d.memo_size, total_bytes: '0' });
    return temp ? 0n : SAPLING_STATE_ALLOC_BYTES;
  }
  if (d.action === 'copy') {
    const src = state.saplingState(d.source);
    if (!src) throw new Error(`copy of unknown sapling state ${d.source}`);
    state.setSaplingState(id, { ...src });
    return temp ? 0n : BigInt(src.total_bytes) + SAPLING_STATE_ALLOC_BYTES;
  }
  if (!state.saplingState(id)) throw new Error(`update of unknown sapling state ${id}`);
  return 0n;
}

/** Drops `update` entries without updates (nothing to report). */
export function reportedDiff(diff: LazyStorageDiffItem[]): LazyStorageDiffItem[] {
  return diff.filter((d) => {
    if (d.diff.action !== 'update') return true;
    const u = d.diff.updates;
    return Array.isArray(u)
      ? u.length > 0
      : u.commitments_and_ciphertexts.length > 0 || u.nullifiers.length > 0;
  });
}
