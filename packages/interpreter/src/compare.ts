/** The Michelson total order on comparable values (COMPARE, map keys, set elements). */
import { staticError } from './errors';
import { showTy, tyEq } from './types';
import type { V } from './values';

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareValues(a: V, b: V): number {
  switch (a.k) {
    case 'num': {
      const y = (b as typeof a).v;
      return a.v < y ? -1 : a.v > y ? 1 : 0;
    }
    case 'string':
    case 'bytes':
      return cmpStr(a.v, (b as typeof a).v);
    case 'bool':
      return a.v === (b as typeof a).v ? 0 : a.v ? 1 : -1;
    case 'unit':
      return 0;
    case 'pair': {
      const y = b as typeof a;
      return compareValues(a.a, y.a) || compareValues(a.b, y.b);
    }
    case 'or': {
      const y = b as typeof a;
      if (a.left !== y.left) return a.left ? -1 : 1;
      return compareValues(a.v, y.v);
    }
    case 'option': {
      const y = b as typeof a;
      if (a.v === null) return y.v === null ? 0 : -1;
      if (y.v === null) return 1;
      return compareValues(a.v, y.v);
    }
    case 'address': {
      const y = b as typeof a;
      return cmpStr(a.hex, y.hex) || cmpStr(a.ep, y.ep);
    }
    case 'key_hash':
    case 'key':
    case 'signature':
    case 'chain_id':
      return cmpStr(a.hex, (b as typeof a).hex);
    default:
      throw staticError('comparable_type_expected', `values of type ${showTy(a.t)} are not comparable`);
  }
}

/** COMPARE with the type check Octez does (michel-codec accepts operands of different types). */
export function compareChecked(a: V, b: V): number {
  if (!tyEq(a.t, b.t))
    throw staticError('inconsistent_types', `COMPARE on ${showTy(a.t)} and ${showTy(b.t)}`);
  return compareValues(a, b);
}

/** Binary search in a sorted array by key; returns index or -(insertion point) - 1. */
export function search<T>(arr: readonly T[], key: V, get: (x: T) => V): number {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareValues(get(arr[mid] as T), key);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}
