/** Stack manipulation and control flow: DROP…DUG, PUSH, IF*, LOOP*, DIP, EXEC, APPLY, LAMBDA*, FAILWITH. */
import { unparse } from '../data';
import { staticError } from '../errors';
import type { Handler, Interpreter } from '../interpreter';
import { peek, pop, register } from '../interpreter';
import type { Expr, ExprPrim, Ty } from '../types';
import { NOT_DUPABLE, NOT_PUSHABLE, assertTyEq, hasForbidden, showTy, tyToExprComb } from '../types';
import type { LambdaV, V } from '../values';
import { asKind, ScriptRejected, unit } from '../values';

/** Octez refuses Micheline expressions nested deeper than this (binary encoding limit). */
const MAX_APPLY_DEPTH = 10_000;

function need(s: V[], n: number): void {
  if (s.length < n) throw staticError('bad_stack', `stack too short: ${n} element(s) needed`);
}

function lambdaType(arg: Ty, ret: Ty): Ty {
  return { prim: 'lambda', args: [arg, ret] };
}

/**
 * Calls a lambda: the caller's stack is set aside, the body runs on [arg] (or [arg, self] for LAMBDA_REC),
 * and a continuation checks the single result and restores the caller's stack under it.
 */
export function callLambda(it: Interpreter, ins: ExprPrim, f: LambdaV, arg: V, s: V[]): void {
  assertTyEq(arg.t, f.t.args[0] as Ty, 'lambda argument');
  const saved = s.splice(0, s.length);
  if (f.rec) s.push(f);
  s.push(arg);
  it.then(ins, (st) => {
    if (st.length !== 1) throw staticError('bad_return', `lambda body left ${st.length} elements`);
    const r = st.pop() as V;
    assertTyEq(r.t, f.t.args[1] as Ty, 'lambda result');
    for (const v of saved) st.push(v);
    st.push(r);
  });
  it.schedule(f.code as Expr[]);
}

function branch(it: Interpreter, ins: ExprPrim, i: number): void {
  it.schedule(it.codeArg(ins, i));
}

