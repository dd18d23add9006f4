/**
 * Value normalisation against a type: validates the value, writes comb pairs as nested binary
 * `Pair`s, and optionally converts scalars to their readable (base58 / RFC 3339) or optimized
 * (bytes / int) forms. Also fills big-map pointers with their entries (`EnrichBigMap`).
 */
import {
  addressToHex,
  chainIdToHex,
  keyHashToHex,
  keyToHex,
  l2AddressToHex,
  signatureToHex,
} from './binary-forms';
import { compareValues } from './compare';
import { bytesToHex } from './hex';
import { isBytes, isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import { buildTypeTree } from './type-tree';
import type { TypeNode } from './type-tree';
import { eltParts, mismatch, pairParts, readableScalar, seqItems } from './value';

export type ValueForm = 'keep' | 'readable' | 'optimized';

const CONVERTIBLE = new Set([
  'address',
  'contract',
  'key_hash',
  'key',
  'signature',
  'chain_id',
  'timestamp',
  'tx_rollup_l2_address',
  'bls12_381_fr',
]);

/** The BLS12-381 scalar field order: `bls12_381_fr` ints are taken modulo it. */
const FR_ORDER = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

/** 32 little-endian bytes of an `int` scalar, as Octez writes `bls12_381_fr`. */
function frBytes(int: string): string {
  let n = ((BigInt(int) % FR_ORDER) + FR_ORDER) % FR_ORDER;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 0xffn);
  return bytesToHex(out);
}

/** The optimized (bytes / int) form of a scalar in its readable form; others are returned as they are. */
function optimize(prim: string, v: Micheline): Micheline {
  if (prim === 'bls12_381_fr') return isInt(v) ? { bytes: frBytes(v.int) } : v;
  if (!isString(v)) return v;
  try {
    switch (prim) {
      case 'timestamp': {
        if (/^-?\d+$/.test(v.string)) return { int: v.string };
        const ms = Date.parse(v.string);
        if (Number.isNaN(ms)) throw new Error('bad timestamp');
        return { int: String(Math.floor(ms / 1000)) };
      }
      case 'address':
      case 'contract': {
        const [addr = '', ep] = v.string.split('%', 2);
        return { bytes: addressToHex(addr) + (ep ? bytesToHex(new TextEncoder().encode(ep)) : '') };
      }
      case 'key_hash':
        return { bytes: keyHashToHex(v.string) };
      case 'key':
        return { bytes: keyToHex(v.string) };
      case 'signature':
        return { bytes: signatureToHex(v.string).hex };
      case 'chain_id':
        return { bytes: chainIdToHex(v.string) };
      default:
        return { bytes: l2AddressToHex(v.string) };
    }
  } catch {
    throw mismatch(prim, v);
  }
}

class Normaliser {
  constructor(
    private readonly form: ValueForm,
    private readonly bigMaps?: Map<number, [Micheline, Micheline | null][]>,
  ) {}

  value(t: TypeNode, v: Micheline, depth: number): Micheline {
    if (depth > 5000) throw new MichelsonDataError('value nested too deeply');
    switch (t.prim) {
      case 'pair': {
        const [l, r] = pairParts(v);
        return {
          prim: 'Pair',
          args: [this.value(t.args[0]!, l, depth + 1), this.value(t.args[1]!, r, depth + 1)],
        };
      }
      case 'or':
      case 'option': {
        if (!isPrim(v)) throw mismatch(t.prim, v);
        const ok =
          t.prim === 'or'
            ? (v.prim === 'Left' || v.prim === 'Right') && v.args?.length === 1
            : v.prim === 'None' || (v.prim === 'Some' && v.args?.length === 1);
        if (!ok) throw mismatch(t.prim, v);
        if (v.prim === 'None') return { prim: 'None' };
        const inner = t.prim === 'or' ? t.args[v.prim === 'Left' ? 0 : 1]! : t.args[0]!;
        return { prim: v.prim, args: [this.value(inner, v.args![0]!, depth + 1)] };
      }
      case 'list':
      case 'set':
        return seqItems(v, t.prim).map((x) => this.value(t.args[0]!, x, depth + 1));
      case 'map':
      case 'big_map': {
        if (t.prim === 'big_map' && isInt(v)) {
          const entries = this.bigMaps?.get(Number(v.int));
          if (!entries) return v;
          return this.entries(t, entries, depth);
        }
        return this.entries(t, seqItems(v, t.prim).map(eltParts), depth);
      }
      case 'ticket':
        return this.value(t.ticketPair!, v, depth + 1);
      case 'lambda':
        if (!Array.isArray(v) && !isPrim(v)) throw mismatch('lambda', v);
        return v;
      case 'unit':
        if (!isPrim(v) || v.prim !== 'Unit') throw mismatch('unit', v);
        return v;
      default: {
        readableScalar(t.prim, v); // validates the literal against the type
        if (this.form === 'keep' || !CONVERTIBLE.has(t.prim)) return v;
        if (this.form === 'optimized') return optimize(t.prim, v);
        if (t.prim === 'bls12_381_fr') return v;
        if (isBytes(v) || isInt(v)) return { string: String(readableScalar(t.prim, v)) };
        return v;
      }
    }
  }

