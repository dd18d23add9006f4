/**
 * Michelson types as the interpreter sees them: annotation-free, with every `pair` a binary right comb.
 * Field annotations are kept apart (see `entrypoints.ts`) because only parameter types need them.
 */
import { findEntrypoint } from '@michelscope/michelson';
import type { Micheline as Expr, MichelinePrim as ExprPrim } from '@michelscope/michelson';
import { MichelsonError, staticError } from './errors';

export interface Ty {
  readonly prim: string;
  readonly args: readonly Ty[];
  /** sapling_state / sapling_transaction(_deprecated): the memo size, Octez's `Sapling.Memo_size.t`. */
  readonly memo?: number;
}

/** Types whose one argument is a memo size (an int), not a type. */
export const SAPLING_TYPES = new Set([
  'sapling_state',
  'sapling_transaction',
  'sapling_transaction_deprecated',
]);
/** Octez `Sapling_repr.Memo_size.parse_z`: a memo size is an unsigned 16-bit integer. */
export const MAX_MEMO_SIZE = 0xffff;

/**
 * A memo size as Octez's `parse_memo_size` (script_ir_translator.ml) reads it: an int node (else
 * `invalid_kind`) between 0 and 65535 (else `invalid_syntactic_constant`).
 */
export function parseMemoSize(e: Expr | undefined): number {
  if (e === undefined || Array.isArray(e) || typeof e !== 'object' || e === null || !('int' in e))
    throw staticError(
      'invalid_kind',
      `a memo size must be an int, got ${String(JSON.stringify(e)).slice(0, 80)}`,
    );
  const n = BigInt(e.int);
  if (n < 0n || n > BigInt(MAX_MEMO_SIZE))
    throw staticError(
      'invalid_syntactic_constant',
      `memo size ${e.int}: expected a positive 16-bit integer (between 0 and ${MAX_MEMO_SIZE})`,
    );
  return Number(n);
}
export const saplingT = (prim: string, memo: number): Ty => ({ prim, args: [], memo });

/** Micheline expressions: @michelscope/michelson's one Micheline type. */
export type {
  Micheline as Expr,
  MichelineInt as ExprInt,
  MichelineString as ExprString,
  MichelineBytes as ExprBytes,
  MichelinePrim as ExprPrim,
} from '@michelscope/michelson';

const ARITY: Record<string, number> = {
  int: 0,
  nat: 0,
  string: 0,
  bytes: 0,
  mutez: 0,
  bool: 0,
  key_hash: 0,
  timestamp: 0,
  address: 0,
  key: 0,
  unit: 0,
  signature: 0,
  operation: 0,
  chain_id: 0,
  never: 0,
  bls12_381_g1: 0,
  bls12_381_g2: 0,
  bls12_381_fr: 0,
  chest: 0,
  chest_key: 0,
  tx_rollup_l2_address: 0,
  option: 1,
  list: 1,
  set: 1,
  contract: 1,
  ticket: 1,
  or: 2,
  lambda: 2,
  map: 2,
  big_map: 2,
};

const cache = new Map<string, Ty>();
/** Shared instances for the argument-less types (cheap equality, fewer allocations). */
export function simple(prim: string): Ty {
  let t = cache.get(prim);
  if (!t) {
    t = { prim, args: [] };
    cache.set(prim, t);
  }
  return t;
}
export const T = {
  int: simple('int'),
  nat: simple('nat'),
  mutez: simple('mutez'),
  string: simple('string'),
  bytes: simple('bytes'),
  bool: simple('bool'),
  unit: simple('unit'),
  timestamp: simple('timestamp'),
  address: simple('address'),
  key: simple('key'),
  key_hash: simple('key_hash'),
  signature: simple('signature'),
  operation: simple('operation'),
  chain_id: simple('chain_id'),
  never: simple('never'),
  g1: simple('bls12_381_g1'),
  g2: simple('bls12_381_g2'),
  fr: simple('bls12_381_fr'),
};
export const ty = (prim: string, ...args: Ty[]): Ty => (args.length === 0 ? simple(prim) : { prim, args });
export const pairT = (a: Ty, b: Ty): Ty => ({ prim: 'pair', args: [a, b] });
export const optionT = (a: Ty): Ty => ({ prim: 'option', args: [a] });
export const listT = (a: Ty): Ty => ({ prim: 'list', args: [a] });
export const orT = (a: Ty, b: Ty): Ty => ({ prim: 'or', args: [a, b] });

