/**
 * Micheline JSON types, validation of untrusted input and Michelson text parsing
 * (on top of @taquito/michel-codec's Parser).
 */
import { Parser } from '@taquito/michel-codec';

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

const MAX_DEPTH = 10_000;

/**
 * Checks that untrusted JSON is well-formed Micheline and returns a clean copy (unknown keys dropped).
 * Throws MichelsonDataError with the JSON path of the first problem.
 */
export function toMicheline(input: unknown, path = '$', depth = 0): Micheline {
  if (depth > MAX_DEPTH) throw new MichelsonDataError(`Micheline nested too deeply at ${path}`);
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

/** Options for parsing Michelson text. */
export interface ParseOptions {
  /** Expand macros (CMPEQ, DUUP, PAPAIR...). Default false: keep the source as written. */
  expandMacros?: boolean;
  /** Expand `constant "expr…"` with these global constants (hash -> Micheline). */
  globalConstants?: Record<string, Micheline>;
}

function parser(opts: ParseOptions): Parser {
  return new Parser({
    expandMacros: opts.expandMacros ?? false,
    ...(opts.globalConstants ? { expandGlobalConstant: opts.globalConstants } : {}),
  });
}

/** Strips michel-codec's symbol-keyed source references, giving plain JSON. */
function plain(e: unknown): Micheline {
  return JSON.parse(JSON.stringify(e)) as Micheline;
}

function wrapError(e: unknown): MichelsonDataError {
  const msg = e instanceof Error ? e.message : String(e);
  return new MichelsonDataError(`Michelson parse error: ${msg}`);
}

/**
 * Parses a whole script or any `;`-separated instruction sequence (braces optional) to Micheline.
 * A script (`parameter …; storage …; code …`) gives the array of its sections.
 */
export function parseMichelsonScript(src: string, opts: ParseOptions = {}): Micheline[] {
  try {
    const r = parser(opts).parseScript(src);
    if (r === null) throw new Error('empty source');
    return plain(r) as Micheline[];
  } catch (e) {
    throw wrapError(e);
  }
}

/**
 * Parses one Michelson expression (a value or a type): `Pair 1 "a"`, `(pair int nat)`, `{ 1 ; 2 }`, `"x"`, `0x00`.
 */
export function parseMichelsonExpression(src: string, opts: ParseOptions = {}): Micheline {
  try {
    const p = parser(opts);
    const r = /^\s*[A-Za-z_]/.test(src) ? p.parseData(src) : p.parseMichelineExpression(src);
    if (r === null) throw new Error('empty source');
    return plain(r);
  } catch (e) {
    throw wrapError(e);
  }
}

/** Validates Micheline JSON and expands macros / global constants when asked. */
export function expandMicheline(expr: Micheline, opts: ParseOptions = {}): Micheline {
  try {
    const r = parser({ expandMacros: true, ...opts }).parseJSON(expr);
    return plain(r);
  } catch (e) {
    throw wrapError(e);
  }
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
