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
    let n = BigInt(value);
    const neg = n < 0n;
    if (neg) n = -n;
    let first = Number(n & 0x3fn) | (neg ? 0x40 : 0);
    n >>= 6n;
    if (n > 0n) first |= 0x80;
    this.byte(first);
    while (n > 0n) {
      let b = Number(n & 0x7fn);
      n >>= 7n;
      if (n > 0n) b |= 0x80;
      this.byte(b);
    }
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
  zarith(): string {
    let b = this.byte();
    const neg = (b & 0x40) !== 0;
    let n = BigInt(b & 0x3f);
    let shift = 6n;
    while (b & 0x80) {
      b = this.byte();
      if (b === 0) fail('non-canonical integer');
      n |= BigInt(b & 0x7f) << shift;
      shift += 7n;
    }
    if (neg && n === 0n) fail('negative zero');
    return (neg ? -n : n).toString();
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

/** Zarith encoding of a signed integer (no tag). */
export function forgeInt(value: string): string {
  const w = new Writer();
  w.zarith(value);
  return bytesToHex(Uint8Array.from(w.parts));
}

/** Zarith integer at the start of `hex`: value and bytes consumed. */
export function unforgeInt(hex: string): { consumed: number; value: string } {
  const r = new Reader(hexToBytes(hex));
  const value = r.zarith();
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
