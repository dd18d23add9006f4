/**
 * Binary Micheline (the encoding inside PACK, without its 0x05 prefix): the one codec of the repository.
 * Opcodes come from @taquito/local-forging's table (Octez's michelson_v1_primitives order); the node
 * encoding is written here because local-forging mis-encodes primitives with more than two arguments
 * (tag 0x09) and michel-codec refuses nodes that are not valid Michelson. Decoding is strict like Octez
 * (canonical zarith, no negative zero, exact lengths), so UNPACK of the interpreter can rely on it.
 */
import { opMapping, opMappingReverse } from '@taquito/local-forging';
import { bytesToHex, hexToBytes } from './hex';
import { isBytes, isInt, isPrim, isString, MichelsonDataError } from './micheline-core';
import type { Micheline, MichelinePrim } from './micheline-core';
import { addressToHex, keyFromHex, keyHashFromHex } from './binary-forms';
import { decodeAddressBytes } from './value';
import { decodeBase58, encodeBase58 } from './base58';

const OPS = opMapping as Record<string, string>;
const OPCODES = opMappingReverse as Record<string, string>;
const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });
const MAX_DEPTH = 10_000;

const fail = (msg: string): never => {
  throw new MichelsonDataError(`binary Micheline: ${msg}`);
};

/*
 * Zarith (Octez's variable-length integers: 7 bits per byte, least significant first, high bit = more
 * bytes follow; the signed form keeps 6 bits and the sign in the first byte). Both directions go through
 * the magnitude's hexadecimal digits, which V8 converts to and from a BigInt in linear time, so a
 * 1,000,000-digit integer costs milliseconds, where shifting a BigInt by 7 bits per byte is quadratic.
 */

/** Zarith bytes of `n` (`signed`: Micheline ints and Octez's `z`; else `n`, which must be ≥ 0). */
export function zarithBytes(n: bigint, signed: boolean): number[] {
  const neg = n < 0n;
  if (neg && !signed) fail(`a natural number cannot be negative: ${n}`);
  const hex = (neg ? -n : n).toString(16);
  // The magnitude's hex digits, least significant first.
  const nibbles = new Uint8Array(hex.length);
  for (let i = 0; i < hex.length; i++) nibbles[i] = parseInt(hex[hex.length - 1 - i]!, 16);
  const bits = hex === '0' ? 0 : (hex.length - 1) * 4 + nibbles[hex.length - 1]!.toString(2).length;
  const bit = (i: number): number => (i >= bits ? 0 : (nibbles[i >> 2]! >> (i & 3)) & 1);
  const group = (from: number, width: number): number => {
    let v = 0;
    for (let j = 0; j < width; j++) v |= bit(from + j) << j;
    return v;
  };
  const out: number[] = [];
  const firstWidth = signed ? 6 : 7;
  let value = group(0, firstWidth) | (neg ? 0x40 : 0);
  for (let pos = firstWidth; pos < bits; pos += 7) {
    out.push(value | 0x80);
    value = group(pos, 7);
  }
  out.push(value);
  return out;
}

/** The integer (decimal text) of complete zarith bytes, refusing non-canonical forms as Octez does. */
export function zarithValue(bytes: Uint8Array, signed: boolean): string {
  const last = bytes.length - 1;
  if (last > 0 && bytes[last] === 0) fail('non-canonical integer');
  const neg = signed && (bytes[0]! & 0x40) !== 0;
  const firstWidth = signed ? 6 : 7;
  const bits = firstWidth + 7 * last;
  const nibbles = new Uint8Array(Math.ceil(bits / 4));
  let pos = 0;
  const put = (v: number, width: number): void => {
    for (let j = 0; j < width; j++, pos++) if ((v >> j) & 1) nibbles[pos >> 2]! |= 1 << (pos & 3);
  };
  put(bytes[0]! & (signed ? 0x3f : 0x7f), firstWidth);
  for (let i = 1; i <= last; i++) put(bytes[i]! & 0x7f, 7);
  let hex = '';
  for (let i = nibbles.length - 1; i >= 0; i--) hex += nibbles[i]!.toString(16);
  const n = BigInt(`0x${hex}`);
  if (neg && n === 0n) fail('negative zero');
  return (neg ? -n : n).toString();
}

