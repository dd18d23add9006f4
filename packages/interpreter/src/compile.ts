/**
 * The fast path of the stack machine: a code block turned once into JS closures (cached per block), run when
 * no step listener is attached. It gives the same results, gas, errors and error locations as the stepping
 * path (`Interpreter.exec` with its control stack), which the debugger and trace_code keep using:
 *
 * - A run of instructions whose cost does not depend on the stack (`fixedCost`) is charged with one
 *   subtraction when the gas left covers the whole run; otherwise each instruction is charged before it runs,
 *   as the stepping path does, so the instruction where gas runs out and the gas left are the same. When an
 *   instruction of a run fails, the gas charged ahead for the instructions after it is given back.
 * - Control instructions (IF*, LOOP, LOOP_LEFT, DIP, ITER, MAP) are JS branches and loops around their
 *   compiled bodies. EXEC runs the lambda's compiled body in place, on a stack of its own (`execLambda`), and
 *   VIEW (and EXEC's other cases) runs its handler, then at once what the handler scheduled (`nested`): JS
 *   recursion, bounded by `MAX_NESTED_CALLS` calls one inside another; past it the lambda or view runs on the
 *   stepping path (its control stack is on the heap), so recursion still goes as deep as gas allows. Errors
 *   from inside a lambda or view are sealed (the stepping path annotates them there, never at the EXEC).
 * - Every other instruction calls its handler in `instructions/*` (the one definition of its semantics);
 *   PUSH reuses its value, and the commonest stack instructions are inlined, falling back to the handler for
 *   any case that fails.
 *
 * Errors are annotated like `Interpreter.step` does: the innermost instruction sets `location` (or
 * `ranOutAt` when gas runs out). A LOOP that runs out of gas when going round again has none, as in the
 * stepping path (where that charge happens in a continuation); such errors are sealed against the enclosing
 * instructions' annotation.
 *
 * Over ~400 lines because it is one compiler: the run/cost grouping, the control-instruction branches and the
 * error sealing share the closure-building state of a block, and must change together to keep the stepping
 * path's gas and error locations.
 */
import type { GenBlock, GenNode, GenRuntime, GenSegment, InlineOp, Part } from './compile-js';
import { generate } from './compile-js';
import { parseData } from './data';
import { MichelsonError } from './errors';
import { addSubCost, fixedCost, instructionCost, intBytes } from './gas';
import type { Compiled, Handler, Interpreter } from './interpreter';
import { MAX_NESTED_CALLS, handlerOf, pop, setBlockCompiler } from './interpreter';
import type { Expr, ExprPrim, Ty } from './types';
import { maxCount } from './syntactic-constants';
import { NOT_DUPABLE, assertTyEq, hasForbidden, isPrim, listT, pairT, toTy, tyEq } from './types';
import { staticError } from './errors';
import type { V } from './values';
import { asKind, int, nat, none, pair, some, unit } from './values';

export type { Compiled };

/** Nesting depth compiled as JS recursion; deeper blocks run on the stepping path (which compiles theirs). */
const MAX_DEPTH = 48;

const cache = new WeakMap<Expr[], Compiled | null>();

/**
 * The compiled form of a code block, or null when it must run on the stepping path: one generated function
 * (compile-js.ts) over the closures when the block has a LOOP or LOOP_LEFT, else (or when generation is
 * refused) the closures alone. Generating costs about as much as the closures again plus V8's parse of a
 * source ~5× the script's JSON (0.1–0.2 s for a 97 KB mainnet script), once per script: worth it where
 * instructions can run as often as gas allows, not for code that runs once per call.
 */
export function compiledBlock(code: Expr[]): Compiled | null {
  let c = cache.get(code);
  if (c === undefined) {
    const b = compileSeq(code, 0);
    c = b && ((b.loops || generateAll ? generate(b, runtime) : null) ?? b.run);
    cache.set(code, c);
  }
  return c;
}
setBlockCompiler(compiledBlock);

let generateAll = false;
/** Tests: generate every block, with or without a loop (blocks compiled before keep their form). */
export function generateEveryBlock(on: boolean): void {
  generateAll = on;
}

/** Errors whose annotation is final (see the module comment). */
const sealed = new WeakSet<object>();

