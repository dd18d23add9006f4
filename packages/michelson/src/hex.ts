/**
 * Hex ⇄ bytes, the one helper of the repository: @noble/hashes' codec, with its errors turned into
 * MichelsonDataError and an optional `0x` prefix accepted.
 */
import { bytesToHex as nobleBytesToHex, hexToBytes as nobleHexToBytes } from '@noble/hashes/utils.js';
import { MichelsonDataError } from './micheline-core';

/** Lower-case hex of bytes. */
export const bytesToHex = (bytes: Uint8Array): string => nobleBytesToHex(bytes);

/** Bytes of a hex string (either case, optional `0x`); throws MichelsonDataError on bad input. */
export function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  try {
    return nobleHexToBytes(h);
  } catch {
    throw new MichelsonDataError(`invalid hex ${JSON.stringify(hex.slice(0, 80))}`, 'invalid_bytes');
  }
}

/** Whether a string is hex of whole bytes (no prefix). */
export const isHex = (hex: string): boolean => hex.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(hex);
