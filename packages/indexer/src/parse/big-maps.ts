/**
 * Big-map changes of one operation result -> rows. Temporary big maps (negative ids) live for the whole
 * operation group content (a parent may allocate what an internal origination copies) and are never stored:
 * a copy into a real pointer takes their keys, and their stored origin (`source_ptr`) when they were a copy.
 */
import {
  buildTypeTree,
  lambdasInValue,
  readableText,
  type Micheline,
  type MichelinePrim,
  type TypeNode,
} from '@michelscope/michelson';
import type { BlockBuilder } from './builder';
import type { BigMapEvent } from './era';
import { fieldName, mapBigMaps } from './storage-walk';

interface TempBigMap {
  source: number | null;
  keyType: Micheline | null;
  valueType: Micheline | null;
  keys: Map<string, { key: Micheline; value: Micheline | null }>;
}

export type TempBigMaps = Map<number, TempBigMap>;

/** Longest stored key text (the keys filter matches at most 255 characters anywhere in it). */
export const KEY_TEXT_MAX = 2000;

/**
 * Key types of the big maps a contract's storage points to (`type` its storage type, `value` the storage
 * after the operation, pointers as ints), for the readable key text of their updates.
 */
function storageKeyTypes(
  storage: { type: Micheline; value: Micheline | null } | undefined,
): Map<number, Micheline> {
  const out = new Map<number, Micheline>();
  if (!storage?.value) return out;
  mapBigMaps(storage.type, storage.value, (t, v) => {
    if (!Array.isArray(v) && 'int' in v && t.args?.[0]) out.set(Number(v.int), t.args[0]);
    return v;
  });
  return out;
}

/**
 * Writes the diffs/actions/big-map rows of `events` for contract `contract` under operation `op`.
 * Returns the number of diffs and whether a stored value holds a PACKed lambda (a `lambda` migration).
 */
export function applyBigMapEvents(
  b: BlockBuilder,
  events: BigMapEvent[],
  contract: string,
  op: number,
  temps: TempBigMaps,
  names: Map<number, string | null>,
  storage?: { type: Micheline; value: Micheline | null },
): { diffs: number; lambda: boolean } {
  const d = b.data;
  let diffs = 0;
  let lambda = false;
  let keyTypes: Map<number, Micheline> | undefined;
  const trees = new Map<number, TypeNode | null>();
  const keyTree = (ptr: number): TypeNode | null => {
    let t = trees.get(ptr);
    if (t !== undefined) return t;
    keyTypes ??= storageKeyTypes(storage);
    for (const ev of events) if (ev.kind === 'alloc' && ev.id === ptr) keyTypes.set(ptr, ev.keyType);
    const type = keyTypes.get(ptr);
    try {
      t = type ? buildTypeTree(type) : null;
    } catch {
      t = null;
    }
    trees.set(ptr, t);
    return t;
  };
  const diff = (
    ptr: number,
    keyHash: string,
    key: Micheline,
    value: Micheline | null,
    keyType?: Micheline | null,
  ) => {
    let key_text: string | null = null;
    try {
      const type = keyTree(ptr) ?? (keyType ? buildTypeTree(keyType) : null);
      if (type) key_text = readableText(type, key).slice(0, KEY_TEXT_MAX);
    } catch {
      // a key type that does not build keeps no text (the filter still matches the key JSON)
    }
    d.bigMapDiffs.push({ op, ptr, contract, key, key_hash: keyHash, value, key_text });
    diffs++;
    if (value !== null && lambdasInValue(value).length > 0) lambda = true;
  };
  for (const ev of events) {
    switch (ev.kind) {
      case 'alloc':
        if (ev.id < 0)
          temps.set(ev.id, { source: null, keyType: ev.keyType, valueType: ev.valueType, keys: new Map() });
        else {
          d.bigMaps.push({
            op,
            ptr: ev.id,
            contract,
            key_type: ev.keyType,
            value_type: ev.valueType,
            name: names.get(ev.id) ?? null,
          });
          d.bigMapActions.push({
            op,
            action: 'alloc',
            source_ptr: ev.id,
            destination_ptr: null,
            address: contract,
          });
        }
        break;
      case 'copy': {
        const src = ev.source < 0 ? temps.get(ev.source) : undefined;
        const origin = ev.source >= 0 ? ev.source : (src?.source ?? null);
        if (ev.id < 0) {
          temps.set(ev.id, {
            source: origin,
            keyType: src?.keyType ?? null,
            valueType: src?.valueType ?? null,
            keys: new Map(src?.keys ?? []),
          });
          break;
        }
        d.bigMaps.push({
          op,
          ptr: ev.id,
          contract,
          key_type: src?.keyType ?? null,
          value_type: src?.valueType ?? null,
          name: names.get(ev.id) ?? null,
        });
        d.bigMapActions.push({
          op,
          action: 'copy',
          source_ptr: origin,
          destination_ptr: ev.id,
          address: contract,
        });
        for (const [keyHash, k] of src?.keys ?? []) diff(ev.id, keyHash, k.key, k.value, src?.keyType);
        break;
      }
      case 'update':
        if (ev.id < 0 && !ev.legacy) {
          const t = temps.get(ev.id);
          if (t) t.keys.set(ev.keyHash, { key: ev.key, value: ev.value });
        } else diff(ev.id, ev.keyHash, ev.key, ev.value);
        break;
      case 'remove':
        if (ev.id < 0) temps.delete(ev.id);
        else
          d.bigMapActions.push({
            op,
            action: 'remove',
            source_ptr: ev.id,
            destination_ptr: null,
            address: contract,
          });
        break;
    }
  }
  return { diffs, lambda };
}

/**
 * The pointer form of an originated contract's storage: literal big maps take the allocated pointers in
 * type order, temporary ids the pointer they were copied to. Also returns ptr -> field name.
 */
export function originatedStorage(
  storageType: Micheline,
  storage: Micheline,
  events: BigMapEvent[],
): { storage: Micheline; names: Map<number, string | null> } {
  const allocs = events
    .filter((e) => e.kind === 'alloc' && e.id >= 0)
    .map((e) => e.id)
    .sort((a, c) => a - c);
  const copies = new Map<number, number>();
  for (const e of events) if (e.kind === 'copy' && e.id >= 0) copies.set(e.source, e.id);
  const names = new Map<number, string | null>();
  let next = 0;
  const out = mapBigMaps(
    storageType,
    storage,
    (t: MichelinePrim, v: Micheline) => {
      let ptr: number | undefined;
      if (!Array.isArray(v) && 'int' in v) {
        const n = Number(v.int);
        ptr = copies.get(n) ?? (n >= 0 ? n : undefined);
      } else ptr = allocs[next++];
      if (ptr === undefined) return v;
      names.set(ptr, fieldName(t));
      return { int: String(ptr) };
    },
    true,
  );
  return { storage: out, names };
}
