/** TZT literal forms of operations (`Transfer_tokens`, `Set_delegate`, `Create_contract`, `Emit`) and matching. */
import type { DataContext } from './data';
import { parseAddress, parseData } from './data';
import { valuesEqual } from './equality';
import type { Expr } from './types';
import { T, isPrim, toTy, tyEq } from './types';
import type { OperationV, V } from './values';

const wild = (e: Expr | undefined): boolean => e !== undefined && isPrim(e) && e.prim === '_';
const big = (e: Expr | undefined): bigint | null =>
  e && !Array.isArray(e) && 'int' in e ? BigInt(e.int) : null;

function sameData(v: V, e: Expr | undefined, dctx: DataContext): boolean {
  if (e === undefined) return false;
  if (wild(e)) return true;
  try {
    return valuesEqual(v, parseData(e, v.t, dctx));
  } catch {
    return false;
  }
}

function strip(e: unknown): string {
  return JSON.stringify(e, (k, v: unknown) => (k === 'annots' ? undefined : v));
}

/** Does the operation value match the expected TZT literal? */
export function matchOperation(g: OperationV, e: Expr, dctx: DataContext): boolean {
  if (!isPrim(e)) return false;
  const a = e.args ?? [];
  const o = g.op;
  switch (e.prim) {
    case 'Transfer_tokens': {
      if (o.kind !== 'transaction') return false;
      const dest = a[2];
      if (!wild(dest)) {
        if (!dest || Array.isArray(dest) || !('string' in dest)) return false;
        const d = parseAddress(dest.string, T.address) as Extract<V, { k: 'address' }>;
        if (d.str !== o.destination || (d.ep || 'default') !== o.entrypoint) return false;
      }
      return sameData(o.parameter, a[0], dctx) && (wild(a[1]) || big(a[1]) === o.amount);
    }
    case 'Set_delegate': {
      if (o.kind !== 'delegation') return false;
      const d = a[0];
      if (wild(d)) return true;
      if (isPrim(d as Expr) && (d as { prim: string }).prim === 'None') return o.delegate === null;
      const inner = isPrim(d as Expr) ? (d as { args?: Expr[] }).args?.[0] : undefined;
      return !!inner && !Array.isArray(inner) && 'string' in inner && inner.string === o.delegate;
    }
    case 'Create_contract': {
      if (o.kind !== 'origination') return false;
      if (!wild(a[0]) && strip(sortSections(a[0] as Expr)) !== strip(sortSections(o.code))) return false;
      const d = a[1];
      const delegateOk =
        wild(d) ||
        (isPrim(d as Expr) && (d as { prim: string }).prim === 'None'
          ? o.delegate === null
          : strip(((d as { args?: Expr[] }).args ?? [])[0]) === strip({ string: o.delegate }));
      return delegateOk && (wild(a[2]) || big(a[2]) === o.amount) && sameData(o.storage, a[3], dctx);
    }
    case 'Emit': {
      if (o.kind !== 'event') return false;
      const tag = e.annots?.find((x) => x.startsWith('%'))?.slice(1) ?? '';
      if (tag !== o.tag) return false;
      const [te, ve] = a.length >= 2 ? [a[0], a[1]] : [undefined, a[0]];
      if (te !== undefined && !wild(te) && !tyEq(toTy(te), o.payload.t)) return false;
      return sameData(o.payload, ve, dctx);
    }
  }
  return false;
}

function sortSections(e: Expr | Expr[]): Expr[] {
  const arr = Array.isArray(e) ? e : [e];
  return [...arr].sort((x, y) => ((isPrim(x) ? x.prim : '') < (isPrim(y) ? y.prim : '') ? -1 : 1));
}
