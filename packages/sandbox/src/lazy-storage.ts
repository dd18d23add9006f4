// Applying a receipt's lazy_storage_diff (big maps and Sapling states) to the state: the accounting is the
// engine's (`@michelscope/engine`, shared with the what-if), over the state's big-map and Sapling records.
import { applyLazyStorageDiff as applyDiff, type LazyStore } from '@michelscope/engine';
import type { LazyStorageDiffItem } from '@michelscope/interpreter';
import type { State } from './state';

export { exprBytes as exprSize } from '@michelscope/engine';

/** The state's big maps (`b:`, entries `v:`) and Sapling states (`s:`); negative ids are temporary. */
function storeOf(state: State): LazyStore {
  return {
    temporary: (_kind, id) => id.startsWith('-'),
    bigMapBytes: (id) => {
      const info = state.bigMap(id);
      return info ? BigInt(info.total_bytes) : null;
    },
    addBigMapBytes: (id, delta) => {
      const info = state.bigMap(id)!;
      state.setBigMap(id, { ...info, total_bytes: String(BigInt(info.total_bytes) + delta) });
    },
    allocBigMap: (id, keyType, valueType) =>
      state.setBigMap(id, { key_type: keyType, value_type: valueType, total_bytes: '0' }),
    copyBigMap: (id, source) => {
      for (const h of state.bigMapKeyHashes(source))
        state.setBigMapEntry(id, h, state.bigMapEntry(source, h));
      state.setBigMap(id, { ...state.bigMap(source)!, total_bytes: '0' });
    },
    removeBigMap: (id) => {
      for (const h of state.bigMapKeyHashes(id)) state.setBigMapEntry(id, h, undefined);
      state.setBigMap(id, undefined);
    },
    writeBigMapEntry: (id, keyHash, key, value) => {
      const old = state.bigMapEntry(id, keyHash);
      if (value !== null) state.setBigMapEntry(id, keyHash, { key, value });
      else if (old) state.setBigMapEntry(id, keyHash, undefined);
      return old?.value ?? null;
    },
    saplingBytes: (id) => {
      const info = state.saplingState(id);
      return info ? BigInt(info.total_bytes) : null;
    },
    allocSapling: (id, memoSize) => state.setSaplingState(id, { memo_size: memoSize, total_bytes: '0' }),
    copySapling: (id, source) => state.setSaplingState(id, { ...state.saplingState(source)! }),
    removeSapling: (id) => state.setSaplingState(id, undefined),
  };
}

/**
 * Applies the diff to the state and returns the change of bytes used (positive or negative). Each big map's
 * `total_bytes` is kept up to date. Temporary big maps and states (negative ids) are applied but count for no
 * contract's storage (nobody pays for them; they are dropped after the operation).
 */
export function applyLazyStorageDiff(state: State, diff: LazyStorageDiffItem[]): bigint {
  return applyDiff(storeOf(state), diff);
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
