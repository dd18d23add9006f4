/**
 * The instruction cost model: what each instruction costs (milligas) given the stack it runs on, charged
 * before it runs, as Octez does. Flat figures come from `BASE_COST`; the size-dependent formulas follow
 * Octez's generated cost functions (sizes in bytes of the operands).
 */
import { BASE_COST, BLS_COST, CHECK_SIGNATURE_COST, DEFAULT_COST } from './gas-params';
import type { ExprPrim } from './types';
import type { V } from './values';

/** Bytes needed for the absolute value of a big integer. */
export function intBytes(v: bigint): number {
  const n = Number(v); // exact below 2^53; rounding keeps |v| <= 2^32 - 1 iff |n| <= 2^32 - 1
  if (n >= -0xffffffff && n <= 0xffffffff) return n === 0 ? 0 : (39 - Math.clz32(n < 0 ? -n : n)) >> 3;
  const a = v < 0n ? -v : v;
  return (a.toString(16).length + 1) >> 1;
}

/** Size in bytes used by Octez's cost functions for a number, string or bytes value. */
function size(v: V | undefined): number {
  if (!v) return 0;
  if (v.k === 'num') return intBytes(v.v);
  if (v.k === 'string') return v.v.length;
  if (v.k === 'bytes') return v.v.length >> 1;
  return 0;
}

/** Octez's `log2` in cost functions: 1 + the number of bits of x (x >= 0). */
function octezLog2(x: number): number {
  return 1 + (x <= 0 ? 0 : Math.floor(Math.log2(x)) + 1);
}

/** cost_mul (MUL on int/nat): a = s1 + s2, v = a · log2 a, 55 + v/2 + v/4 + v/16. */
export function mulCost(s1: number, s2: number): number {
  const a = s1 + s2;
  const v = a * octezLog2(a);
  return 55 + (v >> 1) + (v >> 2) + (v >> 4);
}

/** ceil(log2(x)) for x >= 1. */
export function log2i(x: number): number {
  return x <= 1 ? 0 : Math.ceil(Math.log2(x));
}

/** Cost of comparing two values of the same comparable type. */
export function compareCost(a: V, b: V): number {
  const bytesCmp = (s1: number, s2: number): number => {
    const m = Math.min(s1, s2);
    return 35 + (m >> 6) + (m >> 7);
  };
  switch (a.k) {
    case 'num':
      return a.t.prim === 'mutez' ? bytesCmp(8, 8) : bytesCmp(size(a), size(b));
    case 'string':
    case 'bytes':
      return bytesCmp(size(a), size(b));
    case 'bool':
      return bytesCmp(1, 1);
    case 'unit':
      return 10;
    case 'pair': {
      const y = b as typeof a;
      return 10 + compareCost(a.a, y.a) + compareCost(a.b, y.b);
    }
    case 'option': {
      const y = b as typeof a;
      return 10 + (a.v !== null && y.v !== null ? compareCost(a.v, y.v) : 0);
    }
    case 'or': {
      const y = b as typeof a;
      return 10 + (a.left === y.left ? compareCost(a.v, y.v) : 0);
    }
    case 'address':
      return bytesCmp(51, 51);
    case 'key_hash':
      return bytesCmp(21, 21);
    case 'chain_id':
      return 30;
    default:
      return 92; // key, signature
  }
}

function containerSize(c: V | undefined): number {
  return c && (c.k === 'map' || c.k === 'set' || c.k === 'list') ? c.v.length : 0;
}

/**
 * A big map's in-memory overlay (Octez `cost_N_IMap_*` with 32-byte key hashes, log2 x = 1 + numbits x):
 * the storage read, when one happens, is charged apart (gas-typecheck.ts `bigMapReadCost`).
 */
export function bigMapOverlayCost(prim: string, overlaySize: number): number {
  const v = 32 * octezLog2(overlaySize);
  if (prim === 'UPDATE') return 55 + (v >> 4) + (v >> 5);
  if (prim === 'GET_AND_UPDATE') return 75 + (v >> 3) + (v >> 6);
  return 45 + (v >> 5) + (v >> 6); // GET, MEM
}