function annotate(e: unknown, it: Interpreter, ins: ExprPrim): void {
  if (!(e instanceof MichelsonError) || sealed.has(e)) return;
  if (e.kind === 'gas_exhausted') e.data.ranOutAt ??= it.location(ins);
  else if (e.data.location === undefined) e.data.location = it.location(ins);
}

/** The charge of a LOOP/LOOP_LEFT going round again (a continuation in the stepping path). */
function chargeAgain(it: Interpreter): void {
  if (it.gasLeft >= 10) {
    it.gasLeft -= 10;
    return;
  }
  try {
    it.consume(10);
  } catch (e) {
    sealed.add(e as object);
    throw e;
  }
}

/** The helpers of generated code (compile-js.ts). */
const runtime: GenRuntime = {
  test(it, s, ins, kind) {
    try {
      asKind(pop(s), kind);
    } catch (e) {
      annotate(e, it, ins);
      throw e;
    }
    throw new Error('internal error: a loop test did not fail');
  },
  charge(it, again, ins) {
    if (again) return chargeAgain(it);
    try {
      it.consume(10);
    } catch (e) {
      annotate(e, it, ins);
      throw e;
    }
  },
  dupable(v) {
    switch (v.k) {
      case 'num':
      case 'bool':
      case 'unit':
      case 'string':
      case 'bytes':
      case 'address':
      case 'lambda': // hides its argument and result types (`hasForbidden`)
        return true;
    }
    let d = dupableTypes.get(v.t);
    if (d === undefined) {
      d = !hasForbidden(v.t, NOT_DUPABLE);
      dupableTypes.set(v.t, d);
    }
    return d;
  },
  intBytes,
  nat,
  int,
  pair,
};
const dupableTypes = new WeakMap<Ty, boolean>();

interface Node extends GenNode {
  /** Milligas charged before it runs, or null when it depends on the stack. */
  cost: number | null;
  /** Runs it (without charging its cost); a control instruction runs its bodies too. */
  run: Compiled;
  /** Ends a run of fixed-cost instructions (its bodies charge their own gas). */
  control: boolean;
  /** Is or holds a LOOP or LOOP_LEFT. */
  loops: boolean;
}

/** A block compiled to closures (`run`), and its segments for the generator. */
interface Block extends GenBlock {
  run: Compiled;
  /** Whether it has a LOOP or LOOP_LEFT, at any depth. */
  loops: boolean;
}

function compileSeq(code: Expr[], depth: number): Block | null {
  if (depth > MAX_DEPTH) return null;
  const nodes: Node[] = [];
  const flatten = (seq: Expr[], d: number): boolean => {
    if (d > MAX_DEPTH) return false;
    for (const e of seq) {
      if (Array.isArray(e)) {
        if (!flatten(e, d + 1)) return false;
        continue;
      }
      const n = compileIns(e, d);
      if (!n) return false;
      nodes.push(n);
    }
    return true;
  };
  if (!flatten(code, depth)) return null;

  const parts: GenSegment[] = [];
  for (let i = 0; i < nodes.length;) {
    const first = nodes[i] as Node;
    if (first.cost === null) {
      parts.push({ kind: 'one', run: variableCost(first), ins: first.ins });
      i++;
      continue;
    }
    const run: Node[] = [];
    while (i < nodes.length) {
      const n = nodes[i] as Node;
      if (n.cost === null) break;
      run.push(n);
      i++;
      if (n.control) break;
    }
    parts.push(fixedRun(run));
  }
  const loops = nodes.some((n) => n.loops);
  return { segments: parts, run: sequence(parts.map((p) => p.run)), loops };
}

function sequence(segments: Compiled[]): Compiled {
  if (segments.length === 0) return () => {};
  if (segments.length === 1) return segments[0] as Compiled;
  if (segments.length === 2) {
    const [a, b] = segments as [Compiled, Compiled];
    return (it, s) => {
      a(it, s);
      b(it, s);
    };
  }
  const n = segments.length;
  return (it, s) => {
    for (let k = 0; k < n; k++) (segments[k] as Compiled)(it, s);
  };
}

