/**
 * The stack machine: walks michel-codec's expanded AST, dispatching each primitive to the handler tables of
 * `instructions/*`. The stack is a JS array whose last element is the top.
 */
import type { ChainContext, ExecEnv } from './context';
import type { DataContext } from './data';
import { parseData, unparse } from './data';
import { MichelsonError, inconsistentMemoSizes, staticError, syntacticConstantError } from './errors';
import { LIMITS } from './gas-params';
import { instructionCost } from './gas';
import { invalidCount, maxCount } from './syntactic-constants';
import type { Expr, ExprPrim, Ty } from './types';
import { entrypointPath, isPrim, toTy, tyEq } from './types';
import { findSelfInLambda, typecheckCode } from './typecheck-patches';
import { octezTrace } from './type-positions';
import type { BigMapV, SaplingStateV, V } from './values';

export interface StepEvent {
  location: number;
  prim: string;
  /** Stack after the instruction, top first, in Readable Micheline. Computed only when read. */
  readonly stack: Expr[];
  /** The stack after the instruction as typed values, bottom first (values are never mutated in place). */
  readonly values: readonly V[];
  /** Milligas left before the instruction was charged, and after it ran. */
  gasBefore: number;
  gasLeft: number;
}
export type StepListener = (e: StepEvent) => void;

/** A step event; its Micheline stack is computed only when read (a prototype getter: cheap to create). */
class Step implements StepEvent {
  constructor(
    readonly location: number,
    readonly prim: string,
    /** bottom first */
    readonly values: readonly V[],
    readonly gasBefore: number,
    readonly gasLeft: number,
  ) {}
  get stack(): Expr[] {
    return [...this.values].reverse().map((v) => unparse(v));
  }
}

export type Handler = (it: Interpreter, ins: ExprPrim, s: V[]) => void;

type Frame = { code: Expr[]; i: number } | { ins: ExprPrim; resume: (s: V[]) => void } | { run: Compiled };

export interface InterpreterOptions {
  env: ExecEnv;
  chain?: ChainContext;
  /** Milligas available; defaults to the hard limit per operation. */
  gasLimit?: number;
  onStep?: StepListener;
  /** Root expression used to number locations (the script, or the code of a TZT test). */
  root?: Expr;
  /** Accept instructions removed from the language (SUB on mutez), as Octez's legacy mode. */
  legacy?: boolean;
  /**
   * Run code blocks compiled to closures (compile.ts) when there is no step listener (default true); false
   * keeps every instruction on the stepping path, as with a listener (tests compare the two).
   */
  compiled?: boolean;
}

/** A code block turned into one JS function (compile.ts), run when no step listener is attached. */
export type Compiled = (it: Interpreter, s: V[]) => void;
/**
 * The block compiler, installed by compile.ts when the instruction tables are loaded
 * (instructions/register-all.ts), so that this module does not import it back.
 */
let compileBlock: ((code: Expr[]) => Compiled | null) | null = null;
export function setBlockCompiler(compile: (code: Expr[]) => Compiled | null): void {
  compileBlock = compile;
}
/** Whether the fast path is available (false only if compile.ts was never loaded). */
export function hasBlockCompiler(): boolean {
  return compileBlock !== null;
}

const handlers: Record<string, Handler> = {};
export function register(table: Record<string, Handler>): void {
  Object.assign(handlers, table);
}
export function handlerOf(prim: string): Handler | undefined {
  return Object.prototype.hasOwnProperty.call(handlers, prim) ? handlers[prim] : undefined;
}
let interpreters = 0;
/**
 * Lambda calls and views that compiled code runs as JS recursion, one inside another (see `nestedCalls`): each
 * level takes at most a few hundred JS frames (blocks nest up to compile.ts's 48), well within a thread's stack.
 */
export const MAX_NESTED_CALLS = 16;