/** Lookup in a sorted map or set of n elements: `base + factor * compare(k, k) * log2(n + 1)`. */
function lookup(base: number, factor: number, key: V | undefined, c: V | undefined, prim = 'GET'): number {
  if (!key || !c) return base;
  if (c.k === 'big_map') return bigMapOverlayCost(prim, c.diff.size);
  return base + factor * compareCost(key, key) * log2i(containerSize(c) + 1);
}

function intArg(ins: ExprPrim): number | null {
  const a = ins.args?.[0];
  return a && !Array.isArray(a) && 'int' in a ? Number(a.int) : null;
}

/**
 * Instructions whose cost depends on the stack they run on (`instructionCost` reads it), or whose handler
 * charges more gas while it runs (big-map reads, PACK's output). Everything else costs the same every time.
 */
const STACK_DEPENDENT = new Set([
  'ADD',
  'SUB',
  'MUL',
  'EDIV',
  'AND',
  'OR',
  'XOR',
  'NOT',
  'NEG',
  'LSL',
  'LSR',
  'COMPARE',
  'CONCAT',
  'SLICE',
  'SIZE',
  'MEM',
  'GET_AND_UPDATE',
  'BLAKE2B',
  'SHA256',
  'SHA512',
  'SHA3',
  'KECCAK',
  'CHECK_SIGNATURE',
  'PAIRING_CHECK',
  'UNPACK',
  'PACK',
]);

/**
 * The cost of `ins` when it does not depend on the stack and the instruction charges nothing else while it
 * runs (so that a run of such instructions can be charged at once); null otherwise.
 */
export function fixedCost(ins: ExprPrim): number | null {
  if (STACK_DEPENDENT.has(ins.prim)) return null;
  if ((ins.prim === 'GET' || ins.prim === 'UPDATE') && !ins.args?.length) return null;
  return instructionCost(ins, []);
}

/** ADD or SUB on the top two values. */
export function addSubCost(prim: string, top: V | undefined, second: V | undefined): number {
  if (top?.k === 'num' && second?.k === 'num') {
    if (top.t.prim === 'mutez') return prim === 'ADD' ? 20 : 15;
    return 35 + (Math.max(size(top), size(second)) >> 1);
  }
  if (top?.t.prim === 'bls12_381_g1') return BLS_COST.addG1;
  if (top?.t.prim === 'bls12_381_g2') return BLS_COST.addG2;
  return BLS_COST.addFr;
}

