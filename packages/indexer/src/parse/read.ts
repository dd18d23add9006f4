/** Readers for operation JSON from the node: every field is untrusted; a bad one throws InvalidNodeDataError. */
import { validateAddress, ValidationResult } from '@taquito/utils';
import { toMicheline, type Micheline } from '@michelscope/michelson';
import { describe, InvalidNodeDataError, type Obj } from '../protocols/validate';

export type { Obj };

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function obj(v: unknown, where: string): Obj {
  if (!isObj(v)) throw new InvalidNodeDataError(`${where}: expected an object, got ${describe(v)}`);
  return v;
}

export function arr(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InvalidNodeDataError(`${where}: expected an array, got ${describe(v)}`);
  return v;
}

export function str(o: Obj, field: string, where: string): string {
  const v = o[field];
  if (typeof v !== 'string')
    throw new InvalidNodeDataError(`${where}: ${field} must be a string, got ${describe(v)}`);
  return v;
}

export function optStr(o: Obj, field: string, where: string): string | null {
  return o[field] === undefined || o[field] === null ? null : str(o, field, where);
}

const INT = /^-?\d{1,80}$/;

/** An integer as a decimal string (int64 / Z values such as amounts and ticket deltas). */
export function bigStr(o: Obj, field: string, where: string, fallback?: string): string {
  const v = o[field];
  if (v === undefined && fallback !== undefined) return fallback;
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !INT.test(s))
    throw new InvalidNodeDataError(`${where}: ${field} must be an integer, got ${describe(v)}`);
  return s;
}

/** A non-negative integer that fits a JS number (fees, gas, counters, sizes); missing = fallback. */
export function num(o: Obj, field: string, where: string, fallback = 0): number {
  const v = o[field];
  if (v === undefined || v === null) return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw new InvalidNodeDataError(`${where}: ${field} must be a non-negative integer, got ${describe(v)}`);
  return n;
}

const ADDRESS_PREFIXES = ['tz1', 'tz2', 'tz3', 'tz4', 'KT1', 'sr1', 'txr1'];

/**
 * Addresses already found valid: the same few accounts and contracts recur in every block, and the
 * base58check (double SHA-256) is a visible share of parsing a dense block. Bounded; cleared when full.
 */
const validAddresses = new Set<string>();
const MAX_CACHED_ADDRESSES = 100_000;

/** A Tezos address (tz1-4, KT1, sr1, txr1), base58check-validated. */
export function address(o: Obj, field: string, where: string): string {
  const v = str(o, field, where);
  if (validAddresses.has(v)) return v;
  if (!ADDRESS_PREFIXES.some((p) => v.startsWith(p)) || validateAddress(v) !== ValidationResult.VALID) {
    throw new InvalidNodeDataError(`${where}: ${field} is not a valid address: ${describe(v)}`);
  }
  if (validAddresses.size >= MAX_CACHED_ADDRESSES) validAddresses.clear();
  validAddresses.add(v);
  return v;
}

export function optAddress(o: Obj, field: string, where: string): string | null {
  return o[field] === undefined || o[field] === null ? null : address(o, field, where);
}

const PRIM_NAME = /^[A-Za-z0-9_]+$/;
const INT_LITERAL = /^-?[0-9]+$/;
const HEX = /^[0-9a-fA-F]*$/;
/** Same limit as toMicheline (packages/michelson). */
const MAX_MICHELINE_DEPTH = 10_000;

/**
 * True when `v` is already exactly what toMicheline would return (well-formed, no extra keys), checked
 * without copying and without building a JSON path per node: the common case, several times faster on
 * dense blocks. Anything else goes through toMicheline, which cleans it or reports the path.
 */
function isCleanMicheline(v: unknown, depth: number): boolean {
  if (depth > MAX_MICHELINE_DEPTH) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!isCleanMicheline(x, depth + 1)) return false;
    return true;
  }
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  let keys = 0;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) return false;
    keys++;
  }
  if (typeof o.prim === 'string') {
    if (!PRIM_NAME.test(o.prim)) return false;
    let n = 1;
    if (o.args !== undefined) {
      if (!Array.isArray(o.args)) return false;
      for (const x of o.args) if (!isCleanMicheline(x, depth + 1)) return false;
      n++;
    }
    if (o.annots !== undefined) {
      if (!Array.isArray(o.annots) || !o.annots.every((a) => typeof a === 'string')) return false;
      n++;
    }
    return keys === n;
  }
  if (keys !== 1) return false;
  if (typeof o.int === 'string') return INT_LITERAL.test(o.int);
  if (typeof o.string === 'string') return true;
  if (typeof o.bytes === 'string') return o.bytes.length % 2 === 0 && HEX.test(o.bytes);
  return false;
}

/** Micheline from the node, shape-checked (throws InvalidNodeDataError with the path). */
export function micheline(v: unknown, where: string): Micheline {
  try {
    if (isCleanMicheline(v, 0)) return v as Micheline;
    return toMicheline(v);
  } catch (e) {
    throw new InvalidNodeDataError(
      `${where}: invalid Micheline (${e instanceof Error ? e.message : String(e)})`,
    );
  }
}

export function optMicheline(v: unknown, where: string): Micheline | null {
  return v === undefined || v === null ? null : micheline(v, where);
}

export type AccountKind = 'account' | 'contract' | 'smart_rollup' | 'rollup' | 'unknown';

export function accountKind(addr: string): AccountKind {
  if (addr.startsWith('tz')) return 'account';
  if (addr.startsWith('KT1')) return 'contract';
  if (addr.startsWith('sr1')) return 'smart_rollup';
  if (addr.startsWith('txr1')) return 'rollup';
  return 'unknown';
}

const STATUSES = new Set(['applied', 'backtracked', 'failed', 'skipped']);

export function status(o: Obj, where: string): 'applied' | 'backtracked' | 'failed' | 'skipped' {
  const s = str(o, 'status', where);
  if (!STATUSES.has(s)) throw new InvalidNodeDataError(`${where}: unknown status ${describe(s)}`);
  return s as 'applied' | 'backtracked' | 'failed' | 'skipped';
}