function variableCost(node: Node): Compiled {
  const { ins, run } = node;
  if (ins.prim === 'ADD' || ins.prim === 'SUB') {
    const prim = ins.prim;
    return (it, s) => {
      try {
        it.consume(addSubCost(prim, s[s.length - 1], s[s.length - 2]));
        run(it, s);
      } catch (e) {
        annotate(e, it, ins);
        throw e;
      }
    };
  }
  return (it, s) => {
    try {
      it.consume(instructionCost(ins, s));
      run(it, s);
    } catch (e) {
      annotate(e, it, ins);
      throw e;
    }
  };
}

function fixedOne(node: Node): Compiled {
  const { ins, run } = node;
  const cost = node.cost as number;
  return (it, s) => {
    try {
      it.consume(cost);
      run(it, s);
    } catch (e) {
      annotate(e, it, ins);
      throw e;
    }
  };
}

/**
 * A run of fixed-cost instructions (the last may be a control instruction), charged at once: its closure,
 * and `part`, which runs some of its instructions once the whole run is charged.
 */
function fixedRun(nodes: Node[]): GenSegment & { kind: 'run' } {
  const n = nodes.length;
  const runs = nodes.map((x) => x.run);
  const costs = nodes.map((x) => x.cost as number);
  // after[k]: the cost of the instructions after k, charged ahead and given back if k fails.
  const after: number[] = new Array<number>(n).fill(0);
  for (let k = n - 2; k >= 0; k--) after[k] = (after[k + 1] as number) + (costs[k + 1] as number);
  const total = (after[0] as number) + (costs[0] as number);
  const part: Part = (it, s, from, to) => {
    let k = from;
    try {
      for (; k < to; k++) (runs[k] as Compiled)(it, s);
    } catch (e) {
      if (!(e instanceof MichelsonError && e.kind === 'gas_exhausted')) it.gasLeft += after[k] as number;
      annotate(e, it, (nodes[k] as Node).ins);
      throw e;
    }
  };
  const segment = (run: Compiled) => ({ kind: 'run' as const, nodes, total, run, part });
  if (n === 1) return segment(fixedOne(nodes[0] as Node));
  return segment((it, s) => {
    let k = 0;
    if (it.gasLeft >= total) {
      it.gasLeft -= total;
      part(it, s, 0, n);
      return;
    }
    try {
      for (; k < n; k++) {
        it.consume(costs[k] as number);
        (runs[k] as Compiled)(it, s);
      }
    } catch (e) {
      annotate(e, it, (nodes[k] as Node).ins);
      throw e;
    }
  });
}

function body(ins: ExprPrim, i: number, depth: number): Block | null {
  const a = ins.args?.[i];
  return Array.isArray(a) ? compileSeq(a, depth + 1) : null;
}

/** A count argument as `Interpreter.intArg` accepts it, or undefined when it must be left to the handler. */
function countArg(ins: ExprPrim): number | undefined {
  const a = ins.args?.[0];
  if (a === undefined || Array.isArray(a) || !('int' in a)) return undefined;
  const n = Number(a.int);
  return Number.isInteger(n) && n >= 0 && n <= maxCount(ins.prim) ? n : undefined;
}

