/**
 * PACK / UNPACK of values against their types, through the one binary codec: PACK writes the optimized
 * form Octez writes (`Optimized_legacy`: binary right-comb pairs, addresses, keys, signatures, chain ids
 * as bytes, timestamps as ints, `bls12_381_fr` as 32 little-endian bytes); UNPACK reads it back in the
 * readable form.
 */
import { decodeMicheline, encodeMicheline } from './binary';
import { bytesToHex, hexToBytes } from './hex';
import { MichelsonDataError } from './micheline-core';
import type { Micheline } from './micheline-core';
import type { TypeNode } from './type-tree';
import { normalizeValue } from './value-forms';

/** PACK (hex, with the 0x05 prefix) of a value; without a type the value is encoded as it is. */
export function packData(value: Micheline, type?: Micheline | TypeNode): string {
  const v = type === undefined ? value : normalizeValue(type, value, 'optimized');
  return '05' + bytesToHex(encodeMicheline(v));
}

/** UNPACK of `05…` bytes: the value, readable when a type is given. Throws MichelsonDataError on bad input. */
export function unpackData(hex: string, type?: Micheline | TypeNode): Micheline {
  const bytes = hexToBytes(hex);
  if (bytes[0] !== 0x05) throw new MichelsonDataError('packed data must start with 0x05');
  const v = decodeMicheline(bytes.subarray(1));
  return type === undefined ? v : normalizeValue(type, v, 'readable');
}
