/**
 * The fast path's second stage: a block compiled to closures (compile.ts) turned into one generated JS
 * function, so that the commonest instructions cost no call at all. A run of fixed-cost instructions is one
 * gas check and one subtraction, then its instructions written out in line: PUSH of a constant (from a
 * constant table), UNIT, DROP, DUP, SWAP, DIG, DUG, and IF, IF_NONE, IF_LEFT, IF_CONS, LOOP, LOOP_LEFT and
 * DIP with their bodies generated in place (a LOOP's charge for going round again is fused with the first run
 * of its body). Everything else calls the closures of compile.ts, which are also the slow path: when the gas
 * left does not cover a run, the run's closure charges it instruction by instruction; when an instruction
 * written out in line would fail (stack too short, a value of another kind, a non-dupable value), the rest of
 * the run goes through the closures (`part`), which throw the stepping path's error with its location and give
 * back the gas charged ahead. So results, gas, errors and locations are the closures' (and the stepping
 * path's).
 *
 * Only numbers, generated names and this module's own literals are written into the source: constants and
 * closures are passed in an array and named by their index (a script's strings never reach the source).
 */
import type { Compiled, Interpreter } from './interpreter';
import type { ExprPrim } from './types';
import type { V } from './values';
import { bool } from './values';
import { BASE_COST } from './gas-params';

/** The gas figures the generated code writes in line: gas-params.ts's, as the stepping path charges them. */
const LOOP_COST = BASE_COST.LOOP!;
const ADD_COST = BASE_COST.ADD!;

/** An instruction's form written out in line. */
export type InlineOp =
  | { k: 'push'; value: V }
  | { k: 'drop'; n: number }
  | { k: 'dup'; n: number }
  | { k: 'swap' }
  | { k: 'dig'; n: number }
  | { k: 'dug'; n: number }
  | { k: 'car' | 'cdr' | 'unpair' | 'pair' }
  /** EQ, NEQ, LT, GT, LE, GE: the JS comparison of the int with 0. */
  | { k: 'cmp'; op: '===' | '!==' | '<' | '>' | '<=' | '>=' }
  | { k: 'if'; prim: string; a: GenBlock; b: GenBlock }
  | { k: 'loop'; left: boolean; body: GenBlock }
  | { k: 'dip'; n: number; body: GenBlock };

export interface GenNode {
  ins: ExprPrim;
  /** Written out in line when set; otherwise the node runs through its closure (`part`). */
  op?: InlineOp;
}

/** Runs nodes [from, to) of a run already charged, as the run's closure does (errors annotated, gas given back). */
export type Part = (it: Interpreter, s: V[], from: number, to: number) => void;

export type GenSegment =
  | { kind: 'run'; nodes: GenNode[]; total: number; run: Compiled; part: Part }
  | { kind: 'one'; run: Compiled; ins: ExprPrim };

export interface GenBlock {
  segments: GenSegment[];
}

export interface GenRuntime {
  /** The error of a LOOP/LOOP_LEFT whose test finds no `kind` on top, located at the loop. */
  test(it: Interpreter, s: V[], ins: ExprPrim, kind: 'bool' | 'or'): void;
  /** A LOOP's charge (BASE_COST.LOOP) when it is not covered: the first one (again = 0) or going round again. */
  charge(it: Interpreter, again: number, ins: ExprPrim): void;
  /** Whether DUP may copy the value. */
  dupable(v: V): boolean;
  /** Bytes of a number's absolute value (Octez's size for ADD's cost). */
  intBytes(v: bigint): number;
  nat(v: bigint): V;
  int(v: bigint): V;
  pair(a: V, b: V): V;
}

/** Generated sources longer than this stay closures (a bound on the work of compiling a hostile script). */
const MAX_SOURCE = 2_000_000;

class TooLong extends Error {}

