/** Pairs and combs, options, unions, lists, sets, maps, big maps, strings/bytes, PACK/UNPACK. */
import { search } from '../compare';
import { packKeyHex, unparse } from '../data';
import { staticError } from '../errors';
import type { Handler, Interpreter } from '../interpreter';
import { pop, register } from '../interpreter';
import { packValue, scriptExprHash, unpackValue } from '../pack';
import type { Expr, Ty } from '../types';
import {
  NOT_PACKABLE,
  assertTyEq,
  checkComparable,
  hasForbidden,
  listT,
  optionT,
  pairT,
  showTy,
} from '../types';
import type { BigMapV, MapV, SetV, V } from '../values';
import { asKind, bool, bytes, left, nat, none, pair, right, some, str } from '../values';
import { bigMapReadCost } from '../gas-typecheck';

// ---- big maps -----------------------------------------------------------------------------------------------
/** A big-map entry (overlay first, then the chain). `memOnly`: MEM, which does not decode the value. */
export function bigMapFind(it: Interpreter, bm: BigMapV, key: V, memOnly = false): V | null {
  assertTyEq(key.t, bm.t.args[0] as Ty, 'big map key');
  const local = bm.diff.get(packKeyHex(key));
  if (local) return local.value;
  if (bm.id === null) return null;
  const keyExpr = unparse(key, 'Optimized');
  const e = it.chain.bigMapGet?.(bm.id, keyExpr, scriptExprHash(key)) ?? null;
  it.consume(bigMapReadCost(keyExpr, e, memOnly ? undefined : (bm.t.args[1] as unknown as Expr)));
  return e === null ? null : it.parseValue(e, bm.t.args[1] as Ty);
}
export function bigMapSet(bm: BigMapV, key: V, value: V | null): BigMapV {
  const diff = new Map(bm.diff);
  diff.set(packKeyHex(key), { key, value });
  return { k: 'big_map', t: bm.t, id: bm.id, diff };
}

// ---- maps and sets (sorted arrays, copy on write) ------------------------------------------------------------
function mapGet(m: MapV, key: V): V | null {
  const i = search(m.v, key, (e) => e[0]);
  return i >= 0 ? (m.v[i] as [V, V])[1] : null;
}
function mapSet(m: MapV, key: V, value: V | null): MapV {
  const i = search(m.v, key, (e) => e[0]);
  const v = m.v.slice();
  if (i >= 0) {
    if (value === null) v.splice(i, 1);
    else v[i] = [key, value];
  } else if (value !== null) v.splice(-i - 1, 0, [key, value]);
  return { k: 'map', t: m.t, v };
}
function setUpdate(st: SetV, key: V, present: boolean): SetV {
  const i = search(st.v, key, (e) => e);
  if (i >= 0 === present) return st;
  const v = st.v.slice();
  if (present) v.splice(-i - 1, 0, key);
  else v.splice(i, 1);
  return { k: 'set', t: st.t, v };
}

function getFrom(it: Interpreter, c: V, key: V, memOnly = false): V | null {
  if (c.k === 'map') {
    assertTyEq(key.t, c.t.args[0] as Ty, 'map key');
    return mapGet(c, key);
  }
  if (c.k === 'big_map') return bigMapFind(it, c, key, memOnly);
  throw staticError('bad_stack', `GET on ${showTy(c.t)}`);
}
function updateIn(c: V, key: V, value: V | null): V {
  if (c.k === 'map') return mapSet(c, key, value);
  if (c.k === 'big_map') return bigMapSet(c, key, value);
  throw staticError('bad_stack', `UPDATE on ${showTy(c.t)}`);
}
function checkValueType(c: V, opt: V): void {
  assertTyEq(opt.t, optionT(c.t.args[1] as Ty), 'UPDATE value');
}

// ---- combs --------------------------------------------------------------------------------------------------
function combGet(v: V, n: number): V {
  let cur = v;
  for (let i = 0; i < Math.floor(n / 2); i++) cur = asKind(cur, 'pair').b;
  return n % 2 === 1 ? asKind(cur, 'pair').a : cur;
}
function combSet(v: V, n: number, x: V): V {
  if (n === 0) return x;
  const p = asKind(v, 'pair');
  if (n === 1) return pair(x, p.b);
  return pair(p.a, combSet(p.b, n - 2, x));
}

// ---- strings and bytes ----------------------------------------------------------------------------------------
function size(v: V): bigint {
  switch (v.k) {
    case 'string':
      return BigInt(v.v.length);
    case 'bytes':
      return BigInt(v.v.length / 2);
    case 'list':
    case 'set':
    case 'map':
      return BigInt(v.v.length);
    default:
      throw staticError('bad_stack', `SIZE on ${showTy(v.t)}`);
  }
}