export function isPrim(e: Expr): e is ExprPrim {
  return typeof e === 'object' && e !== null && !Array.isArray(e) && 'prim' in e;
}

/** Octez `michelson_maximum_type_size`: a type may have at most this many nodes. */
export const MAX_TYPE_SIZE = 2001;

/** Converts a Micheline type expression to a normalised `Ty`; throws a static error when malformed. */
export function toTy(e: Expr): Ty {
  const t = toTyRaw(e);
  if (tySize(t, MAX_TYPE_SIZE + 1) > MAX_TYPE_SIZE)
    throw staticError('type_too_large', 'type exceeds the maximum type size');
  return t;
}

/** Node count of a type, stopping once `cap` is reached. */
export function tySize(t: Ty, cap = Infinity): number {
  let n = 0;
  const stack: Ty[] = [t];
  while (stack.length > 0 && n < cap) {
    const x = stack.pop() as Ty;
    n++;
    for (const a of x.args) stack.push(a);
  }
  return n;
}

function toTyRaw(e: Expr): Ty {
  if (!isPrim(e))
    throw staticError('invalid_type', `expected a type, got ${String(JSON.stringify(e) ?? e).slice(0, 80)}`);
  const args = e.args ?? [];
  if (e.prim === 'pair') {
    if (args.length < 2) throw staticError('invalid_type', 'pair needs at least 2 arguments');
    const tys = args.map(toTyRaw);
    let acc = tys[tys.length - 1] as Ty;
    for (let i = tys.length - 2; i >= 0; i--) acc = pairT(tys[i] as Ty, acc);
    return acc;
  }
  if (SAPLING_TYPES.has(e.prim)) {
    if (args.length !== 1)
      throw staticError('invalid_arity', `type ${e.prim} expects 1 argument (a memo size)`);
    return saplingT(e.prim, parseMemoSize(args[0]));
  }
  const n = ARITY[e.prim];
  if (n === undefined) throw staticError('invalid_type', `unknown type ${e.prim}`);
  if (args.length !== n) throw staticError('invalid_type', `type ${e.prim} expects ${n} argument(s)`);
  if (n === 0) return simple(e.prim);
  const t = { prim: e.prim, args: args.map(toTyRaw) };
  // Octez parse_big_map_value_ty (allow_lazy_storage:false): no big_map or sapling_state in a big map's values,
  // wherever the big_map type is written (lambdas hide theirs).
  if (e.prim === 'big_map' && hasForbidden(t.args[1] as Ty, LAZY_STORAGE))
    throw staticError('unexpected_lazy_storage', 'big_map or sapling_state type not expected here');
  return t;
}

const LAZY_STORAGE = new Set(['big_map', 'sapling_state']);

/**
 * The first memo sizes that differ between two types of the same shape, [a's, b's] (what Octez's ty_eq
 * reports as `inconsistent_memo_sizes`); null when they differ otherwise or not at all.
 */
export function memoMismatch(a: Ty, b: Ty): [number, number] | null {
  if (a.prim !== b.prim || a.args.length !== b.args.length) return null;
  if (a.memo !== b.memo) return [a.memo ?? 0, b.memo ?? 0];
  for (let i = 0; i < a.args.length; i++) {
    const x = a.args[i] as Ty;
    const y = b.args[i] as Ty;
    if (tyEq(x, y)) continue;
    return memoMismatch(x, y);
  }
  return null;
}

export function tyEq(a: Ty, b: Ty): boolean {
  if (a === b) return true;
  if (a.prim !== b.prim || a.args.length !== b.args.length || a.memo !== b.memo) return false;
  for (let i = 0; i < a.args.length; i++) if (!tyEq(a.args[i] as Ty, b.args[i] as Ty)) return false;
  return true;
}

export function assertTyEq(a: Ty, b: Ty, what = 'types'): void {
  if (!tyEq(a, b)) throw staticError('inconsistent_types', `${what} mismatch: ${showTy(a)} vs ${showTy(b)}`);
}