export class Interpreter {
  /** Current execution environment (VIEW swaps it while running another contract's view). */
  env: ExecEnv;
  readonly legacy: boolean;
  /** True while running a view (SELF, operations are forbidden there). */
  inView = false;
  readonly chain: ChainContext;
  gasLeft: number;
  readonly gasLimit: number;
  readonly onStep: StepListener | undefined;
  private locations: WeakMap<object, number> | null = null;
  private readonly root: Expr | undefined;
  /** Counter for operation nonces and fresh addresses (CREATE_CONTRACT). */
  nonce = 0;
  /** CREATE_CONTRACTs run so far (the origination nonce's index when the chain gives no addresses). */
  originations = 0;
  /** Cache of parsed instruction arguments (types, constants) keyed by AST node. */
  private readonly argCache = new WeakMap<object, unknown>();
  /** Distinct per interpreter (compiled PUSH reuses its value within one interpreter, as `argCache` does). */
  readonly id = interpreters++;
  /** Whether code blocks run compiled (no step listener). */
  private readonly fast: boolean;

  constructor(opts: InterpreterOptions) {
    this.env = opts.env;
    this.chain = opts.chain ?? {};
    this.gasLimit = opts.gasLimit ?? LIMITS.hardGasLimitPerOperation;
    this.gasLeft = this.gasLimit;
    this.onStep = opts.onStep;
    this.root = opts.root;
    this.legacy = opts.legacy ?? false;
    this.fast = opts.onStep === undefined && opts.compiled !== false;
  }

  get consumedMilligas(): number {
    return this.gasLimit - this.gasLeft;
  }

  consume(milligas: number): void {
    this.gasLeft -= milligas;
    if (this.gasLeft < 0) {
      this.gasLeft = 0;
      throw new MichelsonError('gas_exhausted', 'gas exhausted');
    }
  }

  /** Octez location (pre-order node index in the root expression) of an AST node. */
  location(node: object): number {
    if (!this.locations) {
      this.locations = new WeakMap();
      let i = 0;
      const walk = (e: Expr): void => {
        if (typeof e === 'object') this.locations?.set(e, i);
        i++;
        if (Array.isArray(e)) e.forEach(walk);
        else if (isPrim(e)) (e.args ?? []).forEach(walk);
      };
      if (this.root !== undefined) walk(this.root);
    }
    return this.locations.get(node) ?? 0;
  }

  cached<T>(node: object, make: () => T): T {
    let v = this.argCache.get(node) as T | undefined;
    if (v === undefined) {
      v = make();
      this.argCache.set(node, v);
    }
    return v;
  }

  /** Type argument #i of an instruction, parsed once. */
  tyArg(ins: ExprPrim, i = 0): Ty {
    const a = ins.args?.[i];
    if (a === undefined) throw staticError('invalid_arity', `${ins.prim} expects a type argument`);
    return this.cached(a, () => toTy(a));
  }

  intArg(ins: ExprPrim, i = 0): number | null {
    const a = ins.args?.[i];
    if (a === undefined) return null;
    if (!Array.isArray(a) && 'int' in a) {
      const n = Number(a.int);
      if (Number.isInteger(n) && n >= 0 && n <= maxCount(ins.prim)) return n;
    }
    // Octez refuses it while typechecking: `invalid_syntactic_constant` at the argument.
    const refused = invalidCount(ins);
    if (refused)
      throw syntacticConstantError('invalid_syntactic_constant', refused, this.location(refused.node));
    throw staticError('invalid_arity', `${ins.prim} expects an integer argument`);
  }

  codeArg(ins: ExprPrim, i: number): Expr[] {
    const a = ins.args?.[i];
    if (!Array.isArray(a)) throw staticError('invalid_arity', `${ins.prim} expects a code block`);
    return a;
  }

  dataContext(): DataContext {
    return {
      bigMap: (id, t) => this.loadBigMap(id, t),
      saplingState: (id, t) => this.loadSaplingState(id, t),
      contractType: (address, ep) => this.contractParamType(address, ep),
      checkLambda: (code, arg, ret, rec) => this.checkLambda(code as Expr[], arg, ret, rec),
    };
  }