function compileIns(e: Expr, depth: number): Node | null {
  if (!isPrim(e)) return null;
  const ins = e;
  const h = handlerOf(ins.prim);
  if (!h) return null;
  const cost = fixedCost(ins);
  const node = (run: Compiled, control = false, op?: InlineOp, loops = false): Node => ({
    ins,
    cost,
    run,
    control,
    op,
    loops,
  });
  switch (ins.prim) {
    case 'IF':
    case 'IF_NONE':
    case 'IF_LEFT':
    case 'IF_CONS': {
      const a = body(ins, 0, depth);
      const b = a && body(ins, 1, depth);
      if (!a || !b) return null;
      return node(
        branches(ins.prim, a.run, b.run),
        true,
        { k: 'if', prim: ins.prim, a, b },
        a.loops || b.loops,
      );
    }
    case 'LOOP':
    case 'LOOP_LEFT': {
      const b = body(ins, 0, depth);
      const left = ins.prim === 'LOOP_LEFT';
      return b && node(left ? loopLeft(b.run) : loop(b.run), true, { k: 'loop', left, body: b }, true);
    }
    case 'DIP': {
      const two = ins.args?.length === 2;
      const b = body(ins, two ? 1 : 0, depth);
      if (!b) return null;
      const n = two ? countArg(ins) : 1;
      // An invalid count: the handler throws the stepping path's error (before it schedules anything).
      if (n === undefined) return node((it, s) => h(it, ins, s), true);
      return node(dip(h, ins, n, b.run), true, { k: 'dip', n, body: b }, b.loops);
    }
    case 'ITER': {
      const b = body(ins, 0, depth);
      return b && node(iter(h, ins, b.run), true, undefined, b.loops);
    }
    case 'MAP': {
      const b = body(ins, 0, depth);
      return b && node(map(h, ins, b.run), true, undefined, b.loops);
    }
    // their bodies charge their own gas, so they end a run charged at once (as the other control instructions)
    case 'EXEC':
      return node(execLambda(h, ins), true);
    case 'VIEW':
      return node(nested(h, ins), true);
  }
  return node(simple(h, ins), false, inlineOp(ins));
}

/** Types whose constants do not depend on the chain or the interpreter (PUSH of them is written in line). */
const CONSTANT_TYPES = new Set(['bool', 'unit', 'int', 'nat', 'mutez', 'string', 'bytes']);

/** The in-line form of a stack instruction or of PUSH of a constant, when it has one. */
function inlineOp(ins: ExprPrim): InlineOp | undefined {
  const nargs = ins.args?.length ?? 0;
  const count = nargs === 0 ? 1 : nargs === 1 ? countArg(ins) : undefined;
  switch (ins.prim) {
    case 'UNIT':
      return nargs === 0 ? { k: 'push', value: unit } : undefined;
    case 'SWAP':
      return nargs === 0 ? { k: 'swap' } : undefined;
    case 'DROP':
      return count === undefined ? undefined : { k: 'drop', n: count };
    case 'DUP':
      return count === undefined || count === 0 ? undefined : { k: 'dup', n: count };
    case 'DIG':
    case 'DUG':
      return nargs === 1 && count !== undefined
        ? { k: ins.prim === 'DIG' ? 'dig' : 'dug', n: count }
        : undefined;
    case 'PUSH': {
      const value = pushConstant(ins);
      return value && { k: 'push', value };
    }
    case 'CAR':
    case 'CDR':
      return nargs === 0 ? { k: ins.prim === 'CAR' ? 'car' : 'cdr' } : undefined;
    case 'PAIR':
    case 'UNPAIR':
      return nargs === 0 ? { k: ins.prim === 'PAIR' ? 'pair' : 'unpair' } : undefined;
  }
  const op = COMPARISONS.get(ins.prim);
  return op && nargs === 0 ? { k: 'cmp', op } : undefined;
}

/** EQ…GE as the JS comparison of the int with 0 (a Map: a primitive's name is never an object key). */
const COMPARISONS = new Map<string, '===' | '!==' | '<' | '>' | '<=' | '>='>([
  ['EQ', '==='],
  ['NEQ', '!=='],
  ['LT', '<'],
  ['GT', '>'],
  ['LE', '<='],
  ['GE', '>='],
]);

/**
 * The value of PUSH of a constant that needs no context (the handler parses the same value once per
 * interpreter; values are never mutated), or undefined: the handler parses it (and throws its errors).
 */
function pushConstant(ins: ExprPrim): V | undefined {
  const [t, d] = ins.args ?? [];
  if (ins.args?.length !== 2 || t === undefined || d === undefined) return undefined;
  if (!isPrim(t) || !CONSTANT_TYPES.has(t.prim) || t.args?.length) return undefined;
  // Long numerals are left to the handler (parsed when they run, not when the block is compiled).
  if (!Array.isArray(d) && 'int' in d && d.int.length > 40) return undefined;
  try {
    return parseData(d, toTy(t));
  } catch {
    return undefined;
  }
}

