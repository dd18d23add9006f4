/**
 * Base58check with Tezos prefixes: `tz1…` ⇄ 20-byte hash, `o…` ⇄ operation hash, `Net…` ⇄ chain id…
 * The codec is @scure/base's base58check (double SHA-256 checksum); the prefix table is Tezos's
 * (bytes and payload length per human prefix, as Octez defines them).
 */
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { MichelsonDataError } from './micheline';

const codec = createBase58check(sha256);

export interface Base58Prefix {
  /** Human prefix the encoded string starts with (`tz1`, `KT1`, `expr`, `o`…). */
  name: string;
  /** Bytes put before the payload. */
  bytes: readonly number[];
  /** Payload length in bytes. */
  length: number;
}

const p = (name: string, bytes: number[], length: number): Base58Prefix => ({ name, bytes, length });

/** Tezos base58 prefixes (longest human prefixes first, so that `spsig1` wins over `sig`). */
export const BASE58_PREFIXES: readonly Base58Prefix[] = [
  p('tz1', [6, 161, 159], 20),
  p('tz2', [6, 161, 161], 20),
  p('tz3', [6, 161, 164], 20),
  p('tz4', [6, 161, 166], 20),
  p('KT1', [2, 90, 121], 20),
  p('txr1', [1, 128, 120, 31], 20),
  p('sr1', [6, 124, 117], 20),
  p('SG1', [3, 56, 226], 20),
  p('expr', [13, 44, 64, 27], 32),
  p('edpk', [13, 15, 37, 217], 32),
  p('sppk', [3, 254, 226, 86], 33),
  p('p2pk', [3, 178, 139, 127], 33),
  p('BLpk', [6, 149, 135, 204], 48),
  p('edsig', [9, 245, 205, 134, 18], 64),
  p('spsig1', [13, 115, 101, 19, 63], 64),
  p('p2sig', [54, 240, 44, 52], 64),
  p('BLsig', [40, 171, 64, 207], 96),
  p('sig', [4, 130, 43], 64),
  p('src1', [17, 165, 134, 138], 32),
  p('srs1', [17, 165, 235, 240], 32),
  p('Net', [87, 82, 0], 4),
  p('LLo', [29, 159, 109], 32),
  p('Lo', [133, 233], 32),
  p('Co', [79, 199], 32),
  p('B', [1, 52], 32),
  p('P', [2, 170], 32),
  p('o', [5, 116], 32),
];

const byName = new Map(BASE58_PREFIXES.map((x) => [x.name, x]));

/** The prefix entry of a human prefix name (`tz1`, `sig`…), or undefined. */
export function base58Prefix(name: string): Base58Prefix | undefined {
  return byName.get(name);
}

function fail(msg: string): never {
  throw new MichelsonDataError(msg);
}

function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h))
    fail(`invalid hex ${JSON.stringify(hex.slice(0, 80))}`);
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesToHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

function resolvePrefix(prefix: string | readonly number[] | Uint8Array): readonly number[] {
  if (typeof prefix !== 'string') return Array.from(prefix);
  return base58Prefix(prefix)?.bytes ?? fail(`unknown base58 prefix ${JSON.stringify(prefix)}`);
}

/**
 * Base58check of `prefix ‖ payload`. `payload` is hex (either case) or bytes; `prefix` a human name
 * (`tz1`, `KT1`, `sig`, `Net`, `o`…) or raw prefix bytes.
 */
export function encodeBase58(
  payload: string | Uint8Array,
  prefix: string | readonly number[] | Uint8Array,
): string {
  const body = typeof payload === 'string' ? hexToBytes(payload) : payload;
  const pre = resolvePrefix(prefix);
  if (typeof prefix === 'string') {
    const want = base58Prefix(prefix)?.length;
    if (want !== undefined && body.length !== want)
      fail(`${prefix} payload must be ${want} bytes, got ${body.length}`);
  }
  const all = new Uint8Array(pre.length + body.length);
  all.set(pre, 0);
  all.set(body, pre.length);
  return codec.encode(all);
}

/** Raw base58check decoding (prefix kept); throws on a bad alphabet or checksum. */
export function decodeBase58Raw(b58: string): Uint8Array {
  if (typeof b58 !== 'string' || b58.length === 0 || b58.length > 512) fail('invalid base58 string');
  try {
    return codec.decode(b58);
  } catch {
    return fail(`invalid base58check string ${JSON.stringify(b58.slice(0, 80))}`);
  }
}

function startsWith(all: Uint8Array, pre: readonly number[]): boolean {
  return all.length >= pre.length && pre.every((x, i) => all[i] === x);
}

/**
 * Payload (lower-case hex) of a base58check string, its prefix checked and stripped. Without `prefix` the
 * prefix is recognised from the string's start (and the payload length must fit it).
 */
export function decodeBase58(b58: string, prefix?: string | readonly number[] | Uint8Array): string {
  const all = decodeBase58Raw(b58);
  if (prefix !== undefined) {
    const pre = resolvePrefix(prefix);
    if (!startsWith(all, pre)) fail(`${b58.slice(0, 80)} does not have the expected prefix`);
    return bytesToHex(all.subarray(pre.length));
  }
  const entry = BASE58_PREFIXES.find(
    (x) => b58.startsWith(x.name) && startsWith(all, x.bytes) && all.length === x.bytes.length + x.length,
  );
  if (!entry) fail(`unknown base58 prefix in ${JSON.stringify(b58.slice(0, 80))}`);
  return bytesToHex(all.subarray(entry.bytes.length));
}

/** Whether `b58` is valid base58check with one of the given human prefixes and the right payload length. */
export function isBase58With(b58: string, names: readonly string[]): boolean {
  if (typeof b58 !== 'string') return false;
  for (const name of names) {
    const entry = byName.get(name);
    if (!entry || !b58.startsWith(name)) continue;
    try {
      const all = codec.decode(b58);
      if (startsWith(all, entry.bytes) && all.length === entry.bytes.length + entry.length) return true;
    } catch {
      return false;
    }
  }
  return false;
}
