/**
 * Base58 ⇄ binary (Octez encodings) of addresses, key hashes, keys, signatures and chain ids, on top of
 * @taquito/utils' prefix table. Every decoder throws MichelsonDataError with an Octez-like `detail`
 * (`invalid_address`, `invalid_key`…) on bad input.
 */
import { b58DecodeAndCheckPrefix, b58Encode, PrefixV2 } from '@taquito/utils';
import { bytesToHex } from './hex';
import { MichelsonDataError } from './micheline-core';

const tagHex = (n: number): string => n.toString(16).padStart(2, '0');
const fail = (detail: string, message: string): never => {
  throw new MichelsonDataError(message, detail);
};

/** Implicit account prefixes, in tag order (tz1 = 0 … tz4 = 3). */
const PKH_PREFIXES = [
  PrefixV2.Ed25519PublicKeyHash,
  PrefixV2.Secp256k1PublicKeyHash,
  PrefixV2.P256PublicKeyHash,
  PrefixV2.BLS12_381PublicKeyHash,
] as const;
/** Public key prefixes, in tag order, and their payload lengths. */
const KEY_PREFIXES = [
  PrefixV2.Ed25519PublicKey,
  PrefixV2.Secp256k1PublicKey,
  PrefixV2.P256PublicKey,
  PrefixV2.BLS12_381PublicKey,
] as const;
const KEY_LEN = [32, 33, 33, 48];
const SIG_PREFIXES = [
  PrefixV2.Ed25519Signature,
  PrefixV2.Secp256k1Signature,
  PrefixV2.P256Signature,
  PrefixV2.GenericSignature,
  PrefixV2.BLS12_381Signature,
] as const;
/** Address tags after the implicit one: 01 KT1, 02 txr1 (tx rollups, Jakarta to Nairobi), 03 sr1. */
const HASH_ADDRESSES: Record<string, PrefixV2> = {
  '01': PrefixV2.ContractHash,
  '02': PrefixV2.TXRollupAddress,
  '03': PrefixV2.SmartRollupHash,
};

function decode<T extends readonly PrefixV2[]>(s: string, allowed: T, what: string): [Uint8Array, T[number]] {
  try {
    return b58DecodeAndCheckPrefix(s, allowed);
  } catch {
    return fail(`invalid_${what}`, `invalid ${what}: ${s.slice(0, 60)}`);
  }
}

/** key_hash → 21 bytes (tag + 20-byte hash). */
export function keyHashToHex(s: string): string {
  const [b, p] = decode(s, PKH_PREFIXES, 'key_hash');
  return tagHex(PKH_PREFIXES.indexOf(p)) + bytesToHex(b);
}
export function keyHashFromHex(hex: string): string {
  const p = PKH_PREFIXES[parseInt(hex.slice(0, 2), 16)];
  if (p === undefined || hex.length !== 42) return fail('invalid_key_hash', `invalid key_hash bytes ${hex}`);
  return b58Encode(hex.slice(2), p);
}

/** Address (without entrypoint) → 22 bytes: tag, 20-byte hash, then a tag byte or 00 padding. */
export function addressToHex(s: string): string {
  if (s.startsWith('tz')) return '00' + keyHashToHex(s);
  for (const [tag, prefix] of Object.entries(HASH_ADDRESSES))
    if (s.startsWith(prefix)) return tag + bytesToHex(decode(s, [prefix], 'address')[0]) + '00';
  return fail('invalid_address', `invalid address: ${s.slice(0, 60)}`);
}
export function addressFromHex(hex: string): string {
  if (hex.length !== 44) return fail('invalid_address', `invalid address bytes ${hex}`);
  const tag = hex.slice(0, 2);
  if (tag === '00') return keyHashFromHex(hex.slice(2));
  if (hex.slice(42) !== '00') return fail('invalid_address', `invalid address padding ${hex}`);
  const prefix = HASH_ADDRESSES[tag] ?? fail('invalid_address', `invalid address tag ${tag}`);
  return b58Encode(hex.slice(2, 42), prefix);
}