  private entries(t: TypeNode, entries: [Micheline, Micheline | null][], depth: number): Micheline[] {
    const [kt, vt] = [t.args[0]!, t.args[1]!];
    return entries
      .filter((e): e is [Micheline, Micheline] => e[1] !== null)
      .sort((a, b) => compareValues(kt, a[0], b[0]))
      .map(([k, x]) => ({ prim: 'Elt', args: [this.value(kt, k, depth + 1), this.value(vt, x, depth + 1)] }));
  }
}

/** Normalises a value of `type` (see module doc). Throws MichelsonDataError when it does not match. */
export function normalizeValue(
  type: Micheline | TypeNode,
  value: Micheline,
  form: ValueForm = 'keep',
): Micheline {
  const tree = 'id' in (type as object) ? (type as TypeNode) : buildTypeTree(type);
  return new Normaliser(form).value(tree, value, 0);
}

/** A big-map update: `value` null removes the key. */
export interface BigMapDiffEntry {
  ptr: number;
  key: Micheline;
  value: Micheline | null;
}

/** Replaces big-map pointers in a value by their entries taken from `diffs` (sorted by key). */
export function enrichBigMaps(
  type: Micheline | TypeNode,
  value: Micheline,
  diffs: readonly BigMapDiffEntry[],
): Micheline {
  const tree = 'id' in (type as object) ? (type as TypeNode) : buildTypeTree(type);
  const byPtr = new Map<number, [Micheline, Micheline | null][]>();
  for (const d of diffs) {
    const list = byPtr.get(d.ptr) ?? [];
    list.push([d.key, d.value]);
    byPtr.set(d.ptr, list);
  }
  return new EnrichingNormaliser(byPtr).run(tree, value);
}

class EnrichingNormaliser {
  constructor(private readonly byPtr: Map<number, [Micheline, Micheline | null][]>) {}
  run(t: TypeNode, v: Micheline): Micheline {
    // pointers with no diff become empty maps, like the reference
    const all = new Map(this.byPtr);
    const fill = (n: TypeNode, x: Micheline): void => {
      if (n.prim === 'big_map' && isInt(x) && !all.has(Number(x.int))) all.set(Number(x.int), []);
    };
    walkValue(t, v, fill);
    return new Normaliser('keep', all).value(t, v, 0);
  }
}

/** The big-map pointers of a value (ints at big_map positions), in the order they appear, each once. */
export function bigMapPointers(type: Micheline | TypeNode, value: Micheline): number[] {
  const tree = 'id' in (type as object) ? (type as TypeNode) : buildTypeTree(type);
  const out = new Set<number>();
  walkValue(tree, value, (n, x) => {
    if (n.prim === 'big_map' && isInt(x)) out.add(Number(x.int));
  });
  return [...out];
}

function walkValue(t: TypeNode, v: Micheline, fn: (n: TypeNode, x: Micheline) => void): void {
  fn(t, v);
  if (t.prim === 'pair') {
    const [l, r] = pairParts(v);
    walkValue(t.args[0]!, l, fn);
    walkValue(t.args[1]!, r, fn);
  } else if ((t.prim === 'list' || t.prim === 'set') && Array.isArray(v))
    for (const x of v) walkValue(t.args[0]!, x, fn);
  else if ((t.prim === 'option' || t.prim === 'or') && isPrim(v) && v.args?.[0])
    walkValue(t.prim === 'or' && v.prim === 'Right' ? t.args[1]! : t.args[0]!, v.args[0], fn);
  else if ((t.prim === 'map' || t.prim === 'big_map') && Array.isArray(v))
    for (const e of v) {
      const [k, x] = eltParts(e);
      walkValue(t.args[0]!, k, fn);
      walkValue(t.args[1]!, x, fn);
    }
}