class Writer {
  parts: number[] = [];
  byte(b: number): void {
    this.parts.push(b);
  }
  u32(n: number): void {
    this.parts.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  }
  raw(b: Uint8Array | number[]): void {
    for (const x of b) this.parts.push(x);
  }
  zarith(value: string): void {
    if (!/^-?\d+$/.test(value)) fail(`invalid integer ${value}`);
    for (const b of zarithBytes(BigInt(value), true)) this.byte(b);
  }
  text(b: Uint8Array | number[]): void {
    this.u32(b.length);
    this.raw(b);
  }
  node(e: Micheline, depth: number): void {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    if (Array.isArray(e)) {
      const inner = new Writer();
      for (const x of e) inner.node(x, depth + 1);
      this.byte(0x02);
      this.text(inner.parts);
    } else if (isPrim(e)) this.prim(e, depth);
    else if (isInt(e)) {
      this.byte(0x00);
      this.zarith(e.int);
    } else if (isString(e)) {
      this.byte(0x01);
      this.text(enc.encode(e.string));
    } else if (isBytes(e)) {
      this.byte(0x0a);
      this.text(hexToBytes(e.bytes));
    } else fail('not a Micheline node');
  }
  prim(e: MichelinePrim, depth: number): void {
    const op = OPCODES[e.prim] ?? fail(`unknown primitive ${e.prim}`);
    const args = e.args ?? [];
    const annots = e.annots ?? [];
    const hasAnnots = annots.length > 0;
    if (args.length <= 2) {
      this.byte(3 + args.length * 2 + (hasAnnots ? 1 : 0));
      this.byte(parseInt(op, 16));
      for (const a of args) this.node(a, depth + 1);
    } else {
      this.byte(0x09);
      this.byte(parseInt(op, 16));
      const inner = new Writer();
      for (const a of args) inner.node(a, depth + 1);
      this.text(inner.parts);
    }
    if (hasAnnots || args.length > 2) this.text(enc.encode(annots.join(' ')));
  }
}

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.pos >= this.bytes.length) fail('unexpected end of data');
    return this.bytes[this.pos++]!;
  }
  u32(): number {
    let n = 0;
    for (let i = 0; i < 4; i++) n = n * 256 + this.byte();
    return n;
  }
  take(n: number): Uint8Array {
    if (this.pos + n > this.bytes.length) fail('length beyond the end of data');
    const s = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  zarith(signed = true): string {
    const start = this.pos;
    while (this.byte() & 0x80);
    return zarithValue(this.bytes.subarray(start, this.pos), signed);
  }
  text(): string {
    const b = this.take(this.u32());
    try {
      return dec.decode(b);
    } catch {
      return fail('invalid UTF-8 string');
    }
  }
  node(depth: number): Micheline {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    const tag = this.byte();
    switch (tag) {
      case 0x00:
        return { int: this.zarith() };
      case 0x01:
        return { string: this.text() };
      case 0x02:
        return this.until(this.u32() + this.pos, depth, 'sequence');
      case 0x0a:
        return { bytes: bytesToHex(this.take(this.u32())) };
      default: {
        if (tag < 0x03 || tag > 0x09) return fail(`unknown tag ${tag.toString(16)}`);
        const opHex = this.byte().toString(16).padStart(2, '0');
        const node: MichelinePrim = { prim: OPS[opHex] ?? fail(`unknown opcode ${opHex}`) };
        const args =
          tag === 0x09
            ? this.until(this.u32() + this.pos, depth, 'arguments')
            : Array.from({ length: (tag - 3) >> 1 }, () => this.node(depth + 1));
        if (args.length > 0) node.args = args;
        if (tag === 0x09 || tag % 2 === 0) {
          const text = this.text();
          if (text !== '') node.annots = text.split(' ');
        }
        return node;
      }
    }
  }
  private until(end: number, depth: number, what: string): Micheline[] {
    if (end > this.bytes.length) fail('length beyond the end of data');
    const items: Micheline[] = [];
    while (this.pos < end) items.push(this.node(depth + 1));
    if (this.pos !== end) fail(`${what} length mismatch`);
    return items;
  }
}

