/**
 * Base58 <-> binary forms of addresses, keys, key hashes, signatures and chain ids (Octez binary encodings),
 * built on @taquito/utils' prefix table. Every decoder throws a static `ill_typed` error on bad input.
 */
import { b58DecodeAndCheckPrefix, b58Encode, PrefixV2 } from '@taquito/utils';
import { staticError } from './errors';

export function hexToBytes(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex))
    throw staticError('invalid_bytes', `invalid hex ${hex.slice(0, 40)}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}
const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
export function bytesToHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += HEX[x] as string;
  return s;
}

const PKH_PREFIXES = [
  PrefixV2.Ed25519PublicKeyHash,
  PrefixV2.Secp256k1PublicKeyHash,
  PrefixV2.P256PublicKeyHash,
  PrefixV2.BLS12_381PublicKeyHash,
] as const;
const KEY_PREFIXES = [
  PrefixV2.Ed25519PublicKey,
  PrefixV2.Secp256k1PublicKey,
  PrefixV2.P256PublicKey,
  PrefixV2.BLS12_381PublicKey,
] as const;
const SIG_PREFIXES = [
  PrefixV2.Ed25519Signature,
  PrefixV2.Secp256k1Signature,
  PrefixV2.P256Signature,
  PrefixV2.GenericSignature,
  PrefixV2.BLS12_381Signature,
] as const;

function decode<T extends readonly PrefixV2[]>(s: string, allowed: T, what: string): [Uint8Array, T[number]] {
  try {
    return b58DecodeAndCheckPrefix(s, allowed);
  } catch {
    throw staticError('invalid_' + what, `invalid ${what}: ${s.slice(0, 60)}`);
  }
}

/** key_hash -> 21 bytes (tag + 20-byte hash). */
export function keyHashToHex(s: string): string {
  const [b, p] = decode(s, PKH_PREFIXES, 'key_hash');
  return HEX[PKH_PREFIXES.indexOf(p)] + bytesToHex(b);
}
export function keyHashFromHex(hex: string): string {
  const tag = parseInt(hex.slice(0, 2), 16);
  const p = PKH_PREFIXES[tag];
  if (p === undefined || hex.length !== 42)
    throw staticError('invalid_key_hash', `invalid key_hash bytes ${hex}`);
  return b58Encode(hex.slice(2), p);
}

/** Address (without entrypoint) -> 22 bytes. */
export function addressToHex(s: string): string {
  if (s.startsWith('KT1')) return '01' + bytesToHex(decode(s, [PrefixV2.ContractHash], 'address')[0]) + '00';
  if (s.startsWith('sr1'))
    return '03' + bytesToHex(decode(s, [PrefixV2.SmartRollupHash], 'address')[0]) + '00';
  if (s.startsWith('tz')) return '00' + keyHashToHex(s);
  throw staticError('invalid_address', `invalid address: ${s.slice(0, 60)}`);
}
export function addressFromHex(hex: string): string {
  if (hex.length !== 44) throw staticError('invalid_address', `invalid address bytes ${hex}`);
  const tag = hex.slice(0, 2);
  if (tag === '00') return keyHashFromHex(hex.slice(2));
  if (hex.slice(42) !== '00') throw staticError('invalid_address', `invalid address padding ${hex}`);
  if (tag === '01') return b58Encode(hex.slice(2, 42), PrefixV2.ContractHash);
  if (tag === '03') return b58Encode(hex.slice(2, 42), PrefixV2.SmartRollupHash);
  throw staticError('invalid_address', `invalid address tag ${tag}`);
}

/** Splits "KT1...%ep" into address and entrypoint ('' for default). */
export function splitAddress(s: string): { address: string; entrypoint: string } {
  const i = s.indexOf('%');
  if (i < 0) return { address: s, entrypoint: '' };
  const entrypoint = s.slice(i + 1);
  if (entrypoint === 'default')
    throw staticError('invalid_address', 'explicit %default entrypoint in address');
  if (entrypoint.length === 0 || entrypoint.length > 31) {
    throw staticError('invalid_address', `invalid entrypoint in address: ${s.slice(0, 80)}`);
  }
  return { address: s.slice(0, i), entrypoint };
}

export function keyToHex(s: string): string {
  const [b, p] = decode(s, KEY_PREFIXES, 'key');
  return HEX[KEY_PREFIXES.indexOf(p)] + bytesToHex(b);
}
const KEY_LEN = [32, 33, 33, 48];
export function keyFromHex(hex: string): string {
  const tag = parseInt(hex.slice(0, 2), 16);
  const p = KEY_PREFIXES[tag];
  if (p === undefined || hex.length !== 2 + 2 * (KEY_LEN[tag] as number))
    throw staticError('invalid_key', `invalid key bytes`);
  return b58Encode(hex.slice(2), p);
}
/** Length in bytes of a binary key starting at the tag. */
export function keyBinLength(tag: number): number {
  const l = KEY_LEN[tag];
  if (l === undefined) throw staticError('invalid_key', `invalid key tag ${tag}`);
  return l + 1;
}

export type SigScheme = 'ed25519' | 'secp256k1' | 'p256' | 'generic' | 'bls';
export function signatureToHex(s: string): { hex: string; scheme: SigScheme } {
  const [b, p] = decode(s, SIG_PREFIXES, 'signature');
  const scheme: SigScheme =
    p === PrefixV2.Ed25519Signature
      ? 'ed25519'
      : p === PrefixV2.Secp256k1Signature
        ? 'secp256k1'
        : p === PrefixV2.P256Signature
          ? 'p256'
          : p === PrefixV2.BLS12_381Signature
            ? 'bls'
            : 'generic';
  return { hex: bytesToHex(b), scheme };
}
export function signatureFromHex(hex: string): string {
  if (hex.length === 128) return b58Encode(hex, PrefixV2.GenericSignature);
  if (hex.length === 192) return b58Encode(hex, PrefixV2.BLS12_381Signature);
  throw staticError('invalid_signature', 'invalid signature bytes');
}

export function chainIdToHex(s: string): string {
  return bytesToHex(decode(s, [PrefixV2.ChainID], 'chain_id')[0]);
}
export function chainIdFromHex(hex: string): string {
  if (hex.length !== 8) throw staticError('invalid_chain_id', 'invalid chain_id bytes');
  return b58Encode(hex, PrefixV2.ChainID);
}

export function contractHashFromBytes(hashHex: string): string {
  return b58Encode(hashHex, PrefixV2.ContractHash);
}
export function keyHashB58FromRaw(hashHex: string, tag: number): string {
  const p = PKH_PREFIXES[tag];
  if (p === undefined) throw staticError('invalid_key', 'bad key tag');
  return b58Encode(hashHex, p);
}
export function exprHash(hashHex: string): string {
  return b58Encode(hashHex, PrefixV2.ScriptExpr);
}
