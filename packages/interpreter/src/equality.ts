/** Structural equality of any two values (comparable or not), used to check results. */
import { compareTyped } from './compare';
import { tyEq } from './types';
import type { V } from './values';

function stripJson(e: unknown): string {
  return JSON.stringify(e, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

export function valuesEqual(a: V, b: V): boolean {
  if (!tyEq(a.t, b.t) || a.k !== b.k) return false;
  switch (a.k) {
    case 'pair': {
      const y = b as typeof a;
      return valuesEqual(a.a, y.a) && valuesEqual(a.b, y.b);
    }
    case 'or': {
      const y = b as typeof a;
      return a.left === y.left && valuesEqual(a.v, y.v);
    }
    case 'option': {
      const y = b as typeof a;
      if (a.v === null || y.v === null) return a.v === y.v;
      return valuesEqual(a.v, y.v);
    }
    case 'list':
    case 'set': {
      const y = b as typeof a;
      return a.v.length === y.v.length && a.v.every((x, i) => valuesEqual(x, y.v[i] as V));
    }
    case 'map': {
      const y = b as typeof a;
      return (
        a.v.length === y.v.length &&
        a.v.every(([k, x], i) => {
          const [k2, x2] = y.v[i] as [V, V];
          return valuesEqual(k, k2) && valuesEqual(x, x2);
        })
      );
    }
    case 'big_map': {
      const y = b as typeof a;
      if (a.id !== y.id || a.diff.size !== y.diff.size) return false;
      for (const [k, e] of a.diff) {
        const f = y.diff.get(k);
        if (!f) return false;
        if (e.value === null || f.value === null) {
          if (e.value !== f.value) return false;
        } else if (!valuesEqual(e.value, f.value)) return false;
      }
      return true;
    }
    case 'lambda': {
      const y = b as typeof a;
      return a.rec === y.rec && stripJson(a.code) === stripJson(y.code);
    }
    case 'contract': {
      const y = b as typeof a;
      return a.hex === y.hex && a.ep === y.ep;
    }
    case 'ticket': {
      const y = b as typeof a;
      return a.ticketer === y.ticketer && a.amount === y.amount && valuesEqual(a.content, y.content);
    }
    case 'bls':
      return a.hex === (b as typeof a).hex;
    case 'fr':
      return a.v === (b as typeof a).v;
    case 'opaque':
      return stripJson(a.data) === stripJson((b as typeof a).data);
    case 'operation':
      return stripJson(a.op) === stripJson((b as typeof a).op);
    default:
      return compareTyped(a, b) === 0;
  }
}
