/**
 * Static typechecking through michel-codec's `functionType`, patched for its documented bugs
 * (reference §1.8). When michel-codec rejects code for one of its known false reasons, the verdict is
 * "unknown" and the interpreter's own dynamic checks (every value carries its type) decide instead.
 * Its false acceptances (COMPARE of different types, PUSH of tickets, unsorted maps...) are caught by
 * `parseData` and the instruction handlers.
 */
import { functionType } from '@taquito/michel-codec';
import type { Context, InstructionList, MichelsonType } from '@taquito/michel-codec';
import type { SyntacticConstant } from './syntactic-constants';
import { contains, firstInvalidCount, invalidCount } from './syntactic-constants';
import type { TraceItem, TypeIssue } from './type-positions';
import { stackIssue, typeArgIssue } from './type-positions';
import type { Expr, ExprPrim, Ty } from './types';
import { isPrim, toTy, tyToExpr } from './types';

export type StaticVerdict =
  | { kind: 'ok'; output: Ty[] | 'failed' }
  /** `syntactic`: Octez's `invalid_syntactic_constant` (a refused count argument) is the error. */
  | {
      kind: 'error';
      message: string;
      syntactic?: SyntacticConstant;
      memoSizes?: [number, number];
      /** Octez's precise errors (after the toplevel one), for the refusals of `type-positions.ts`. */
      trace?: TraceItem[];
    }
  | { kind: 'unknown'; message: string };

/** michel-codec messages that are wrong for the current protocol (they come from its bugs, §1.8). */
const KNOWN_FALSE_REJECTIONS: RegExp[] = [
  /\b(LSL|LSR|NOT|AND|OR|XOR)\b.*\bbytes\b/,
  /\bbytes\b.*\b(LSL|LSR|NOT)\b/,
  /function's argument must be a pair/, // APPLY on n-ary combs
  /tz4|sr1|BLsig|BLpk/,
  /timestamp expected/, // huge or negative timestamps written as strings
  /Lambda_rec/,
  /field names? doesn't match|field annotation/i, // UNPAIR %a %b on differently annotated pairs
  /contract.*(literal|representation)/i,
  /big_map.*int|unexpected.*int.*big_map/i,
  /OPEN_CHEST|chest/,
  /unexpected instruction: (constant|TICKET_DEPRECATED)/,
  /contract required/, // SELF without a contract context: checked at run time
  /invalid address|invalid public key hash|unexpected.*address/i,
  /Ticket|ticket literal/,
  /sapling_transaction_deprecated/, // legacy SAPLING_VERIFY_UPDATE (michel-codec knows only the current form)
  /can't be used inside PACK/, // michel-codec refuses some packable types (e.g. contract inside lambda)
];

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** Does a code block contain instructions whose typing michel-codec gets wrong and we cannot patch? */
function containsBuggyPrim(code: Expr): boolean {
  if (Array.isArray(code)) return code.some(containsBuggyPrim);
  if (!isPrim(code)) return false;
  if (code.prim === 'APPLY' || code.prim === 'OPEN_CHEST') return true;
  return (code.args ?? []).some(containsBuggyPrim);
}

/** Does a code block always end by failing (FAILWITH, NEVER, or a nested block that does)? */
function alwaysFails(code: Expr): boolean {
  if (Array.isArray(code)) {
    const last = code[code.length - 1];
    return last !== undefined && alwaysFails(last);
  }
  return isPrim(code) && (code.prim === 'FAILWITH' || code.prim === 'NEVER');
}

/** Octez rejects `DIP { …; FAILWITH }` (michel-codec accepts it). */
export function findFailingDip(code: Expr): boolean {
  if (Array.isArray(code)) return code.some(findFailingDip);
  if (!isPrim(code)) return false;
  if (code.prim === 'DIP') {
    const body = code.args?.[code.args.length - 1];
    if (body !== undefined && alwaysFails(body)) return true;
  }
  return (code.args ?? []).some(findFailingDip);
}

/** SELF is forbidden inside lambdas (except inside a CREATE_CONTRACT script). */
export function findSelfInLambda(code: Expr): boolean {
  if (Array.isArray(code)) return code.some(findSelfInLambda);
  if (!isPrim(code)) return false;
  if (code.prim === 'SELF') return true;
  if (code.prim === 'CREATE_CONTRACT') return false;
  return (code.args ?? []).some(findSelfInLambda);
}

export interface StaticContext {
  /** Parameter type of the running contract (for SELF). */
  selfParameter?: Expr;
  /** Octez legacy mode: SUB on mutez is accepted (checked at run time). */
  legacy?: boolean;
}