/** Splits "KT1...%ep" into address and entrypoint ('' for default). */
export function splitAddress(s: string): { address: string; entrypoint: string } {
  const i = s.indexOf('%');
  if (i < 0) return { address: s, entrypoint: '' };
  const entrypoint = s.slice(i + 1);
  if (entrypoint === 'default') fail('invalid_address', 'explicit %default entrypoint in address');
  if (entrypoint.length === 0 || entrypoint.length > 31)
    fail('invalid_address', `invalid entrypoint in address: ${s.slice(0, 80)}`);
  return { address: s.slice(0, i), entrypoint };
}

export function keyToHex(s: string): string {
  const [b, p] = decode(s, KEY_PREFIXES, 'key');
  return tagHex(KEY_PREFIXES.indexOf(p)) + bytesToHex(b);
}
export function keyFromHex(hex: string): string {
  const tag = parseInt(hex.slice(0, 2), 16);
  const p = KEY_PREFIXES[tag];
  if (p === undefined || hex.length !== 2 + 2 * KEY_LEN[tag]!)
    return fail('invalid_key', 'invalid key bytes');
  return b58Encode(hex.slice(2), p);
}
/** Length in bytes of a binary key starting at the tag. */
export function keyBinLength(tag: number): number {
  const l = KEY_LEN[tag] ?? fail('invalid_key', `invalid key tag ${tag}`);
  return l + 1;
}

export type SigScheme = 'ed25519' | 'secp256k1' | 'p256' | 'generic' | 'bls';
const SCHEMES: Record<string, SigScheme> = {
  [PrefixV2.Ed25519Signature]: 'ed25519',
  [PrefixV2.Secp256k1Signature]: 'secp256k1',
  [PrefixV2.P256Signature]: 'p256',
  [PrefixV2.BLS12_381Signature]: 'bls',
};
export function signatureToHex(s: string): { hex: string; scheme: SigScheme } {
  const [b, p] = decode(s, SIG_PREFIXES, 'signature');
  return { hex: bytesToHex(b), scheme: SCHEMES[p] ?? 'generic' };
}
/** 64 bytes → `sig…`, 96 bytes → `BLsig…`. */
export function signatureFromHex(hex: string): string {
  if (hex.length === 128) return b58Encode(hex, PrefixV2.GenericSignature);
  if (hex.length === 192) return b58Encode(hex, PrefixV2.BLS12_381Signature);
  return fail('invalid_signature', 'invalid signature bytes');
}

export function chainIdToHex(s: string): string {
  return bytesToHex(decode(s, [PrefixV2.ChainID], 'chain_id')[0]);
}
export function chainIdFromHex(hex: string): string {
  if (hex.length !== 8) return fail('invalid_chain_id', 'invalid chain_id bytes');
  return b58Encode(hex, PrefixV2.ChainID);
}

/** tx_rollup_l2_address (a tz4) → its 20-byte hash, and back. */
export function l2AddressToHex(s: string): string {
  return bytesToHex(decode(s, [PrefixV2.BLS12_381PublicKeyHash], 'tx_rollup_l2_address')[0]);
}
export function l2AddressFromHex(hex: string): string {
  if (hex.length !== 40) return fail('invalid_tx_rollup_l2_address', 'invalid tx_rollup_l2_address bytes');
  return b58Encode(hex, PrefixV2.BLS12_381PublicKeyHash);
}

export function contractHashFromBytes(hashHex: string): string {
  return b58Encode(hashHex, PrefixV2.ContractHash);
}
/** `o…` operation hash of 32 bytes (hex). */
export function operationHashFromBytes(hashHex: string): string {
  if (hashHex.length !== 64) return fail('invalid_operation_hash', 'an operation hash has 32 bytes');
  return b58Encode(hashHex, PrefixV2.OperationHash);
}
export function keyHashB58FromRaw(hashHex: string, tag: number): string {
  const p = PKH_PREFIXES[tag] ?? fail('invalid_key', 'bad key tag');
  return b58Encode(hashHex, p);
}
/** `expr…` of a 32-byte hash (hex). */
export function exprHash(hashHex: string): string {
  return b58Encode(hashHex, PrefixV2.ScriptExpr);
}