/** The value of a bool constant on top of the pending ones, which it leaves (or undefined: left as is). */
function constantBool(pending: V[]): boolean | undefined {
  const top = pending[pending.length - 1];
  if (top?.k !== 'bool') return undefined;
  pending.pop();
  return top.v;
}

export function generate(block: GenBlock, rt: GenRuntime): Compiled | null {
  const consts: unknown[] = [];
  const index = new Map<unknown, number>();
  const ref = (x: unknown): string => {
    let i = index.get(x);
    if (i === undefined) {
      i = consts.length;
      consts.push(x);
      index.set(x, i);
    }
    return `k${i}`;
  };
  let ids = 0;
  let size = 0;
  const out: string[] = [];
  const emit = (code: string): void => {
    size += code.length;
    if (size > MAX_SOURCE) throw new TooLong();
    out.push(code);
  };

  /**
   * A run of fixed-cost instructions; `fuse` adds a LOOP's charge to its gas check. Constants pushed
   * are kept `pending` (not written to the stack) while the next instructions only drop, copy, move or test
   * them; with `keep`, those still pending at the end are returned to the caller (a LOOP's test) instead.
   */
  const emitRun = (
    seg: Extract<GenSegment, { kind: 'run' }>,
    fuse?: { flag: string; loop: string },
    keep = false,
  ): V[] => {
    const L = `L${ids++}`;
    const n = seg.nodes.length;
    const total = seg.total + (fuse ? LOOP_COST : 0);
    const run = ref(seg.run);
    const part = ref(seg.part);
    const slowCharge = fuse ? `C(it, ${fuse.flag}, ${fuse.loop}); ${fuse.flag} = 1; ` : '';
    // The slow path: the gas left does not cover the run, so its closure charges instruction by instruction
    // and runs out of gas (or fails) within the run; it never goes on to what follows (constants pending).
    emit(
      `${L}: { if (it.gasLeft < ${total}) { ${slowCharge}${run}(it, s); throw new Error('internal error: a run not covered by the gas left completed'); } it.gasLeft -= ${total};`,
    );
    if (fuse) emit(` ${fuse.flag} = 1;`);
    const pending: V[] = [];
    const flush = (): void => {
      if (pending.length) emit(` s.push(${pending.map(ref).join(', ')});`);
      pending.length = 0;
    };
    const bail = (k: number): string => `{ ${part}(it, s, ${k}, ${n}); break ${L}; }`;
    seg.nodes.forEach((node, k) => {
      const op = node.op;
      const p = pending.length;
      switch (op?.k) {
        case 'push':
          pending.push(op.value);
          return;
        case 'drop':
          if (op.n <= p) pending.length -= op.n;
          else {
            flush();
            if (op.n === 1) emit(` if (s.length < 1) ${bail(k)} s.pop();`);
            else if (op.n > 0) emit(` if (s.length < ${op.n}) ${bail(k)} s.length -= ${op.n};`);
          }
          return;
        case 'dup':
          // Pending constants are of types that can be copied.
          if (op.n <= p) pending.push(pending[p - op.n] as V);
          else {
            flush();
            emit(` v = s[s.length - ${op.n}]; if (v === undefined || !D(v)) ${bail(k)} s.push(v);`);
          }
          return;
        case 'swap':
          if (p >= 2) pending.push(...pending.splice(p - 2, 1));
          else {
            flush();
            emit(
              ` if (s.length < 2) ${bail(k)} v = s[s.length - 1]; s[s.length - 1] = s[s.length - 2]; s[s.length - 2] = v;`,
            );
          }
          return;
        case 'dig':
          if (op.n < p) pending.push(...pending.splice(p - 1 - op.n, 1));
          else {
            flush();
            emit(` if (s.length < ${op.n + 1}) ${bail(k)}`);
            if (op.n > 0)
              emit(
                ` { const j = s.length - 1; v = s[j - ${op.n}]; for (let i = j - ${op.n}; i < j; i++) s[i] = s[i + 1]; s[j] = v; }`,
              );
          }
          return;
        case 'dug':
          if (op.n < p) pending.splice(p - 1 - op.n, 0, pending.pop() as V);
          else {
            flush();
            emit(` if (s.length < ${op.n + 1}) ${bail(k)}`);
            if (op.n > 0)
              emit(
                ` { const j = s.length - 1; v = s[j]; for (let i = j; i > j - ${op.n}; i--) s[i] = s[i - 1]; s[j - ${op.n}] = v; }`,
              );
          }
          return;
        case 'car':
        case 'cdr':
          flush();
          emit(
            ` v = s[s.length - 1]; if (v === undefined || v.k !== 'pair') ${bail(k)} s[s.length - 1] = v.${op.k === 'car' ? 'a' : 'b'};`,
          );
          return;
        case 'unpair':
          flush();
          emit(
            ` v = s[s.length - 1]; if (v === undefined || v.k !== 'pair') ${bail(k)} s[s.length - 1] = v.b; s.push(v.a);`,
          );
          return;
        case 'pair':
          flush();
          emit(` if (s.length < 2) ${bail(k)} v = s.pop(); s[s.length - 1] = P(v, s[s.length - 1]);`);
          return;
        case 'cmp':
          flush();
          emit(
            ` v = s[s.length - 1]; if (v === undefined || v.k !== 'num' || v.t.prim !== 'int') ${bail(k)} s[s.length - 1] = v.v ${op.op} 0n ? ${ref(bool(true))} : ${ref(bool(false))};`,
          );
          return;
        case 'if': {
          const known = op.prim === 'IF' ? constantBool(pending) : undefined;
          flush();
          if (known !== undefined) {
            emitBlock(known ? op.a : op.b);
            return;
          }
          const kind = { IF: 'bool', IF_NONE: 'option', IF_LEFT: 'or', IF_CONS: 'list' }[op.prim] ?? 'bool';
          emit(` v = s[s.length - 1]; if (v === undefined || v.k !== '${kind}') ${bail(k)}`);
          if (op.prim === 'IF') emit(' s.pop(); if (v.v) {');
          else if (op.prim === 'IF_NONE') emit(' s.pop(); if (v.v === null) {');
          else if (op.prim === 'IF_LEFT') emit(' s[s.length - 1] = v.v; if (v.left) {');
          // IF_CONS: the non-empty branch first, as the others' first branch.
          else
            emit(" s.pop(); if (v.v.length !== 0) { s.push({ k: 'list', t: v.t, v: v.v.slice(1) }, v.v[0]);");
          emitBlock(op.a);
          emit(op.prim === 'IF_NONE' ? ' } else { s.push(v.v);' : ' } else {');
          emitBlock(op.b);
          emit(' }');
          return;
        }
        case 'loop': {
          const kind = op.left ? 'or' : 'bool';
          const known = op.left ? undefined : constantBool(pending);
          flush();
          if (known === false) return;
          if (known === undefined) {
            emit(` v = s[s.length - 1]; if (v === undefined || v.k !== '${kind}') ${bail(k)}`);
            emit(op.left ? ' s[s.length - 1] = v.v; if (v.left) {' : ' s.pop(); if (v.v) {');
          } else emit(' {');
          const id = ids++;
          const flag = `a${id}`;
          const loop = ref(node.ins);
          emit(` let ${flag} = 0; W${id}: for (;;) {`);
          const segs = op.body.segments;
          let left: V[] = [];
          segs.forEach((b, i) => {
            const last = i === segs.length - 1;
            if (i === 0 && b.kind === 'run') left = emitRun(b, { flag, loop }, last && !op.left);
            else {
              if (i === 0)
                emit(
                  ` if (it.gasLeft >= ${LOOP_COST}) it.gasLeft -= ${LOOP_COST}; else C(it, ${flag}, ${loop}); ${flag} = 1;`,
                );
              if (b.kind === 'run') left = emitRun(b, undefined, last && !op.left);
              else emitSegment(b);
            }
          });
          if (segs.length === 0)
            emit(
              ` if (it.gasLeft >= ${LOOP_COST}) it.gasLeft -= ${LOOP_COST}; else C(it, ${flag}, ${loop}); ${flag} = 1;`,
            );
          const again = op.left ? undefined : constantBool(left);
          if (left.length) emit(` s.push(${left.map(ref).join(', ')});`);
          if (again === false) emit(` break W${id};`);
          else if (again === undefined) {
            emit(
              ` v = s[s.length - 1]; if (v === undefined || v.k !== '${kind}') E(it, s, ${loop}, '${kind}');`,
            );
            emit(
              op.left
                ? ` s[s.length - 1] = v.v; if (!v.left) break W${id};`
                : ` s.pop(); if (!v.v) break W${id};`,
            );
          }
          emit(' } }');
          return;
        }
        case 'dip': {
          flush();
          const d = `d${ids++}`;
          emit(` if (s.length < ${op.n}) ${bail(k)}`);
          if (op.n === 1) {
            emit(` { const ${d} = s.pop();`);
            emitBlock(op.body);
            emit(` s.push(${d}); }`);
          } else {
            emit(` { const ${d} = s.splice(s.length - ${op.n}, ${op.n});`);
            emitBlock(op.body);
            emit(` for (let i = 0; i < ${op.n}; i++) s.push(${d}[i]); }`);
          }
          return;
        }
        default:
          flush();
          emit(` ${part}(it, s, ${k}, ${k + 1});`);
      }
    });
    if (!keep) flush();
    emit(' }');
    return pending;
  };
  const emitSegment = (seg: GenSegment): void => {
    if (seg.kind === 'run') void emitRun(seg);
    else if (seg.ins.prim === 'ADD' && !seg.ins.args?.length) {
      // ADD of two int/nat in line (cost BASE_COST.ADD + half the larger size, gas.ts `addSubCost`); any other case, and
      // gas running out, through its closure.
      const run = ref(seg.run);
      emit(
        ` v = s[s.length - 1]; w = s[s.length - 2];` +
          ` if (v !== undefined && w !== undefined && v.k === 'num' && w.k === 'num' && (v.t.prim === 'nat' || v.t.prim === 'int') && (w.t.prim === 'nat' || w.t.prim === 'int')) {` +
          ` c = ${ADD_COST} + (Math.max(B(v.v), B(w.v)) >> 1);` +
          ` if (it.gasLeft < c) ${run}(it, s); else { it.gasLeft -= c; s.pop();` +
          ` s[s.length - 1] = v.t.prim === 'nat' && w.t.prim === 'nat' ? N(v.v + w.v) : I(v.v + w.v); } }` +
          ` else ${run}(it, s);`,
      );
    } else emit(` ${ref(seg.run)}(it, s);`);
  };
  const emitBlock = (b: GenBlock): void => b.segments.forEach(emitSegment);

  try {
    emitBlock(block);
  } catch (e) {
    if (e instanceof TooLong) return null;
    throw e;
  }
  const names = consts.map((_, i) => `k${i} = K[${i}]`);
  const src =
    `"use strict"; const E = rt.test, C = rt.charge, D = rt.dupable, B = rt.intBytes, N = rt.nat, I = rt.int, P = rt.pair;` +
    (names.length ? ` const ${names.join(', ')};` : '') +
    ` return function generated(it, s) { let v, w, c;${out.join('')} };`;
  let factory: (k: unknown[], r: GenRuntime) => Compiled;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from numbers and indexes only
    factory = new Function('K', 'rt', src) as typeof factory;
  } catch (e) {
    if (e instanceof EvalError) return null; // code generation from strings disallowed: the closures run
    throw e;
  }
  return factory(consts, rt);
}
