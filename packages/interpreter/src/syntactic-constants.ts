/**
 * Octez's syntactic constants: the count argument of DROP n, DUP n, DIG n, DUG n, DIP n, PAIR n, UNPAIR n
 * (a 10-bit natural, 0..1023) and GET n, UPDATE n (11-bit, 0..2047), read by `parse_uint10` /
 * `parse_uint11` of the typechecker before anything else about the instruction. Any other argument (too
 * big, negative, a string, a sequence…) is `michelson_v1.invalid_syntactic_constant` at the argument's
 * location, with the expected form as text and the argument itself as the wrong expression.
 * (michel-codec checks none of this: it typechecks `DROP "x"` as `DROP 0`.)
 */
import type { Expr, ExprPrim } from './types';
import { isPrim } from './types';

const COUNT_BITS: Readonly<Record<string, number>> = {
  DROP: 10,
  DUP: 10,
  DIG: 10,
  DUG: 10,
  DIP: 10,
  PAIR: 10,
  UNPAIR: 10,
  GET: 11,
  UPDATE: 11,
};

export interface SyntacticConstant {
  /** The instruction. */
  ins: ExprPrim;
  /** Its count argument, as written (the error's `wrong_expression`, located by identity). */
  node: Expr;
  /** Octez's text, e.g. `a positive 10-bit integer (between 0 and 1023)`. */
  expectedForm: string;
}

/** The count argument of an instruction that takes one (`DIP n {…}`: the first of two), else undefined. */
function countArg(ins: ExprPrim): Expr | undefined {
  const args = ins.args ?? [];
  if (ins.prim === 'DIP') return args.length === 2 ? args[0] : undefined;
  return args.length === 1 ? args[0] : undefined;
}

/** Largest count an instruction accepts (0..1023 or 0..2047), for instructions with a count. */
export function maxCount(prim: string): number {
  return prim === 'GET' || prim === 'UPDATE' ? 2047 : 1023;
}

export function expectedCountForm(prim: string): string {
  return `a positive ${COUNT_BITS[prim] ?? 10}-bit integer (between 0 and ${maxCount(prim)})`;
}

/** The instruction's count argument when Octez refuses it, else null. */
export function invalidCount(e: unknown): SyntacticConstant | null {
  if (!isPrim(e as Expr)) return null;
  const ins = e as ExprPrim;
  if (!(ins.prim in COUNT_BITS)) return null;
  const node = countArg(ins);
  if (node === undefined) return null;
  if (!Array.isArray(node) && 'int' in node && /^-?\d{1,30}$/.test(node.int)) {
    const n = BigInt(node.int);
    if (n >= 0n && n <= BigInt(maxCount(ins.prim))) return null;
  }
  return { ins, node, expectedForm: expectedCountForm(ins.prim) };
}

/** The first refused count in pre-order (the order Octez's typechecker meets them), or null. */
export function firstInvalidCount(e: Expr): SyntacticConstant | null {
  const own = invalidCount(e);
  if (own) return own;
  const children = Array.isArray(e) ? e : isPrim(e) ? (e.args ?? []) : [];
  for (const c of children) {
    const found = firstInvalidCount(c);
    if (found) return found;
  }
  return null;
}

/** Is `node` (by identity) `root` or inside it? */
export function contains(root: Expr, node: unknown): boolean {
  if (root === node) return true;
  const children = Array.isArray(root) ? root : isPrim(root) ? (root.args ?? []) : [];
  return children.some((c) => contains(c, node));
}

/** Octez location of `node` (by identity) in `root`: its pre-order index, or 0 when absent. */
export function locationOf(root: Expr, node: unknown): number {
  let i = 0;
  let at = 0;
  const walk = (e: Expr): boolean => {
    if (e === node) {
      at = i;
      return true;
    }
    i++;
    const children = Array.isArray(e) ? e : isPrim(e) ? (e.args ?? []) : [];
    return children.some(walk);
  };
  walk(root);
  return at;
}
