/**
 * What differs between protocol eras in operation receipts, behind one interface per era:
 * big-map changes (`big_map_diff` without actions before Babylon, with actions Babylon…Edo,
 * `lazy_storage_diff` from Florence), gas (`consumed_gas` in gas units vs `consumed_milligas`), and the
 * consensus operation names (`endorsement` vs `attestation`), which the indexer does not store.
 */
import { bigMapKeyHash, isPrim, type Micheline } from '@michelscope/michelson';
import { InvalidNodeDataError } from '../protocols/validate';
import { arr, bigStr, micheline, num, obj, optMicheline, str, type Obj } from './read';
import { mapBigMaps } from './storage-walk';

/** Pointer of the single big map of pre-Babylon contracts (the reference stores -1 too). */
export const LEGACY_PTR = -1;

export type BigMapEvent =
  | { kind: 'alloc'; id: number; keyType: Micheline; valueType: Micheline }
  | { kind: 'copy'; id: number; source: number }
  | { kind: 'remove'; id: number }
  | {
      kind: 'update';
      id: number;
      keyHash: string;
      key: Micheline;
      value: Micheline | null;
      legacy?: boolean;
    };

export interface EraHandler {
  readonly name: string;
  /** Big-map changes of one operation result, in node order. */
  bigMapEvents(result: Obj, where: string): BigMapEvent[];
  /**
   * Pre-Babylon only: an origination's big map is the literal written in its storage (the single big map
   * of those contracts, pointer -1). Returns the storage with the literal emptied and its entries as
   * updates; the receipt's big-map changes are then not read. Undefined in later eras.
   */
  originationBigMaps?(
    storageType: Micheline,
    storage: Micheline,
    where: string,
  ): { storage: Micheline; events: BigMapEvent[] };
  /** Gas consumed, in milligas. */
  consumedMilligas(result: Obj, where: string): number;
  /** Kinds that are consensus/anonymous operations: parsed for shape, not stored. */
  readonly skippedKinds: ReadonlySet<string>;
}

function ptr(o: Obj, field: string, where: string): number {
  const n = Number(bigStr(o, field, where));
  if (!Number.isSafeInteger(n)) throw new InvalidNodeDataError(`${where}: ${field} is out of range`);
  return n;
}

function update(u: Obj, id: number, where: string, legacy = false): BigMapEvent {
  const value = optMicheline(u.value, `${where} value`);
  return {
    kind: 'update',
    id,
    keyHash: str(u, 'key_hash', where),
    key: micheline(u.key, `${where} key`),
    value,
    legacy,
  };
}

/** `big_map_diff` of Babylon … Edo (with actions), and of earlier protocols (no action: the single big map). */
function legacyBigMapEvents(result: Obj, where: string): BigMapEvent[] {
  return arr(result.big_map_diff, `${where} big_map_diff`).map((raw, i) => {
    const w = `${where} big_map_diff[${i}]`;
    const d = obj(raw, w);
    switch (d.action) {
      case undefined:
        return update(d, LEGACY_PTR, w, true);
      case 'update':
        return update(d, ptr(d, 'big_map', w), w);
      case 'remove':
        return { kind: 'remove', id: ptr(d, 'big_map', w) };
      case 'copy':
        return { kind: 'copy', id: ptr(d, 'destination_big_map', w), source: ptr(d, 'source_big_map', w) };
      case 'alloc':
        return {
          kind: 'alloc',
          id: ptr(d, 'big_map', w),
          keyType: micheline(d.key_type, `${w} key_type`),
          valueType: micheline(d.value_type, `${w} value_type`),
        };
      default:
        throw new InvalidNodeDataError(`${w}: unknown action ${JSON.stringify(d.action)}`);
    }
  });
}

