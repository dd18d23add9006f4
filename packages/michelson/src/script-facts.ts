/**
 * Facts read from a script or a value: FAILWITH strings, annotations, referenced global constants
 * (and their expansion), and lambdas stored in values (migrations of kind `lambda`).
 */
import { bytesAsAddress, bytesToText, tryUnpack } from './bytes';
import { isBytes, isPrim, isString, MichelsonDataError, walkMicheline } from './micheline-core';
import type { Micheline } from './micheline-core';

/** Strings pushed right before a FAILWITH (`PUSH string "…" ; FAILWITH`), in code order, deduplicated. */
export function failStrings(code: Micheline): string[] {
  const out = new Set<string>();
  walkMicheline(code, (n) => {
    if (!Array.isArray(n)) return;
    for (let i = 1; i < n.length; i++) {
      const f = n[i];
      const p = n[i - 1];
      if (
        isPrim(f) &&
        f.prim === 'FAILWITH' &&
        isPrim(p) &&
        p.prim === 'PUSH' &&
        p.args?.[1] &&
        isString(p.args[1])
      )
        out.add(p.args[1].string);
    }
  });
  return [...out];
}

/** All annotations used in a script, in first-seen order (e.g. `%ledger`, `:owner`). */
export function annotations(script: Micheline): string[] {
  const out = new Set<string>();
  walkMicheline(script, (n) => {
    if (isPrim(n) && n.annots) for (const a of n.annots) out.add(a);
  });
  return [...out];
}

/** `expr…` addresses of the global constants a script refers to (`constant "expr…"`). */
export function globalConstantsOf(script: Micheline): string[] {
  const out = new Set<string>();
  walkMicheline(script, (n) => {
    if (isPrim(n) && n.prim === 'constant' && n.args?.[0] && isString(n.args[0])) out.add(n.args[0].string);
  });
  return [...out];
}

/**
 * Replaces every `constant "expr…"` by its value, repeatedly (constants may use constants).
 * Throws MichelsonDataError for unknown constants or cycles.
 */
export function expandGlobalConstants(script: Micheline, table: Record<string, Micheline>): Micheline {
  const expand = (n: Micheline, depth: number, seen: readonly string[]): Micheline => {
    if (depth > 10_000) throw new MichelsonDataError('script nested too deeply');
    if (Array.isArray(n)) return n.map((x) => expand(x, depth + 1, seen));
    if (!isPrim(n)) return n;
    if (n.prim === 'constant' && n.args?.[0] && isString(n.args[0])) {
      const hash = n.args[0].string;
      const value = table[hash];
      if (value === undefined) throw new MichelsonDataError(`unknown global constant ${hash}`);
      if (seen.includes(hash)) throw new MichelsonDataError(`global constant cycle through ${hash}`);
      return expand(value, depth + 1, [...seen, hash]);
    }
    return n.args ? { ...n, args: n.args.map((x) => expand(x, depth + 1, seen)) } : n;
  };
  return expand(script, 0, []);
}

const isOpcode = (b: number): boolean => (b >= 0x0c && b <= 0x58) || (b >= 0x6f && b <= 0x75);

/**
 * True when bytes are a PACKed Michelson code sequence (`0502…` whose first instruction has an
 * opcode in 0x0c..0x58 or 0x6f..0x75): how the reference detects upgradable contracts storing code.
 */
export function isPackedLambda(hex: string): boolean {
  const h = hex.toLowerCase();
  if (!h.startsWith('0502') || h.length < 16) return false;
  const tag = parseInt(h.slice(12, 14), 16);
  if (tag < 0x03 || tag > 0x0a) return false;
  if (!isOpcode(parseInt(h.slice(14, 16), 16))) return false;
  const v = tryUnpack(h);
  return Array.isArray(v) && (v.length === 0 || (isPrim(v[0]) && /^[A-Z_]+$/.test(v[0].prim)));
}

/** Bytes values of a Micheline value that hold PACKed lambdas (migrations of kind `lambda`). */
export function lambdasInValue(value: Micheline): string[] {
  const out: string[] = [];
  walkMicheline(value, (n) => {
    if (isBytes(n) && isPackedLambda(n.bytes)) out.push(n.bytes);
  });
  return out;
}

/**
 * Strings found in a value (`GetStrings` / `CollectStrings`); with `unpack`, bytes holding an
 * address, PACKed data or UTF-8 text count too.
 */
export function valueStrings(value: Micheline, unpack = true): string[] {
  const out: string[] = [];
  const visit = (root: Micheline, depth: number): void => {
    walkMicheline(root, (n) => {
      if (isString(n)) out.push(n.string);
      else if (unpack && isBytes(n) && depth < 8) {
        const address = bytesAsAddress(n.bytes);
        if (address !== undefined) {
          out.push(address);
          return;
        }
        const inner = tryUnpack(n.bytes);
        if (inner !== undefined) visit(inner, depth + 1);
        else {
          const text = bytesToText(n.bytes);
          if (text !== undefined) out.push(text);
        }
      }
    });
  };
  visit(value, 0);
  return out;
}

/** An on-chain view of a script (`view "name" param return { code }`). */
export interface ScriptView {
  name: string;
  parameter: Micheline;
  returnType: Micheline;
  code: Micheline;
}

/** On-chain views declared in a script, in order. Malformed view sections throw MichelsonDataError. */
export function scriptViews(script: Micheline): ScriptView[] {
  if (!Array.isArray(script)) return [];
  const out: ScriptView[] = [];
  for (const s of script) {
    if (!isPrim(s) || s.prim !== 'view') continue;
    const [name, parameter, returnType, code] = s.args ?? [];
    if (!name || !isString(name) || !parameter || !returnType || code === undefined)
      throw new MichelsonDataError('invalid view section');
    out.push({ name: name.string, parameter, returnType, code });
  }
  return out;
}
