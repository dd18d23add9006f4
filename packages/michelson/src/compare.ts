/**
 * Michelson comparison of typed values (the order of map keys and set elements), accepting both
 * the readable and the optimized (bytes / int) forms of addresses, keys and timestamps.
 */
import {
  b58DecodeAddress,
  b58DecodePublicKey,
  b58DecodePublicKeyHash,
  b58DecodeAndCheckPrefix,
} from '@taquito/utils';
import { isBytes, isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import { mismatch, pairParts } from './value';

const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function bigint(v: Micheline, type: string): bigint {
  if (isInt(v)) return BigInt(v.int);
  if (type === 'timestamp' && isString(v)) {
    const ms = Date.parse(v.string);
    if (!Number.isNaN(ms)) return BigInt(Math.floor(ms / 1000));
  }
  throw mismatch(type, v);
}

function utf8Hex(s: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Binary (hex) form of an address-like value, for comparison. */
function binary(prim: string, v: Micheline): string {
  if (isBytes(v)) return v.bytes.toLowerCase();
  if (!isString(v)) throw mismatch(prim, v);
  try {
    switch (prim) {
      case 'address': {
        const [addr = '', ep] = v.string.split('%', 2);
        return b58DecodeAddress(addr).toLowerCase() + (ep ? utf8Hex(ep) : '');
      }
      case 'key_hash':
        return b58DecodePublicKeyHash(v.string).toLowerCase();
      case 'key':
        return b58DecodePublicKey(v.string).toLowerCase();
      default: {
        const [bytes] = b58DecodeAndCheckPrefix(v.string);
        return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      }
    }
  } catch {
    return utf8Hex(v.string);
  }
}

/** Addresses in string or bytes form (`Address(a).Compare(Address(b))`). */
export function compareAddresses(a: Micheline, b: Micheline): number {
  return cmpStr(binary('address', a), binary('address', b));
}

/** A comparable type as far as ordering needs it: a `TypeNode` or the interpreter's annotation-free `Ty`. */
export interface ComparableType {
  readonly prim: string;
  readonly args: readonly ComparableType[];
}

/**
 * -1 / 0 / 1 for two values of the comparable type `t`, in readable or optimized forms; throws
 * MichelsonDataError for non-comparable types. The one implementation of the order: the explorer's map
 * keys and the interpreter's COMPARE, sets and maps (on Optimized forms) both use it.
 */
export function compareValues(t: ComparableType, a: Micheline, b: Micheline): number {
  switch (t.prim) {
    case 'int':
    case 'nat':
    case 'mutez':
    case 'timestamp': {
      const x = bigint(a, t.prim);
      const y = bigint(b, t.prim);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'string':
      if (!isString(a) || !isString(b)) throw mismatch('string', isString(a) ? b : a);
      return cmpStr(utf8Hex(a.string), utf8Hex(b.string));
    case 'bytes':
      // test data and decoded storage may hold already-rendered text for bytes
      if (isString(a) && isString(b)) return cmpStr(a.string, b.string);
      if (!isBytes(a) || !isBytes(b)) throw mismatch('bytes', isBytes(a) ? b : a);
      return cmpStr(a.bytes.toLowerCase(), b.bytes.toLowerCase());
    case 'bool': {
      const x = isPrim(a) && a.prim === 'True' ? 1 : 0;
      const y = isPrim(b) && b.prim === 'True' ? 1 : 0;
      return sign(x - y);
    }
    case 'unit':
    case 'never':
      return 0;
    case 'address':
    case 'key_hash':
    case 'key':
    case 'signature':
    case 'chain_id':
      return cmpStr(binary(t.prim, a), binary(t.prim, b));
    case 'pair': {
      const [al, ar] = pairParts(a);
      const [bl, br] = pairParts(b);
      return compareValues(t.args[0]!, al, bl) || compareValues(t.args[1]!, ar, br);
    }
    case 'option': {
      const an = isPrim(a) && a.prim === 'None';
      const bn = isPrim(b) && b.prim === 'None';
      if (an || bn) return an && bn ? 0 : an ? -1 : 1;
      if (!isPrim(a) || !isPrim(b) || !a.args?.[0] || !b.args?.[0]) throw mismatch('option', a);
      return compareValues(t.args[0]!, a.args[0], b.args[0]);
    }
    case 'or': {
      if (!isPrim(a) || !isPrim(b) || !a.args?.[0] || !b.args?.[0]) throw mismatch('or', a);
      if (a.prim !== b.prim) return a.prim === 'Left' ? -1 : 1;
      return compareValues(t.args[a.prim === 'Left' ? 0 : 1]!, a.args[0], b.args[0]);
    }
    default:
      throw new MichelsonDataError(`type ${t.prim} is not comparable`);
  }
}