/** Typechecks `code` on a stack of types (top first). */
/** Stand-ins with the right type for instructions michel-codec types wrongly (used only to typecheck). */
const STAND_IN = {
  shiftBytes: [{ prim: 'DIP', args: [[{ prim: 'DROP' }]] }] as Expr, // bytes : nat : S -> bytes : S
  identity: [] as Expr, // NOT bytes, GET 0
  replaceWhole: [{ prim: 'SWAP' }, { prim: 'DROP' }] as Expr, // UPDATE 0: x : v : S -> x : S
};

/** Copies `e` with the substitutions; `origin` maps each copied node to the one it copies. */
function rebuild(e: Expr, subst: Map<object, Expr>, origin: WeakMap<object, object>): Expr {
  if (typeof e === 'object' && subst.has(e)) return subst.get(e) as Expr;
  let copy: Expr = e;
  if (Array.isArray(e)) copy = e.map((x) => rebuild(x, subst, origin));
  else if (isPrim(e) && e.args) copy = { ...e, args: e.args.map((x) => rebuild(x, subst, origin)) };
  if (copy !== e) origin.set(copy, origin.get(e) ?? e);
  return copy;
}

function isBytes(t: unknown): boolean {
  return typeof t === 'object' && t !== null && (t as { prim?: string }).prim === 'bytes';
}

function runCodec(
  code: Expr[],
  stack: Ty[],
  contract: unknown,
  trace?: (t: { op: unknown; in: unknown[] }) => void,
): unknown {
  const ctx: Context = {};
  if (contract) ctx.contract = contract as Context['contract'];
  if (trace) ctx.traceCallback = trace;
  // michel-codec's AST types describe code its validator has accepted; here its typechecker is the
  // validator (its refusals are the verdict), so the Micheline goes in as it is.
  return functionType(code as InstructionList, stack.map(tyToExpr) as MichelsonType[], ctx);
}

/**
 * Typechecks `code` on a stack of types (top first). Instructions michel-codec types wrongly (bytes
 * LSL/LSR/NOT, GET 0, UPDATE 0) are found from its own trace and replaced by type-equivalent stand-ins,
 * then the check is run again, so the rest of the code is still checked statically.
 */
export function typecheckCode(code: Expr[], stack: Ty[], ctx: StaticContext = {}): StaticVerdict {
  const badCount = firstInvalidCount(code);
  if (badCount === null) return typecheckCounted(code, stack, ctx, null);
  // A refused count is reported unless michel-codec (which types in Octez's order but checks no
  // count) finds a type error before reaching it; the first one in pre-order is the one Octez meets.
  const reached = { value: false };
  const verdict = typecheckCounted(code, stack, ctx, reached);
  if (verdict.kind === 'error' && !reached.value) return verdict;
  return {
    kind: 'error',
    message: `${badCount.ins.prim}: expected ${badCount.expectedForm}`,
    syntactic: badCount,
  };
}

/**
 * michel-codec's verdict; `reached` (when given) is set once it types, or fails on or inside, an
 * instruction whose count Octez refuses.
 */
function typecheckCounted(
  code: Expr[],
  stack: Ty[],
  ctx: StaticContext,
  reached: { value: boolean } | null,
): StaticVerdict {
  const contract = ctx.selfParameter
    ? [
        { prim: 'parameter', args: [ctx.selfParameter] },
        { prim: 'storage', args: [{ prim: 'unit' }] },
        { prim: 'code', args: [[{ prim: 'FAILWITH' }]] },
      ]
    : undefined;
  if (reached === null && findFailingDip(code)) return { kind: 'error', message: 'DIP body always fails' };
  // Octez's refusals michel-codec misses (type positions, packable and dupable stack types): the first one in
  // typechecking order wins over michel-codec's own verdict when it comes first.
  const argIssue = typeArgIssue(code, ctx.legacy);
  const subst = new Map<object, Expr>();
  const origin = new WeakMap<object, object>();
  const original = (n: object): object => origin.get(n) ?? n;
  let current = code;
  for (let round = 0; round < 20; round++) {
    let found = false;
    let stackFound: TypeIssue | null = null;
    if (reached) reached.value = false;
    const trace = (t: { op: unknown; in: unknown[] }): void => {
      const op = t.op as Expr;
      if (reached && invalidCount(op)) reached.value = true;
      if (!isPrim(op)) return;
      stackFound ??= stackIssue(op, t.in, ctx.legacy);
      if (subst.has(op)) return;
      if ((op.prim === 'LSL' || op.prim === 'LSR') && isBytes(t.in[0])) subst.set(op, STAND_IN.shiftBytes);
      else if (op.prim === 'NOT' && isBytes(t.in[0])) subst.set(op, STAND_IN.identity);
      else return;
      found = true;
    };
    const decide = (v: StaticVerdict, failedAt?: unknown): StaticVerdict =>
      withIssues(v, code, [argIssue, stackFound && remap(stackFound, original)], failedAt, original);
    try {
      const out = runCodec(current, stack, contract, trace);
      if (!found) return decide(verdictOf(out));
    } catch (e) {
      const val = (e as { val?: unknown }).val;
      const stackState = (e as { stackState?: unknown }).stackState;
      if (isPrim(val as Expr) && Array.isArray(stackState))
        stackFound ??= stackIssue(val as ExprPrim, stackState, ctx.legacy);
      if (reached && (invalidCount(val) || insideInvalidCount(current, val))) reached.value = true;
      if (isPrim(val as Expr) && !subst.has(val as object)) {
        const v = val as ExprPrim;
        const zero =
          v.args?.length === 1 && !Array.isArray(v.args[0]) && (v.args[0] as { int?: string }).int === '0';
        if (zero && v.prim === 'GET') subst.set(v, STAND_IN.identity);
        else if (zero && v.prim === 'UPDATE') subst.set(v, STAND_IN.replaceWhole);
        else if (!found) return decide(failure(e, code, ctx), val);
      } else if (!found) return decide(failure(e, code, ctx), val);
    }
    current = rebuild(code, subst, origin) as Expr[];
  }
  return { kind: 'unknown', message: 'too many instructions to patch' };
}

