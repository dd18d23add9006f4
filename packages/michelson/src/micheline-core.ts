/**
 * Micheline JSON types, their guards and the validation of untrusted input, without the text parser
 * (./micheline adds it): a module that only reads Micheline imports this one, so that a browser page
 * showing Micheline does not download @taquito/michel-codec.
 */

/** A primitive application: `{ prim, args?, annots? }`. */
export interface MichelinePrim {
  prim: string;
  args?: Micheline[];
  annots?: string[];
}
export interface MichelineInt {
  int: string;
}
export interface MichelineString {
  string: string;
}
export interface MichelineBytes {
  bytes: string;
}
/** Micheline JSON as the node RPC returns it. */
export type Micheline = MichelinePrim | MichelineInt | MichelineString | MichelineBytes | Micheline[];

/** Error thrown for malformed input (bad Micheline, bad Michelson text, value not matching a type...). */
export class MichelsonDataError extends Error {
  override name = 'MichelsonDataError';
  /** Octez-like error detail (`invalid_address`, `invalid_key`…) when the input was a bad literal. */
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export const isPrim = (n: unknown): n is MichelinePrim =>
  typeof n === 'object' && n !== null && !Array.isArray(n) && typeof (n as MichelinePrim).prim === 'string';
export const isInt = (n: unknown): n is MichelineInt =>
  typeof n === 'object' && n !== null && typeof (n as MichelineInt).int === 'string';
export const isString = (n: unknown): n is MichelineString =>
  typeof n === 'object' && n !== null && typeof (n as MichelineString).string === 'string';
export const isBytes = (n: unknown): n is MichelineBytes =>
  typeof n === 'object' && n !== null && typeof (n as MichelineBytes).bytes === 'string';

/**
 * Deepest nesting accepted from users (API bodies, sandbox RPC bodies, Micheline JSON, Michelson text):
 * real contracts stay under ~70 levels, and every recursive tool (typechecker, forms, printers,
 * JSON.stringify) is safe well past this. Deeper input is refused with a 400 before any of them runs.
 */
export const MAX_INPUT_DEPTH = 1000;

/**
 * Longest int literal accepted from users, in digits. Octez has no such limit (its Zarith is fast). Ours is
 * far below what an operation can hold because michel-codec's typechecker (`LongInteger`) and the web's
 * forms (bignumber.js) are quadratic in an int's size; the binary codec (`binary.ts`) and the sandbox's
 * forger are linear, so operation bytes are decoded before this limit is checked. Real contracts use ints of
 * at most ~80 digits (2^256, BLS12-381 scalars).
 */
export const MAX_INT_DIGITS = 1000;

/**
 * The first excess of untrusted JSON, in one iterative pass: nesting deeper than `depthLimit`, or an
 * `{"int": …}` literal longer than `intLimit` digits. Undefined when the input is within both.
 */
export function inputExcess(
  value: unknown,
  depthLimit = MAX_INPUT_DEPTH,
  intLimit = MAX_INT_DIGITS,
): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > depthLimit) return `JSON nested deeper than ${depthLimit} levels`;
    const int = (v as { int?: unknown }).int;
    if (typeof int === 'string' && int.replace(/^-/, '').length > intLimit)
      return `int literal longer than ${intLimit} digits`;
    for (const x of Array.isArray(v) ? v : Object.values(v))
      if (typeof x === 'object' && x !== null) stack.push([x, d + 1]);
  }
  return undefined;
}

/** Whether JSON (objects and arrays) nests deeper than `limit` levels; iterative, stops at the first excess. */
export function jsonNestedTooDeeply(value: unknown, limit = MAX_INPUT_DEPTH): boolean {
  return inputExcess(value, limit, Infinity) !== undefined;
}