  /** Typechecks a lambda body (LAMBDA, PUSH, data literals): statically when michel-codec can, else later. */
  checkLambda(code: Expr[], arg: Ty, ret: Ty, rec: boolean): void {
    if (findSelfInLambda(code)) throw staticError('self_in_lambda', 'SELF is not allowed in a lambda');
    const stack = rec ? [arg, { prim: 'lambda', args: [arg, ret] }] : [arg];
    const r = typecheckCode(code, stack);
    if (r.kind === 'error' && r.trace)
      throw new MichelsonError('ill_typed', r.message, {
        detail: 'ill_typed_lambda',
        trace: [
          { id: 'michelson_v1.ill_typed_contract', location: this.location(code), message: r.message },
          ...octezTrace(r.trace, (n) => this.location(n)),
        ],
      });
    if (r.kind === 'error' && r.syntactic)
      throw syntacticConstantError('ill_typed_lambda', r.syntactic, this.location(r.syntactic.node));
    if (r.kind === 'error') throw staticError('ill_typed_lambda', r.message);
    if (
      r.kind === 'ok' &&
      r.output !== 'failed' &&
      (r.output.length !== 1 || !tyEq(r.output[0] as Ty, ret))
    ) {
      throw staticError('bad_return', 'lambda body does not return its declared type');
    }
  }

  /** Result type of a MAP body (needed when the collection is empty), from the static typechecker. */
  bodyResultType(ins: ExprPrim, body: Expr[], input: Ty, s: V[]): Ty {
    return this.cached(body, () => {
      const stack = [input, ...s.map((v) => v.t).reverse()];
      const r = typecheckCode(body, stack, { selfParameter: this.env.selfParameter });
      if (r.kind === 'ok' && r.output !== 'failed' && r.output[0]) return r.output[0];
      throw staticError('bad_stack', `cannot type the body of ${ins.prim}`);
    });
  }

  parseValue(e: Expr, t: Ty): V {
    return parseData(e, t, this.dataContext());
  }

  loadBigMap(id: bigint, t: Ty): BigMapV {
    const types = this.chain.bigMapTypes?.(id);
    if (!types) throw staticError('invalid_big_map', `unknown big map ${id}`);
    if (!tyEq(types.key, t.args[0] as Ty) || !tyEq(types.value, t.args[1] as Ty)) {
      throw staticError('inconsistent_types', `big map ${id} has other key/value types`);
    }
    return { k: 'big_map', t, id, diff: new Map() };
  }

  /** A stored Sapling state (Octez `Sapling.state_from_id`, then `memo_size_eq` with the expected type). */
  loadSaplingState(id: bigint, t: Ty): SaplingStateV {
    const memo = this.chain.saplingMemoSize?.(id) ?? null;
    if (memo === null) throw staticError('invalid_sapling_state', `unknown sapling state ${id}`);
    if (memo !== t.memo) throw inconsistentMemoSizes(t.memo ?? 0, memo);
    return { k: 'sapling_state', t, id };
  }

  /** Parameter type of `address%entrypoint` (implicit accounts take unit on default). */
  contractParamType(address: string, entrypoint: string): Ty | null {
    if (address.startsWith('tz')) return entrypoint === 'default' ? { prim: 'unit', args: [] } : null;
    const info = this.chain.contract?.(address);
    if (!info) return null;
    return entrypointPath(info.parameter, entrypoint)?.ty ?? null;
  }

  private localIndex: Map<string, bigint> | null = null;
  /** Index of an address in the chain's registry (a per-run registry when the chain has none). */
  addressIndex(address: string, create: boolean): bigint | null {
    if (this.chain.addressIndex) return this.chain.addressIndex(address, create);
    this.localIndex ??= new Map();
    let i = this.localIndex.get(address) ?? null;
    if (i === null && create) {
      i = BigInt(this.localIndex.size);
      this.localIndex.set(address, i);
    }
    return i;
  }