function branches(prim: string, a: Compiled, b: Compiled): Compiled {
  switch (prim) {
    case 'IF':
      return (it, s) => (asKind(pop(s), 'bool').v ? a : b)(it, s);
    case 'IF_NONE':
      return (it, s) => {
        const o = asKind(pop(s), 'option');
        if (o.v === null) a(it, s);
        else {
          s.push(o.v);
          b(it, s);
        }
      };
    case 'IF_LEFT':
      return (it, s) => {
        const o = asKind(pop(s), 'or');
        s.push(o.v);
        (o.left ? a : b)(it, s);
      };
    default: // IF_CONS
      return (it, s) => {
        const l = asKind(pop(s), 'list');
        if (l.v.length === 0) b(it, s);
        else {
          s.push({ k: 'list', t: l.t, v: l.v.slice(1) }, l.v[0] as V);
          a(it, s);
        }
      };
  }
}

function loop(b: Compiled): Compiled {
  return (it, s) => {
    if (!asKind(pop(s), 'bool').v) return;
    it.consume(10);
    for (;;) {
      b(it, s);
      if (!asKind(pop(s), 'bool').v) return;
      chargeAgain(it);
    }
  };
}

function loopLeft(b: Compiled): Compiled {
  return (it, s) => {
    let o = asKind(pop(s), 'or');
    s.push(o.v);
    if (!o.left) return;
    it.consume(10);
    for (;;) {
      b(it, s);
      o = asKind(pop(s), 'or');
      s.push(o.v);
      if (!o.left) return;
      chargeAgain(it);
    }
  };
}

function dip(h: Handler, ins: ExprPrim, n: number, b: Compiled): Compiled {
  if (n === 1)
    return (it, s) => {
      if (s.length < 1) return h(it, ins, s); // stack too short: the handler's error
      const v = s.pop() as V;
      b(it, s);
      s.push(v);
    };
  return (it, s) => {
    if (s.length < n) return h(it, ins, s);
    const saved = s.splice(s.length - n, n);
    b(it, s);
    for (const v of saved) s.push(v);
  };
}

function iter(h: Handler, ins: ExprPrim, b: Compiled): Compiled {
  return (it, s) => {
    const c = pop(s);
    let items: V[];
    if (c.k === 'list' || c.k === 'set') items = c.v;
    else if (c.k === 'map') items = c.v.map(([k, v]) => pair(k, v));
    else {
      s.push(c);
      return h(it, ins, s); // not a collection: the handler's error
    }
    for (let i = 0; i < items.length; i++) {
      s.push(items[i] as V);
      b(it, s);
    }
  };
}

function map(h: Handler, ins: ExprPrim, b: Compiled): Compiled {
  const code = ins.args?.[0] as Expr[];
  return (it, s) => {
    const c = pop(s);
    let inputs: V[];
    let inputTy: Ty;
    if (c.k === 'list') [inputs, inputTy] = [c.v, c.t.args[0] as Ty];
    else if (c.k === 'map') {
      inputs = c.v.map(([k, v]) => pair(k, v));
      inputTy = pairT(c.t.args[0] as Ty, c.t.args[1] as Ty);
    } else if (c.k === 'option') [inputs, inputTy] = [c.v === null ? [] : [c.v], c.t.args[0] as Ty];
    else {
      s.push(c);
      return h(it, ins, s); // not mappable: the handler's error
    }
    const emptyTy = inputs.length === 0 ? it.bodyResultType(ins, code, inputTy, s) : null;
    const out: V[] = [];
    for (let i = 0; i < inputs.length; i++) {
      s.push(inputs[i] as V);
      b(it, s);
      out.push(pop(s));
    }
    const rt = out[0]?.t ?? (emptyTy as Ty);
    if (c.k === 'list') s.push({ k: 'list', t: listT(rt), v: out });
    else if (c.k === 'map') {
      const entries = c.v.map(([k], j) => [k, out[j] as V] as [V, V]);
      s.push({ k: 'map', t: { prim: 'map', args: [c.t.args[0] as Ty, rt] }, v: entries });
    } else s.push(out[0] ? some(out[0]) : none(rt));
  };
}

/** Marks an error thrown inside a lambda or a view as annotated already (see the module comment). */
function seal(e: unknown): void {
  if (typeof e === 'object' && e !== null) sealed.add(e);
}