const table: Record<string, Handler> = {
  PAIR(it, ins, s) {
    const n = it.intArg(ins) ?? 2;
    if (n < 2) throw staticError('invalid_arity', 'PAIR n needs n >= 2');
    if (s.length < n) throw staticError('bad_stack', 'PAIR: stack too short');
    const items = s.splice(s.length - n, n).reverse();
    let acc = items[n - 1] as V;
    for (let i = n - 2; i >= 0; i--) acc = pair(items[i] as V, acc);
    s.push(acc);
  },
  UNPAIR(it, ins, s) {
    const n = it.intArg(ins) ?? 2;
    if (n < 2) throw staticError('invalid_arity', 'UNPAIR n needs n >= 2');
    const parts: V[] = [];
    let cur = pop(s);
    for (let i = 0; i < n - 1; i++) {
      const p = asKind(cur, 'pair');
      parts.push(p.a);
      cur = p.b;
    }
    parts.push(cur);
    for (let i = parts.length - 1; i >= 0; i--) s.push(parts[i] as V);
  },
  CAR(_it, _ins, s) {
    s.push(asKind(pop(s), 'pair').a);
  },
  CDR(_it, _ins, s) {
    s.push(asKind(pop(s), 'pair').b);
  },
  SOME(_it, _ins, s) {
    s.push(some(pop(s)));
  },
  NONE(it, ins, s) {
    s.push(none(it.tyArg(ins)));
  },
  LEFT(it, ins, s) {
    s.push(left(pop(s), it.tyArg(ins)));
  },
  RIGHT(it, ins, s) {
    s.push(right(it.tyArg(ins), pop(s)));
  },
  NIL(it, ins, s) {
    s.push({ k: 'list', t: listT(it.tyArg(ins)), v: [] });
  },
  CONS(_it, _ins, s) {
    const x = pop(s);
    const l = asKind(pop(s), 'list');
    assertTyEq(x.t, l.t.args[0] as Ty, 'CONS');
    s.push({ k: 'list', t: l.t, v: [x, ...l.v] });
  },
  SIZE(_it, _ins, s) {
    s.push(nat(size(pop(s))));
  },
  EMPTY_SET(it, ins, s) {
    const t = it.tyArg(ins);
    checkComparable(t);
    s.push({ k: 'set', t: { prim: 'set', args: [t] }, v: [] });
  },
  EMPTY_MAP(it, ins, s) {
    const k = it.tyArg(ins, 0);
    checkComparable(k);
    s.push({ k: 'map', t: { prim: 'map', args: [k, it.tyArg(ins, 1)] }, v: [] });
  },
  EMPTY_BIG_MAP(it, ins, s) {
    const k = it.tyArg(ins, 0);
    checkComparable(k);
    const vt = it.tyArg(ins, 1);
    if (hasForbidden(vt, new Set(['operation', 'big_map', 'sapling_state'])))
      throw staticError('unexpected_big_map', 'invalid big map value type');
    s.push({ k: 'big_map', t: { prim: 'big_map', args: [k, vt] }, id: null, diff: new Map() });
  },
  MEM(it, _ins, s) {
    const key = pop(s);
    const c = pop(s);
    if (c.k === 'set') {
      assertTyEq(key.t, c.t.args[0] as Ty, 'MEM key');
      s.push(bool(search(c.v, key, (e) => e) >= 0));
    } else s.push(bool(getFrom(it, c, key, true) !== null));
  },
  GET(it, ins, s) {
    const n = it.intArg(ins);
    if (n !== null) {
      s.push(combGet(pop(s), n));
      return;
    }
    const key = pop(s);
    const c = pop(s);
    const r = getFrom(it, c, key);
    s.push(r === null ? none(c.t.args[1] as Ty) : some(r));
  },
  UPDATE(it, ins, s) {
    const n = it.intArg(ins);
    if (n !== null) {
      const x = pop(s);
      s.push(combSet(pop(s), n, x));
      return;
    }
    const key = pop(s);
    const val = pop(s);
    const c = pop(s);
    if (c.k === 'set') {
      assertTyEq(key.t, c.t.args[0] as Ty, 'UPDATE key');
      s.push(setUpdate(c, key, asKind(val, 'bool').v));
      return;
    }
    assertTyEq(key.t, c.t.args[0] ?? c.t, 'UPDATE key');
    checkValueType(c, val);
    s.push(updateIn(c, key, asKind(val, 'option').v));
  },
  GET_AND_UPDATE(it, _ins, s) {
    const key = pop(s);
    const val = asKind(pop(s), 'option');
    const c = pop(s);
    checkValueType(c, val);
    const old = getFrom(it, c, key);
    s.push(updateIn(c, key, val.v));
    s.push(old === null ? none(c.t.args[1] as Ty) : some(old));
  },
  CONCAT(_it, _ins, s) {
    const a = pop(s);
    if (a.k === 'list') {
      const et = a.t.args[0] as Ty;
      if (et.prim === 'string') s.push(str(a.v.map((x) => asKind(x, 'string').v).join('')));
      else if (et.prim === 'bytes') s.push(bytes(a.v.map((x) => asKind(x, 'bytes').v).join('')));
      else throw staticError('bad_stack', `CONCAT on ${showTy(a.t)}`);
      return;
    }
    const b = pop(s);
    if (a.k === 'string' && b.k === 'string') s.push(str(a.v + b.v));
    else if (a.k === 'bytes' && b.k === 'bytes') s.push(bytes(a.v + b.v));
    else throw staticError('bad_stack', `CONCAT on ${showTy(a.t)} and ${showTy(b.t)}`);
  },
  SLICE(_it, _ins, s) {
    const off = asKind(pop(s), 'num').v;
    const len = asKind(pop(s), 'num').v;
    const x = pop(s);
    const total = BigInt(size(x));
    if (x.k !== 'string' && x.k !== 'bytes') throw staticError('bad_stack', `SLICE on ${showTy(x.t)}`);
    if (off >= total || off + len > total) {
      s.push(none(x.t));
      return;
    }
    const o = Number(off);
    const l = Number(len);
    s.push(some(x.k === 'string' ? str(x.v.slice(o, o + l)) : bytes(x.v.slice(2 * o, 2 * (o + l)))));
  },
  ITER(it, ins, s) {
    const body = it.codeArg(ins, 0);
    const c = pop(s);
    let items: V[];
    if (c.k === 'list' || c.k === 'set') items = c.v;
    else if (c.k === 'map') items = c.v.map(([k, v]) => pair(k, v));
    else throw staticError('bad_stack', `ITER on ${showTy(c.t)}`);
    let i = 0;
    const next = (st: V[]): void => {
      if (i >= items.length) return;
      st.push(items[i++] as V);
      it.then(ins, next);
      it.schedule(body);
    };
    next(s);
  },
  MAP(it, ins, s) {
    const body = it.codeArg(ins, 0);
    const c = pop(s);
    let inputs: V[];
    let inputTy: Ty;
    if (c.k === 'list') [inputs, inputTy] = [c.v, c.t.args[0] as Ty];
    else if (c.k === 'map') {
      inputs = c.v.map(([k, v]) => pair(k, v));
      inputTy = pairT(c.t.args[0] as Ty, c.t.args[1] as Ty);
    } else if (c.k === 'option') [inputs, inputTy] = [c.v === null ? [] : [c.v], c.t.args[0] as Ty];
    else throw staticError('bad_stack', `MAP on ${showTy(c.t)}`);
    // The result type comes from the first result, or from the static typechecker when there is none.
    const emptyTy = inputs.length === 0 ? it.bodyResultType(ins, body, inputTy, s) : null;
    const out: V[] = [];
    let i = 0;
    const finish = (st: V[]): void => {
      const rt = out[0]?.t ?? (emptyTy as Ty);
      if (c.k === 'list') st.push({ k: 'list', t: listT(rt), v: out });
      else if (c.k === 'map') {
        const entries = c.v.map(([k], j) => [k, out[j] as V] as [V, V]);
        st.push({ k: 'map', t: { prim: 'map', args: [c.t.args[0] as Ty, rt] }, v: entries });
      } else st.push(out[0] ? some(out[0]) : none(rt));
    };
    const next = (st: V[]): void => {
      if (i > 0) out.push(pop(st));
      if (i >= inputs.length) {
        finish(st);
        return;
      }
      st.push(inputs[i++] as V);
      it.then(ins, next);
      it.schedule(body);
    };
    next(s);
  },
  PACK(it, _ins, s) {
    const v = pop(s);
    if (hasForbidden(v.t, NOT_PACKABLE)) throw staticError('unexpected_type', `PACK on ${showTy(v.t)}`);
    const out = packValue(v);
    it.consume(out.length);
    s.push(bytes(out));
  },
  UNPACK(it, ins, s) {
    const t = it.tyArg(ins);
    if (hasForbidden(t, NOT_PACKABLE) || hasForbidden(t, new Set(['contract']))) {
      throw staticError('unexpected_type', `UNPACK of ${showTy(t)}`);
    }
    const b = asKind(pop(s), 'bytes');
    const v = unpackValue(b.v, t, {
      ...it.dataContext(),
      checkLambda: (c, a, r, rec) => it.checkLambda(c as Expr[], a, r, rec),
    });
    s.push(v === null ? none(t) : some(v));
  },
};

register(table);
