/**
 * Base58check with Tezos prefixes: `tz1…` ⇄ 20-byte hash, `o…` ⇄ operation hash, `Net…` ⇄ chain id…
 * The prefix table is @taquito/utils' (its `PrefixV2` names and payload lengths; the prefix bytes are
 * read back from an encoded zero payload), plus `SG1` (baker hash), which Taquito does not know. The
 * codec is @scure/base's base58check, for raw prefix bytes too.
 */
import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { b58Encode, payloadLength, PrefixV2 } from '@taquito/utils';
import { bytesToHex, hexToBytes } from './hex';
import { MichelsonDataError } from './micheline-core';

const codec = createBase58check(sha256);

export interface Base58Prefix {
  /** Human prefix the encoded string starts with (`tz1`, `KT1`, `expr`, `o`…). */
  name: string;
  /** Bytes put before the payload. */
  bytes: readonly number[];
  /** Payload length in bytes. */
  length: number;
}

/** Taquito's entry for `name`, when its encodings do start with `name` (a few of its lengths are off). */
function fromTaquito(name: PrefixV2): Base58Prefix[] {
  const length = payloadLength[name];
  const zero = b58Encode(new Uint8Array(length), name);
  const top = b58Encode(new Uint8Array(length).fill(255), name);
  if (!zero.startsWith(name) || !top.startsWith(name)) return [];
  const all = codec.decode(zero);
  return [{ name, bytes: Array.from(all.subarray(0, all.length - length)), length }];
}

/** Tezos base58 prefixes (longest human prefixes first, so that `spsig1` wins over `sig`). */
export const BASE58_PREFIXES: readonly Base58Prefix[] = [
  ...Object.values(PrefixV2)
    .filter((name) => !name.startsWith('_'))
    .flatMap(fromTaquito),
  { name: 'SG1', bytes: [3, 56, 226], length: 20 },
].sort((a, b) => b.name.length - a.name.length);

const byName = new Map(BASE58_PREFIXES.map((x) => [x.name, x]));

/** The prefix entry of a human prefix name (`tz1`, `sig`…), or undefined. */
export function base58Prefix(name: string): Base58Prefix | undefined {
  return byName.get(name);
}

function fail(msg: string): never {
  throw new MichelsonDataError(msg);
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