/** Binary Micheline of one node. */
export function encodeMicheline(e: Micheline): Uint8Array {
  const w = new Writer();
  w.node(e, 0);
  return Uint8Array.from(w.parts);
}

/** The one node encoded in `bytes` (trailing bytes refused). */
export function decodeMicheline(bytes: Uint8Array): Micheline {
  const r = new Reader(bytes);
  const e = r.node(0);
  if (r.pos !== bytes.length) fail('trailing bytes');
  return e;
}

/** Binary encoding (hex) of Micheline nodes (concatenated; no 0x05 prefix); `asSequence` encodes an array as one node. */
export function forgeMicheline(nodes: Micheline | Micheline[], asSequence = false): string {
  const w = new Writer();
  if (Array.isArray(nodes) && !asSequence) for (const n of nodes) w.node(n, 0);
  else w.node(nodes, 0);
  return bytesToHex(Uint8Array.from(w.parts));
}

/** Decodes binary Micheline (hex, no 0x05 prefix) into its nodes. */
export function unforgeMicheline(hex: string): Micheline[] {
  const r = new Reader(hexToBytes(hex));
  const out: Micheline[] = [];
  while (r.pos < r.bytes.length) out.push(r.node(0));
  return out;
}

/** Zarith encoding of an integer (no tag): signed (Micheline int, `z`) or natural (`n`). */
export function forgeInt(value: string, signed = true): string {
  if (!/^-?\d+$/.test(value)) fail(`invalid integer ${value}`);
  return bytesToHex(Uint8Array.from(zarithBytes(BigInt(value), signed)));
}

/** Zarith integer at the start of `hex`: value and bytes consumed. */
export function unforgeInt(hex: string, signed = true): { consumed: number; value: string } {
  const r = new Reader(hexToBytes(hex));
  const value = r.zarith(signed);
  return { consumed: r.pos, value };
}

/** Forged string node: 0x01, 4-byte length, UTF-8. */
export function forgeString(s: string): string {
  return forgeMicheline({ string: s });
}

/** A 4-byte-length-prefixed UTF-8 string at the start of `hex`. */
export function unforgeString(hex: string): { consumed: number; value: string } {
  const r = new Reader(hexToBytes(hex));
  const value = r.text();
  return { consumed: r.pos, value };
}

/** Forged (22-byte, optimized) form of an address, with the entrypoint bytes when given `KT1…%ep`. */
export function forgeAddress(address: string): string {
  const [addr = '', ep] = address.split('%', 2);
  try {
    return addressToHex(addr) + (ep ? bytesToHex(enc.encode(ep)) : '');
  } catch {
    return fail(`invalid address ${address}`);
  }
}

/** Base58 address (with `%entrypoint`) of its forged form; 21 bytes are read as an implicit account (key hash). */
export function unforgeAddress(hex: string): string {
  if (hex.length === 42) {
    try {
      return keyHashFromHex(hex);
    } catch {
      return fail('invalid key hash bytes');
    }
  }
  return decodeAddressBytes(hex);
}

/** Base58 public key of its forged form (tag byte + key). */
export function unforgePublicKey(hex: string): string {
  try {
    return keyFromHex(hex);
  } catch {
    return fail('invalid public key bytes');
  }
}

/** `SG1…` baker hash of its 20 bytes (hex). */
export function unforgeBakerHash(hex: string): string {
  if (!/^[0-9a-fA-F]{40}$/.test(hex)) return fail('a baker hash is 20 bytes of hex');
  return encodeBase58(hex, 'SG1');
}

/** The 20 bytes (hex) of an `SG1…` baker hash. */
export function forgeBakerHash(hash: string): string {
  return decodeBase58(hash, 'SG1');
}