/** Milligas charged for running `ins` on stack `s` (top at the end). */
export function instructionCost(ins: ExprPrim, s: readonly V[]): number {
  const top = s[s.length - 1];
  const second = s[s.length - 2];
  const third = s[s.length - 3];
  switch (ins.prim) {
    case 'DROP': {
      const n = intArg(ins);
      return n === null ? 10 : 30 + 2 * n + (n >> 1) + (n >> 3);
    }
    case 'DUP': {
      const n = intArg(ins);
      return n === null ? 10 : 20 + n + (n >> 2);
    }
    case 'DIP': {
      const n = ins.args?.length === 2 ? intArg(ins) : null;
      return n === null ? 10 : 15 + 4 * n + (n + 1) * 10;
    }
    case 'DIG':
    case 'DUG': {
      // cost_N_IDig / cost_N_IDug
      const n = intArg(ins) ?? 0;
      return (ins.prim === 'DIG' ? 30 : 35) + 6 * n + (n >> 1) + (n >> 2);
    }
    case 'PAIR':
    case 'UNPAIR': {
      // cost_N_IComb / cost_N_IUncomb (PAIR n, UNPAIR n); plain PAIR/UNPAIR are flat
      const n = intArg(ins);
      if (n === null) return 10;
      return ins.prim === 'PAIR' ? 3 * n + (n >> 1) + (n >> 5) : 25 + 4 * n;
    }
    case 'ADD':
    case 'SUB':
      return addSubCost(ins.prim, top, second);
    case 'MUL':
      if (top?.k === 'num' && second?.k === 'num') {
        if (top.t.prim === 'mutez' || second.t.prim === 'mutez') return 50; // cost_N_IMul_teznat / nattez
        return mulCost(size(top), size(second));
      }
      if (top?.t.prim === 'bls12_381_g1') return BLS_COST.mulG1;
      if (top?.t.prim === 'bls12_381_g2') return BLS_COST.mulG2;
      return top?.k === 'num' || second?.k === 'num'
        ? 265 + Math.max(size(top), size(second))
        : BLS_COST.mulFr;
    case 'EDIV':
      return 80 + Math.max(size(top), size(second)) * 2;
    case 'AND':
    case 'OR':
      return top?.k === 'bool' ? 10 : 35 + (Math.min(size(top), size(second)) >> 1);
    case 'XOR':
      if (top?.k === 'bool') return 15;
      return (top?.k === 'bytes' ? 40 : 35) + (Math.min(size(top), size(second)) >> 1);
    case 'NOT':
      if (top?.k === 'bool') return 10;
      return (top?.k === 'bytes' ? 30 : 25) + (size(top) >> 1);
    case 'NEG':
      if (top?.k === 'num') return 25 + (size(top) >> 1);
      return top?.t.prim === 'bls12_381_g1'
        ? BLS_COST.negG1
        : top?.t.prim === 'bls12_381_g2'
          ? BLS_COST.negG2
          : BLS_COST.negFr;
    case 'LSL':
    case 'LSR':
      return 50 + (size(top) >> 1);
    case 'COMPARE':
      return top && second ? compareCost(top, second) : 35;
    case 'CONCAT':
      if (top?.k === 'list') {
        const total = top.v.reduce((n, x) => n + size(x), 0);
        return 100 + 10 * top.v.length + (total >> 1);
      }
      return 45 + ((size(top) + size(second)) >> 1);
    case 'SLICE':
      return 25 + (Number(second?.k === 'num' ? second.v : 0n) >> 1);
    case 'SIZE':
      return top?.k === 'string' ? 15 : 10;
    case 'MEM':
      return second?.k === 'set' ? lookup(115, 1, top, second) : lookup(80, 1, top, second, 'MEM');
    case 'GET':
      if (ins.args?.length) {
        const n = intArg(ins) ?? 0; // cost_N_IComb_get
        return 20 + (n >> 1) + (n >> 4);
      }
      return lookup(80, 1, top, second);
    case 'UPDATE':
      if (ins.args?.length) {
        const n = intArg(ins) ?? 0; // cost_N_IComb_set
        return 20 + n + (n >> 2) + (n >> 5);
      }
      return third?.k === 'set' ? lookup(130, 2, top, third) : lookup(80, 2, top, third, 'UPDATE');
    case 'GET_AND_UPDATE':
      return lookup(80, 2, top, third, 'GET_AND_UPDATE');
    case 'BLAKE2B':
    case 'SHA256':
    case 'SHA512':
    case 'SHA3':
    case 'KECCAK': {
      const n = size(top);
      if (ins.prim === 'BLAKE2B') return 430 + n + (n >> 3);
      if (ins.prim === 'SHA256') return 600 + 4 * n + (n >> 1) + (n >> 2);
      if (ins.prim === 'SHA512') return 680 + 3 * n;
      return 1350 + 8 * n + (n >> 2);
    }
    case 'CHECK_SIGNATURE': {
      const n = size(third);
      const tag = top?.k === 'key' ? top.hex.slice(0, 2) : '00';
      if (tag === '03') return CHECK_SIGNATURE_COST.bls + 3 * n;
      const base =
        tag === '01'
          ? CHECK_SIGNATURE_COST.secp256k1
          : tag === '02'
            ? CHECK_SIGNATURE_COST.p256
            : CHECK_SIGNATURE_COST.ed25519;
      return base + n + (n >> 3);
    }
    case 'PAIRING_CHECK':
      return BLS_COST.pairingBase + BLS_COST.pairingPerPair * containerSize(top);
    case 'UNPACK':
      return (BASE_COST.UNPACK ?? 280) + 2 * size(top);
    default:
      // own properties only: a primitive named `constructor` or `__proto__` is not a figure
      return (Object.hasOwn(BASE_COST, ins.prim) ? BASE_COST[ins.prim] : undefined) ?? DEFAULT_COST;
  }
}
