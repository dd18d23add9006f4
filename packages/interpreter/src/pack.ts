/**
 * PACK / UNPACK of typed runtime values, through @michelscope/michelson's binary codec (the one codec of
 * the repository: it handles tz4/sr1 addresses, BLS signatures and bls12_381_fr like Octez).
 */
import {
  bytesToHex,
  decodeMicheline,
  encodeMicheline,
  exprHashOf,
  hexToBytes,
  MichelsonDataError,
} from '@michelscope/michelson';
import type { DataContext } from './data';
import { parseData, unparse } from './data';
import { MichelsonError } from './errors';
import type { Expr, Ty } from './types';
import type { V } from './values';

/** Binary Micheline of an expression (no 0x05 prefix). */
export const encodeExpr = encodeMicheline;
/** The expression of binary Micheline (no 0x05 prefix); throws MichelsonDataError on bad bytes. */
export const decodeExpr = decodeMicheline;

/** PACK: 0x05 followed by the binary Micheline of the Optimized_legacy form. */
export function packValue(v: V): string {
  return '05' + bytesToHex(encodeMicheline(unparse(v, 'Optimized_legacy')));
}

/** UNPACK: null when the bytes are not a well-typed packed value of `t`. */
export function unpackValue(hex: string, t: Ty, ctx: DataContext): V | null {
  if (!hex.startsWith('05')) return null;
  let e: Expr;
  try {
    e = decodeMicheline(hexToBytes(hex.slice(2)));
  } catch (err) {
    if (err instanceof MichelsonDataError) return null;
    throw err;
  }
  try {
    return parseData(e, t, { ...ctx, bigMap: undefined, allowTickets: false });
  } catch (err) {
    if (err instanceof MichelsonError && err.kind !== 'ill_typed') throw err;
    return null;
  }
}

/** Script-expression hash (`expr…`) of a value, as used for big-map keys. */
export function scriptExprHash(v: V): string {
  return exprHashOf(packValue(v));
}
