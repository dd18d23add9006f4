/** The Michelson total order on comparable values (COMPARE, map keys, set elements). */
import { compareTyped } from './data';
import { staticError } from './errors';
import { showTy, tyEq } from './types';
import type { V } from './values';

export { compareTyped };

/** COMPARE with the type check Octez does (michel-codec accepts operands of different types). */
export function compareChecked(a: V, b: V): number {
  if (!tyEq(a.t, b.t))
    throw staticError('inconsistent_types', `COMPARE on ${showTy(a.t)} and ${showTy(b.t)}`);
  return compareTyped(a, b);
}

/** Binary search in a sorted array by key; returns index or -(insertion point) - 1. */
export function search<T>(arr: readonly T[], key: V, get: (x: T) => V): number {
  let lo = 0;
  let hi = arr.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareTyped(get(arr[mid] as T), key);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}