/** The issue with its nodes mapped back to the code as written (michel-codec may have typed a patched copy). */
function remap(issue: TypeIssue, original: (n: object) => object): TypeIssue {
  return {
    ...issue,
    at: original(issue.at),
    trace: issue.trace.map((t) => ({ ...t, node: original(t.node) })),
  };
}

/**
 * The verdict once Octez's refusals are counted: the earliest issue (in pre-order, Octez's typechecking
 * order) unless michel-codec failed on a node before it.
 */
function withIssues(
  verdict: StaticVerdict,
  code: Expr[],
  issues: (TypeIssue | null)[],
  failedAt: unknown,
  original: (n: object) => object,
): StaticVerdict {
  const present = issues.filter((x): x is TypeIssue => x !== null);
  if (present.length === 0) return verdict;
  const order = new Map<object, number>();
  let i = 0;
  const walk = (e: Expr): void => {
    if (typeof e === 'object' && e !== null) order.set(e, i++);
    if (Array.isArray(e)) e.forEach(walk);
    else if (isPrim(e)) (e.args ?? []).forEach(walk);
  };
  walk(code);
  const pos = (n: unknown): number =>
    typeof n === 'object' && n !== null ? (order.get(original(n)) ?? Infinity) : Infinity;
  const first = present.reduce((a, b) => (pos(b.at) < pos(a.at) ? b : a));
  const at = pos(failedAt);
  if (verdict.kind === 'error' && (at < pos(first.at) || (at === pos(first.at) && first.afterStack)))
    return verdict;
  return { kind: 'error', message: first.message, trace: first.trace };
}

/** Is `node` inside an instruction whose count Octez refuses (`DIP 1024 { … }`: the count is read first)? */
function insideInvalidCount(code: Expr, node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (invalidCount(code) && contains(code, node)) return true;
  const children = Array.isArray(code) ? code : isPrim(code) ? (code.args ?? []) : [];
  return children.some((c) => insideInvalidCount(c, node));
}

function verdictOf(out: unknown): StaticVerdict {
  if (out && typeof out === 'object' && !Array.isArray(out) && 'failed' in out)
    return { kind: 'ok', output: 'failed' };
  try {
    return { kind: 'ok', output: (out as Expr[]).map(toTy) };
  } catch (e) {
    return { kind: 'unknown', message: messageOf(e) };
  }
}

function failure(e: unknown, code: Expr[], ctx: StaticContext): StaticVerdict {
  const message = messageOf(e);
  if (KNOWN_FALSE_REJECTIONS.some((r) => r.test(message)) || containsBuggyPrim(code))
    return { kind: 'unknown', message };
  if (ctx.legacy && /SUB/.test(message) && /mutez/.test(message)) return { kind: 'unknown', message };
  return { kind: 'error', message, ...memoSizesOf(message) };
}

/**
 * Octez's `inconsistent_memo_sizes` from michel-codec's messages: SAPLING_VERIFY_UPDATE's (transaction, then
 * state; Octez names the state's first) and a type equality's (`sapling_state: type argument mismatch: a != b`).
 */
function memoSizesOf(message: string): { memoSizes?: [number, number] } {
  const verify = /sapling memo size mismatch: (\d+) != (\d+)/.exec(message);
  if (verify) return { memoSizes: [Number(verify[2]), Number(verify[1])] };
  const eq = /sapling_\w+: type argument mismatch: (\d+) != (\d+)/.exec(message);
  if (eq) return { memoSizes: [Number(eq[1]), Number(eq[2])] };
  return {};
}