  /**
   * The control stack (Octez's continuations): code blocks still to run and pending work such as
   * "restore the stack DIP saved" or "check the lambda result". Keeping it on the heap instead of the
   * JS call stack lets recursion (LAMBDA_REC, nested EXEC) go as deep as gas allows.
   */
  private readonly ctl: Frame[] = [];

  /**
   * Lambdas and views that compiled code runs inside itself (compile.ts: EXEC, VIEW), one within another, as JS
   * recursion. Past `MAX_NESTED_CALLS` the blocks they schedule run on the stepping path, whose control stack is
   * on the heap, so that recursion goes on as deep as gas allows without growing the JS stack.
   */
  nestedCalls = 0;

  /** Schedules a code block to run next (before whatever was scheduled earlier). */
  schedule(code: Expr[]): void {
    const run =
      this.fast && compileBlock !== null && this.nestedCalls <= MAX_NESTED_CALLS ? compileBlock(code) : null;
    this.ctl.push(run ? { run } : { code, i: 0 });
  }

  /** The control stack's height (compiled EXEC and VIEW run what their handler scheduled above it: `drain`). */
  get depth(): number {
    return this.ctl.length;
  }

  /** Schedules work to run once everything scheduled after it has run; errors point at `ins`. */
  then(ins: ExprPrim, resume: (s: V[]) => void): void {
    this.ctl.push({ ins, resume });
  }

  /** Runs a code sequence on the stack (mutated in place) until it and all it scheduled are done. */
  exec(code: Expr[], s: V[]): void {
    const base = this.ctl.length;
    this.schedule(code);
    this.drain(base, s);
  }

  /** Runs what was scheduled above control-stack height `base` until it is all done. */
  drain(base: number, s: V[]): void {
    try {
      while (this.ctl.length > base) {
        const f = this.ctl[this.ctl.length - 1] as Frame;
        if ('code' in f) {
          const ins = f.code[f.i++];
          if (ins === undefined) this.ctl.pop();
          else if (Array.isArray(ins)) this.schedule(ins);
          else this.step(ins, s);
        } else if ('run' in f) {
          this.ctl.pop();
          const n = this.ctl.length;
          f.run(this, s);
          if (this.ctl.length !== n) throw new Error('internal error: compiled code scheduled work');
        } else {
          this.ctl.pop();
          try {
            f.resume(s);
          } catch (e) {
            if (e instanceof MichelsonError && e.data.location === undefined && e.kind !== 'gas_exhausted') {
              e.data.location = this.location(f.ins);
            }
            throw e;
          }
        }
      }
    } finally {
      this.ctl.length = base;
    }
  }

  private step(ins: Expr, s: V[]): void {
    if (!isPrim(ins))
      throw staticError(
        'invalid_instruction',
        `not an instruction: ${String(JSON.stringify(ins) ?? ins).slice(0, 60)}`,
      );
    const h = handlers[ins.prim];
    if (!h) throw staticError('invalid_primitive', `unknown instruction ${ins.prim}`);
    const gasBefore = this.gasLeft;
    try {
      this.consume(instructionCost(ins, s));
      h(this, ins, s);
    } catch (e) {
      if (e instanceof MichelsonError && e.kind === 'gas_exhausted') e.data.ranOutAt ??= this.location(ins);
      else if (e instanceof MichelsonError && e.data.location === undefined)
        e.data.location = this.location(ins);
      throw e;
    }
    if (this.onStep) this.onStep(new Step(this.location(ins), ins.prim, s.slice(), gasBefore, this.gasLeft));
  }
}

/** Pops the top of the stack; an empty stack is a typing error (Octez rejects such code statically). */
export function pop(s: V[]): V {
  const v = s.pop();
  if (v === undefined) throw staticError('bad_stack', 'stack underflow');
  return v;
}
export function peek(s: V[], depth = 0): V {
  const v = s[s.length - 1 - depth];
  if (v === undefined) throw staticError('bad_stack', 'stack underflow');
  return v;
}