/**
 * An instruction whose handler schedules work on the control stack (VIEW; EXEC of a lambda that `execLambda`
 * leaves to it) and the stepping path's continuation after it: the handler, then at once everything it
 * scheduled (its blocks compiled while calls are nested at most `MAX_NESTED_CALLS` deep, else stepping).
 */
function nested(h: Handler, ins: ExprPrim): Compiled {
  return (it, s) => {
    const base = it.depth;
    it.nestedCalls++;
    try {
      h(it, ins, s); // its own errors are the instruction's (annotated by the caller, as `step` does)
      try {
        it.drain(base, s);
      } catch (e) {
        seal(e);
        throw e;
      }
    } finally {
      it.nestedCalls--;
    }
  };
}

/**
 * EXEC: the lambda's compiled body run in place on a stack of its own (the argument, below it the lambda when
 * recursive), as `callLambda` and its continuation do on the stepping path; any other case (not a lambda, a
 * mistyped argument, a body that cannot be compiled, calls nested too deep) is `nested`'s: the handler's.
 */
function execLambda(h: Handler, ins: ExprPrim): Compiled {
  const general = nested(h, ins);
  // the last lambda body run here and its compiled form (a loop calls the same lambda again and again)
  let lastCode: Expr[] | undefined;
  let lastFn: Compiled | null = null;
  return (it, s) => {
    const n = s.length;
    const f = s[n - 2];
    const arg = s[n - 1];
    if (
      f === undefined ||
      arg === undefined ||
      f.k !== 'lambda' ||
      it.nestedCalls >= MAX_NESTED_CALLS ||
      !Array.isArray(f.code)
    )
      return general(it, s);
    const code = f.code;
    if (code !== lastCode) {
      lastFn = compiledBlock(code);
      lastCode = code;
    }
    const fn = lastFn;
    if (fn === null || !tyEq(arg.t, f.t.args[0] as Ty)) return general(it, s);
    s.pop();
    s.pop();
    const inner: V[] = f.rec ? [f, arg] : [arg];
    it.nestedCalls++;
    try {
      fn(it, inner);
    } catch (e) {
      seal(e);
      throw e;
    } finally {
      it.nestedCalls--;
    }
    if (inner.length !== 1) throw staticError('bad_return', `lambda body left ${inner.length} elements`);
    const r = inner[0] as V;
    assertTyEq(r.t, f.t.args[1] as Ty, 'lambda result');
    s.push(r);
  };
}

function simple(h: Handler, ins: ExprPrim): Compiled {
  if (ins.args === undefined || ins.args.length === 0) {
    switch (ins.prim) {
      case 'UNIT':
        return (_it, s) => {
          s.push(unit);
        };
      case 'DROP':
        return (it, s) => {
          if (s.length === 0) h(it, ins, s);
          else s.pop();
        };
      case 'SWAP':
        return (it, s) => {
          const n = s.length;
          if (n < 2) return h(it, ins, s);
          const a = s[n - 1] as V;
          s[n - 1] = s[n - 2] as V;
          s[n - 2] = a;
        };
    }
  }
  if (ins.prim === 'ADD' && !ins.args?.length)
    // nat + nat and int/nat + int/nat inline; every other case (and every failure) is the handler's.
    return (it, s) => {
      const n = s.length;
      const a = s[n - 1];
      const b = s[n - 2];
      if (a?.k === 'num' && b?.k === 'num') {
        const pa = a.t.prim;
        const pb = b.t.prim;
        if (pa === 'nat' && pb === 'nat') {
          s.pop();
          s.pop();
          s.push(nat(a.v + b.v));
          return;
        }
        if ((pa === 'int' || pa === 'nat') && (pb === 'int' || pb === 'nat')) {
          s.pop();
          s.pop();
          s.push(int(a.v + b.v));
          return;
        }
      }
      h(it, ins, s);
    };
  if (ins.prim === 'PUSH') {
    // Its value is parsed once per interpreter (as the handler's cache does), then reused.
    let owner = -1;
    let value: V | undefined;
    return (it, s) => {
      if (it.id === owner) {
        s.push(value as V);
        return;
      }
      h(it, ins, s);
      value = s[s.length - 1];
      owner = it.id;
    };
  }
  return (it, s) => h(it, ins, s);
}