/** Whether Michelson text nests `(`/`{`/`[` deeper than `limit` (strings and comments skipped). */
export function textNestedTooDeeply(src: string, limit = MAX_INPUT_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x28 || c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x29 || c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x22) {
      // string literal: skip to the closing quote (backslash escapes)
      for (i++; i < src.length && src.charCodeAt(i) !== 0x22; i++) if (src.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x23) {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
    } else if (c === 0x2f && src.charCodeAt(i + 1) === 0x2a) {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 1;
    }
  }
  return false;
}

/** The message of input nested deeper than MAX_INPUT_DEPTH. */
export const nestedMessage = (what: string) => `${what} nested deeper than ${MAX_INPUT_DEPTH} levels`;

/**
 * Checks that untrusted JSON is well-formed Micheline and returns a clean copy (unknown keys dropped).
 * Throws MichelsonDataError with the JSON path of the first problem.
 */
export function toMicheline(input: unknown, path = '$', depth = 0): Micheline {
  if (depth > MAX_INPUT_DEPTH) throw new MichelsonDataError(nestedMessage('Micheline'));
  if (Array.isArray(input)) return input.map((x, i) => toMicheline(x, `${path}[${i}]`, depth + 1));
  if (typeof input !== 'object' || input === null)
    throw new MichelsonDataError(`invalid Micheline at ${path}: expected object or array`);
  const o = input as Record<string, unknown>;
  if (typeof o.prim === 'string') {
    if (!/^[A-Za-z0-9_]+$/.test(o.prim)) throw new MichelsonDataError(`invalid primitive name at ${path}`);
    const out: MichelinePrim = { prim: o.prim };
    if (o.args !== undefined) {
      if (!Array.isArray(o.args)) throw new MichelsonDataError(`invalid args at ${path}: expected array`);
      out.args = o.args.map((x, i) => toMicheline(x, `${path}.args[${i}]`, depth + 1));
    }
    if (o.annots !== undefined) {
      if (!Array.isArray(o.annots) || !o.annots.every((a) => typeof a === 'string'))
        throw new MichelsonDataError(`invalid annots at ${path}: expected array of strings`);
      out.annots = [...o.annots];
    }
    return out;
  }
  if ('int' in o) {
    if (typeof o.int !== 'string' || !/^-?[0-9]+$/.test(o.int))
      throw new MichelsonDataError(`invalid int literal at ${path}`);
    if (o.int.replace(/^-/, '').length > MAX_INT_DIGITS)
      throw new MichelsonDataError(
        `int literal longer than ${MAX_INT_DIGITS} digits at ${path.slice(0, 200)}`,
      );
    return { int: o.int };
  }
  if ('string' in o) {
    if (typeof o.string !== 'string') throw new MichelsonDataError(`invalid string literal at ${path}`);
    return { string: o.string };
  }
  if ('bytes' in o) {
    if (typeof o.bytes !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(o.bytes))
      throw new MichelsonDataError(`invalid bytes literal at ${path}`);
    return { bytes: o.bytes };
  }
  throw new MichelsonDataError(`invalid Micheline at ${path}: expected prim, int, string, bytes or array`);
}

/** Field annotation without `%`, or undefined. */
export function fieldAnnot(n: Micheline): string | undefined {
  if (!isPrim(n) || !n.annots) return undefined;
  for (const a of n.annots) if (a.startsWith('%')) return a.slice(1);
  return undefined;
}

/** Type annotation without `:`, or undefined. */
export function typeAnnot(n: Micheline): string | undefined {
  if (!isPrim(n) || !n.annots) return undefined;
  for (const a of n.annots) if (a.startsWith(':')) return a.slice(1);
  return undefined;
}

/** Visits every node (pre-order, iterative: safe on deep trees). Return false from `fn` to skip children. */
export function walkMicheline(root: Micheline, fn: (n: Micheline) => boolean | void): void {
  const stack: Micheline[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (fn(n) === false) continue;
    const kids = Array.isArray(n) ? n : isPrim(n) ? n.args : undefined;
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}