export function tyToExpr(t: Ty): Expr {
  if (t.memo !== undefined) return { prim: t.prim, args: [{ int: String(t.memo) }] };
  return t.args.length === 0 ? { prim: t.prim } : { prim: t.prim, args: t.args.map(tyToExpr) };
}

/** Like Octez's unparse_ty: right combs are written n-ary (`pair a b c`). */
export function tyToExprComb(t: Ty): Expr {
  if (t.prim === 'pair') {
    const args: Expr[] = [];
    let cur = t;
    while (cur.prim === 'pair') {
      args.push(tyToExprComb(cur.args[0] as Ty));
      cur = cur.args[1] as Ty;
    }
    args.push(tyToExprComb(cur));
    return { prim: 'pair', args };
  }
  if (t.memo !== undefined) return tyToExpr(t);
  return t.args.length === 0 ? { prim: t.prim } : { prim: t.prim, args: t.args.map(tyToExprComb) };
}

export function showTy(t: Ty): string {
  if (t.memo !== undefined) return `(${t.prim} ${t.memo})`;
  return t.args.length === 0 ? t.prim : `(${t.prim} ${t.args.map(showTy).join(' ')})`;
}

/** Comparable types without arguments (pair, or and option are comparable when their arguments are). */
export const COMPARABLE_LEAF: ReadonlySet<string> = new Set([
  'int',
  'nat',
  'string',
  'bytes',
  'mutez',
  'bool',
  'key_hash',
  'timestamp',
  'address',
  'key',
  'unit',
  'signature',
  'chain_id',
  'never',
]);
export function isComparable(t: Ty): boolean {
  if (COMPARABLE_LEAF.has(t.prim)) return true;
  if (t.prim === 'pair' || t.prim === 'or') return t.args.every(isComparable);
  if (t.prim === 'option') return isComparable(t.args[0] as Ty);
  return false;
}

/** Types that may appear in PUSH / constants (no operation, big_map, sapling_state, ticket, contract). */
export function hasForbidden(t: Ty, forbidden: ReadonlySet<string>): boolean {
  if (forbidden.has(t.prim)) return true;
  if (t.prim === 'lambda') return false; // lambdas hide their argument and result types
  return t.args.some((a) => hasForbidden(a, forbidden));
}
export const NOT_PUSHABLE = new Set(['operation', 'big_map', 'sapling_state', 'ticket', 'contract']);
export const NOT_PACKABLE = new Set(['operation', 'big_map', 'sapling_state', 'ticket']);
export const NOT_STORABLE = new Set(['operation', 'contract']);
export const NOT_PASSABLE = new Set(['operation']);
export const NOT_DUPABLE = new Set(['ticket']);
export const BIG_MAP_VALUE_FORBIDDEN = new Set(['operation', 'big_map', 'sapling_state']);

export function checkComparable(t: Ty): void {
  if (!isComparable(t)) throw staticError('comparable_type_expected', `type ${showTy(t)} is not comparable`);
}

export function isMichelsonError(e: unknown): e is MichelsonError {
  return e instanceof MichelsonError;
}

/** Pair type components of a right comb of arity n (n >= 2). */
export function combParts(t: Ty, n: number): Ty[] {
  const out: Ty[] = [];
  let cur = t;
  for (let i = 0; i < n - 1; i++) {
    if (cur.prim !== 'pair')
      throw staticError('bad_stack', `expected a pair of ${n} elements, got ${showTy(t)}`);
    out.push(cur.args[0] as Ty);
    cur = cur.args[1] as Ty;
  }
  out.push(cur);
  return out;
}

/**
 * Path of Left/Right constructors leading to an entrypoint, and its type; null when absent. The lookup is
 * @michelscope/michelson's `findEntrypoint` with Octez's rule: only field annotations name entrypoints
 * (no generated `entrypoint_<n>` names); `default` falls back to the root.
 */
export function entrypointPath(param: Expr, name: string): { path: ('Left' | 'Right')[]; ty: Ty } | null {
  let found;
  try {
    found = findEntrypoint(param, name, { generatedNames: false });
  } catch {
    return null; // not a valid type: nothing can be called on it
  }
  if (!found) return null;
  return {
    path: [...found.path].map((step) => (step === 'L' ? 'Left' : 'Right')),
    ty: toTy(found.node.source),
  };
}