const table: Record<string, Handler> = {
  DROP(it, ins, s) {
    const n = it.intArg(ins) ?? 1;
    need(s, n);
    s.length -= n;
  },
  DUP(it, ins, s) {
    const n = it.intArg(ins) ?? 1;
    if (n === 0) throw staticError('invalid_arity', 'DUP 0');
    need(s, n);
    const v = s[s.length - n] as V;
    if (hasForbidden(v.t, NOT_DUPABLE))
      throw staticError('non_dupable_type', `DUP of non-dupable ${showTy(v.t)}`);
    s.push(v);
  },
  SWAP(_it, _ins, s) {
    need(s, 2);
    const a = s[s.length - 1] as V;
    s[s.length - 1] = s[s.length - 2] as V;
    s[s.length - 2] = a;
  },
  DIG(it, ins, s) {
    const n = it.intArg(ins);
    if (n === null) throw staticError('invalid_arity', 'DIG needs n');
    need(s, n + 1);
    const [v] = s.splice(s.length - 1 - n, 1);
    s.push(v as V);
  },
  DUG(it, ins, s) {
    const n = it.intArg(ins);
    if (n === null) throw staticError('invalid_arity', 'DUG needs n');
    need(s, n + 1);
    const v = pop(s);
    s.splice(s.length - n, 0, v);
  },
  PUSH(it, ins, s) {
    const v = it.cached(ins, () => {
      const t = it.tyArg(ins, 0);
      if (hasForbidden(t, NOT_PUSHABLE))
        throw staticError('unexpected_type', `type ${showTy(t)} cannot be pushed`);
      return it.parseValue((ins.args ?? [])[1] as Expr, t);
    });
    s.push(v);
  },
  UNIT(_it, _ins, s) {
    s.push(unit);
  },
  NEVER() {
    // A value of type never cannot exist, so this is reached only by ill-typed input.
    throw staticError('never', 'NEVER reached');
  },
  FAILWITH(_it, _ins, s) {
    const v = pop(s);
    if (hasForbidden(v.t, new Set(['operation', 'big_map', 'ticket', 'sapling_state']))) {
      throw staticError('unexpected_type', `FAILWITH on ${showTy(v.t)}`);
    }
    throw new ScriptRejected(v, unparse(v, 'Optimized'));
  },
  IF(it, ins, s) {
    branch(it, ins, asKind(pop(s), 'bool').v ? 0 : 1);
  },
  IF_NONE(it, ins, s) {
    const o = asKind(pop(s), 'option');
    if (o.v === null) branch(it, ins, 0);
    else {
      s.push(o.v);
      branch(it, ins, 1);
    }
  },
  IF_LEFT(it, ins, s) {
    const o = asKind(pop(s), 'or');
    s.push(o.v);
    branch(it, ins, o.left ? 0 : 1);
  },
  IF_CONS(it, ins, s) {
    const l = asKind(pop(s), 'list');
    if (l.v.length === 0) branch(it, ins, 1);
    else {
      s.push({ k: 'list', t: l.t, v: l.v.slice(1) }, l.v[0] as V);
      branch(it, ins, 0);
    }
  },
  LOOP(it, ins, s) {
    const body = it.codeArg(ins, 0);
    const again = (st: V[]): void => {
      if (!asKind(pop(st), 'bool').v) return;
      it.consume(10);
      it.then(ins, again);
      it.schedule(body);
    };
    again(s);
  },
  LOOP_LEFT(it, ins, s) {
    const body = it.codeArg(ins, 0);
    const again = (st: V[]): void => {
      const o = asKind(pop(st), 'or');
      st.push(o.v);
      if (!o.left) return;
      it.consume(10);
      it.then(ins, again);
      it.schedule(body);
    };
    again(s);
  },
  DIP(it, ins, s) {
    const n = ins.args?.length === 2 ? (it.intArg(ins, 0) ?? 1) : 1;
    const body = it.codeArg(ins, ins.args?.length === 2 ? 1 : 0);
    need(s, n);
    const saved = s.splice(s.length - n, n);
    it.then(ins, (st) => {
      for (const v of saved) st.push(v);
    });
    it.schedule(body);
  },
  EXEC(it, ins, s) {
    const arg = pop(s);
    const f = asKind(pop(s), 'lambda');
    callLambda(it, ins, f, arg, s);
  },
  APPLY(it, _ins, s) {
    const v = pop(s);
    const f = asKind(pop(s), 'lambda');
    const argT = f.t.args[0] as Ty;
    if (argT.prim !== 'pair') throw staticError('bad_stack', 'APPLY needs a lambda taking a pair');
    assertTyEq(v.t, argT.args[0] as Ty, 'APPLY captured value');
    if (hasForbidden(v.t, NOT_PUSHABLE))
      throw staticError('unexpected_type', `APPLY cannot capture ${showTy(v.t)}`);
    const push: Expr = { prim: 'PUSH', args: [tyToExprComb(v.t), unparse(v)] };
    const code: Expr[] = f.rec
      ? [
          push,
          { prim: 'PAIR' },
          { prim: 'LAMBDA_REC', args: [tyToExprComb(argT), tyToExprComb(f.t.args[1] as Ty), f.code] },
          { prim: 'SWAP' },
          { prim: 'EXEC' },
        ]
      : [push, { prim: 'PAIR' }, f.code];
    const depth = Math.max(f.depth ?? 0, v.k === 'lambda' ? (v.depth ?? 0) + 1 : 0);
    if (depth > MAX_APPLY_DEPTH) throw staticError('too_deep', 'APPLY builds a lambda nested too deeply');
    s.push({ k: 'lambda', t: lambdaType(argT.args[1] as Ty, f.t.args[1] as Ty), code, rec: false, depth });
  },
  LAMBDA(it, ins, s) {
    s.push(makeLambda(it, ins, false));
  },
  LAMBDA_REC(it, ins, s) {
    s.push(makeLambda(it, ins, true));
  },
  CAST(it, ins, s) {
    assertTyEq(peek(s).t, it.tyArg(ins), 'CAST');
  },
  RENAME() {},
};

function makeLambda(it: Interpreter, ins: ExprPrim, rec: boolean): LambdaV {
  return it.cached(ins, () => {
    const t = lambdaType(it.tyArg(ins, 0), it.tyArg(ins, 1));
    const code = it.codeArg(ins, 2);
    it.checkLambda(code, t.args[0] as Ty, t.args[1] as Ty, rec);
    return { k: 'lambda' as const, t, code, rec };
  });
}

register(table);
