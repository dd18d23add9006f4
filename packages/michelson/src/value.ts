/**
 * Helpers to read Micheline values against their types: pairs in every accepted form, and the
 * optimized (bytes / int) forms of addresses, keys, signatures, chain ids and timestamps.
 */
import { isBytes, isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import {
  addressFromHex,
  chainIdFromHex,
  keyFromHex,
  keyHashFromHex,
  l2AddressFromHex,
  signatureFromHex,
} from './binary-forms';

/** Splits a pair value (`Pair a b`, `Pair a b c…`, or the sequence form `{a; b; c}`) into [left, right]. */
export function pairParts(v: Micheline): [Micheline, Micheline] {
  let items: Micheline[] | undefined;
  if (isPrim(v) && v.prim === 'Pair') items = v.args;
  else if (Array.isArray(v)) items = v;
  if (!items || items.length < 2)
    throw new MichelsonDataError(`value does not match type pair: ${preview(v)}`);
  if (items.length === 2) return [items[0]!, items[1]!];
  return [items[0]!, { prim: 'Pair', args: items.slice(1) }];
}

export function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

export function mismatch(type: string, v: Micheline): MichelsonDataError {
  return new MichelsonDataError(`value does not match type ${type}: ${preview(v)}`);
}

/** Elements of a sequence value (list, set, map). */
export function seqItems(v: Micheline, type: string): Micheline[] {
  if (!Array.isArray(v)) throw mismatch(type, v);
  return v;
}

/** `Elt k v` parts. */
export function eltParts(e: Micheline): [Micheline, Micheline] {
  if (!isPrim(e) || e.prim !== 'Elt' || e.args?.length !== 2) throw mismatch('map element (Elt)', e);
  return [e.args[0]!, e.args[1]!];
}

function safe<T>(f: () => T, type: string, v: Micheline): T {
  try {
    return f();
  } catch {
    throw mismatch(type, v);
  }
}

/** RFC 3339 (seconds precision, UTC) of unix seconds; undefined when out of the Date range. */
export function unixToRfc3339(sec: string): string | undefined {
  const n = Number(sec);
  if (!Number.isFinite(n) || Math.abs(n) > 8.64e12) return undefined;
  const d = new Date(n * 1000);
  if (Number.isNaN(d.getTime())) return undefined;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Human (base58 / RFC 3339 / decimal) text of a scalar value of a simple type, decoding the
 * optimized forms. Returns undefined for values that are not scalars.
 */
export function readableScalar(prim: string, v: Micheline): string | boolean | undefined {
  switch (prim) {
    case 'int':
    case 'nat':
    case 'mutez':
      if (isInt(v)) return v.int;
      throw mismatch(prim, v);
    case 'bool':
      if (isPrim(v) && (v.prim === 'True' || v.prim === 'False')) return v.prim === 'True';
      throw mismatch(prim, v);
    case 'timestamp':
      if (isInt(v)) return unixToRfc3339(v.int) ?? v.int;
      if (isString(v)) return /^-?\d+$/.test(v.string) ? (parseTimestamp(v).rfc3339 ?? v.string) : v.string;
      throw mismatch(prim, v);
    case 'address':
    case 'contract':
      if (isString(v)) return v.string;
      if (isBytes(v)) return safe(() => decodeAddressBytes(v.bytes), prim, v);
      throw mismatch(prim, v);
    case 'key_hash':
      if (isString(v)) return v.string;
      if (isBytes(v)) return safe(() => keyHashFromHex(v.bytes), prim, v);
      throw mismatch(prim, v);
    case 'key':
      if (isString(v)) return v.string;
      if (isBytes(v)) return safe(() => keyFromHex(v.bytes), prim, v);
      throw mismatch(prim, v);
    case 'signature':
      if (isString(v)) return v.string;
      if (isBytes(v)) return safe(() => signatureFromHex(v.bytes), prim, v);
      throw mismatch(prim, v);
    case 'chain_id':
      if (isString(v)) return v.string;
      if (isBytes(v)) return safe(() => chainIdFromHex(v.bytes), prim, v);
      throw mismatch(prim, v);
    case 'tx_rollup_l2_address':
      if (isString(v)) return v.string;
      if (isBytes(v)) return safe(() => l2AddressFromHex(v.bytes), prim, v);
      throw mismatch(prim, v);
    case 'string':
      if (isString(v)) return v.string;
      throw mismatch(prim, v);
    default:
      if (isString(v)) return v.string;
      if (isBytes(v)) return v.bytes;
      if (isInt(v)) return v.int;
      return undefined;
  }
}

/** Base58 address of its 22-byte binary form, with `%entrypoint` when bytes follow. */
export function decodeAddressBytes(hex: string): string {
  if (hex.length < 44 || !/^[0-9a-fA-F]*$/.test(hex)) throw new MichelsonDataError('invalid address bytes');
  const addr = addressFromHex(hex.slice(0, 44).toLowerCase());
  if (hex.length === 44) return addr;
  const ep = hex.slice(44);
  let text = '';
  for (let i = 0; i < ep.length; i += 2) text += String.fromCharCode(parseInt(ep.slice(i, i + 2), 16));
  if (!/^[A-Za-z0-9_.%@]+$/.test(text)) throw new MichelsonDataError('invalid address entrypoint');
  return `${addr}%${text}`;
}

const MAX_INT64 = 9223372036854775807n;

/**
 * A timestamp value as unix seconds (decimal string) and RFC 3339 (undefined beyond the Date
 * range). Numeric strings of 13+ digits are milliseconds; values beyond int64 clamp to its maximum
 * (`Timestamp.ParseValue`).
 */
export function parseTimestamp(v: Micheline): { unixSeconds: string; rfc3339: string | undefined } {
  let sec: bigint;
  if (isInt(v)) sec = BigInt(v.int);
  else if (isString(v) && /^-?\d+$/.test(v.string.trim())) {
    const n = BigInt(v.string.trim());
    if (n > MAX_INT64 || n < -MAX_INT64 - 1n) sec = n > 0n ? MAX_INT64 : -MAX_INT64 - 1n;
    else sec = n >= 1_000_000_000_000n ? n / 1000n : n;
  } else if (isString(v)) {
    const ms = Date.parse(v.string);
    if (Number.isNaN(ms) || !/^\d{4}-\d\d-\d\dT/.test(v.string)) throw mismatch('timestamp', v);
    sec = BigInt(Math.floor(ms / 1000));
  } else throw mismatch('timestamp', v);
  const unixSeconds = sec.toString();
  return { unixSeconds, rfc3339: unixToRfc3339(unixSeconds) };
}