/** `lazy_storage_diff` (Florence and later); sapling states are skipped. */
function lazyBigMapEvents(result: Obj, where: string): BigMapEvent[] {
  if (result.lazy_storage_diff === undefined) return legacyBigMapEvents(result, where);
  const out: BigMapEvent[] = [];
  arr(result.lazy_storage_diff, `${where} lazy_storage_diff`).forEach((raw, i) => {
    const w = `${where} lazy_storage_diff[${i}]`;
    const item = obj(raw, w);
    if (item.kind !== 'big_map') return;
    const id = ptr(item, 'id', w);
    const diff = obj(item.diff, `${w} diff`);
    const updates = () =>
      arr(diff.updates, `${w} updates`).forEach((u, j) =>
        out.push(update(obj(u, `${w} updates[${j}]`), id, `${w} updates[${j}]`)),
      );
    switch (diff.action) {
      case 'alloc':
        out.push({
          kind: 'alloc',
          id,
          keyType: micheline(diff.key_type, `${w} key_type`),
          valueType: micheline(diff.value_type, `${w} value_type`),
        });
        updates();
        break;
      case 'copy':
        out.push({ kind: 'copy', id, source: ptr(diff, 'source', w) });
        updates();
        break;
      case 'update':
        updates();
        break;
      case 'remove':
        out.push({ kind: 'remove', id });
        break;
      default:
        throw new InvalidNodeDataError(`${w}: unknown big map action ${JSON.stringify(diff.action)}`);
    }
  });
  return out;
}

function gasUnitsOrMilligas(result: Obj, where: string): number {
  if (result.consumed_milligas !== undefined) return num(result, 'consumed_milligas', where);
  // Deliberate difference from the reference (§11.15: ×100): gas units are 1000 milligas.
  return num(result, 'consumed_gas', where) * 1000;
}

const PRE_TENDERBAKE_CONSENSUS = new Set([
  'endorsement',
  'endorsement_with_slot',
  'seed_nonce_revelation',
  'double_endorsement_evidence',
  'double_baking_evidence',
  'activate_account',
  'proposals',
  'ballot',
]);

/** Babylon … Edo: `big_map_diff` with actions, `consumed_gas`. Also reads pre-Babylon action-less diffs. */
export const babylonEra: EraHandler = {
  name: 'babylon',
  bigMapEvents: legacyBigMapEvents,
  consumedMilligas: gasUnitsOrMilligas,
  skippedKinds: PRE_TENDERBAKE_CONSENSUS,
};

/**
 * The literal big map of a pre-Babylon origination's storage (the left field of the storage pair, the only
 * place those protocols allowed one): emptied in the stored storage, its `Elt`s written as updates of
 * pointer -1 keyed by their script-expression hash, as the reference's Alpha storage parser does.
 */
function literalBigMaps(
  storageType: Micheline,
  storage: Micheline,
  where: string,
): { storage: Micheline; events: BigMapEvent[] } {
  const events: BigMapEvent[] = [];
  const out = mapBigMaps(storageType, storage, (t, v) => {
    if (!Array.isArray(v)) return v; // a pointer: nothing literal to move
    const keyType = t.args?.[0];
    v.forEach((elt, i) => {
      const w = `${where} big map literal[${i}]`;
      if (!isPrim(elt) || elt.prim !== 'Elt' || elt.args?.length !== 2)
        throw new InvalidNodeDataError(`${w}: not an Elt`);
      const [key, value] = elt.args as [Micheline, Micheline];
      let keyHash: string;
      try {
        keyHash = bigMapKeyHash(key, keyType);
      } catch (e) {
        throw new InvalidNodeDataError(`${w}: ${e instanceof Error ? e.message : String(e)}`);
      }
      events.push({ kind: 'update', id: LEGACY_PTR, keyHash, key, value, legacy: true });
    });
    return [];
  });
  return { storage: out, events };
}

/** Before Babylon (Athens and earlier): action-less `big_map_diff`, literal big maps in originations. */
export const alphaEra: EraHandler = { ...babylonEra, name: 'alpha', originationBigMaps: literalBigMaps };

/** Florence … Hangzhou: `lazy_storage_diff` (preferred when both are present), `consumed_milligas`. */
export const florenceEra: EraHandler = { ...babylonEra, name: 'florence', bigMapEvents: lazyBigMapEvents };

/** Tenderbake (Ithaca+): preendorsements; from Oxford on, `attestation` names. */
export const tenderbakeEra: EraHandler = {
  ...florenceEra,
  name: 'tenderbake',
  skippedKinds: new Set([
    ...PRE_TENDERBAKE_CONSENSUS,
    'preendorsement',
    'double_preendorsement_evidence',
    'vdf_revelation',
    'drain_delegate',
    'attestation',
    'preattestation',
    'attestation_with_dal',
    'attestations_aggregate',
    'preattestations_aggregate',
    'double_attestation_evidence',
    'double_preattestation_evidence',
    'double_consensus_operations_evidence',
    'dal_entrapment_evidence',
    'failing_noop',
  ]),
};
