/**
 * Micheline JSON types, validation of untrusted input and Michelson text parsing
 * (on top of @taquito/michel-codec's Parser). The types, guards and validation live in ./micheline-core
 * (no parser) and are re-exported here.
 */
import { Parser } from '@taquito/michel-codec';
import {
  MAX_INT_DIGITS,
  MichelsonDataError,
  inputExcess,
  nestedMessage,
  textNestedTooDeeply,
  type Micheline,
} from './micheline-core';

export * from './micheline-core';

/** Options for parsing Michelson text. */
export interface ParseOptions {
  /** Expand macros (CMPEQ, DUUP, PAPAIR...). Default false: keep the source as written. */
  expandMacros?: boolean;
  /** Expand `constant "expr…"` with these global constants (hash -> Micheline). */
  globalConstants?: Record<string, Micheline>;
}

function parser(opts: ParseOptions, src?: string): Parser {
  if (src !== undefined && textNestedTooDeeply(src)) throw new Error(nestedMessage('Michelson text'));
  if (src !== undefined && new RegExp(`\\d{${MAX_INT_DIGITS + 1}}`).test(src))
    throw new Error(`int literal longer than ${MAX_INT_DIGITS} digits`);
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
    const r = parser(opts, src).parseScript(src);
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
    const p = parser(opts, src);
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
    const excess = inputExcess(expr);
    if (excess) throw new Error(excess.replace(/^JSON/, 'Micheline'));
    const r = parser({ expandMacros: true, ...opts }).parseJSON(expr);
    return plain(r);
  } catch (e) {
    throw wrapError(e);
  }
}
