/**
 * Binary Micheline (the optimized encoding inside PACK, without its 0x05 prefix) and its pieces:
 * zarith integers, strings, forged addresses and keys. Opcodes come from @taquito/local-forging's
 * table; the node encoding is written here because local-forging mis-encodes primitives with more
 * than two arguments (tag 0x09) and michel-codec refuses nodes that are not valid Michelson.
 */
import { opMapping, opMappingReverse } from '@taquito/local-forging';
import { b58DecodeAddress, encodeKey, encodeKeyHash } from '@taquito/utils';
import { isBytes, isInt, isPrim, isString, MichelsonDataError } from './micheline';
import type { Micheline, MichelinePrim } from './micheline';
import { decodeAddressBytes } from './value';
import { decodeBase58, encodeBase58 } from './base58';

const OPS = opMapping as Record<string, string>;
const OPCODES = opMappingReverse as Record<string, string>;
const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

const hexOf = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const u32 = (n: number): string => n.toString(16).padStart(8, '0');
const fail = (msg: string): never => {
  throw new MichelsonDataError(`binary Micheline: ${msg}`);
};

/** Zarith encoding of a signed integer (no tag). */
export function forgeInt(value: string): string {
  if (!/^-?\d+$/.test(value)) fail(`invalid integer ${value}`);
  let n = BigInt(value);
  const neg = n < 0n;
  if (neg) n = -n;
  const out: number[] = [];
  let first = Number(n & 0x3fn) | (neg ? 0x40 : 0);
  n >>= 6n;
  if (n > 0n) first |= 0x80;
  out.push(first);
  while (n > 0n) {
    let b = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) b |= 0x80;
    out.push(b);
  }
  return hexOf(Uint8Array.from(out));
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
      n |= BigInt(b & 0x7f) << shift;
      shift += 7n;
    }
    return (neg ? -n : n).toString();
  }
  text(): string {
    try {
      return dec.decode(this.take(this.u32()));
    } catch (e) {
      if (e instanceof MichelsonDataError) throw e;
      return fail('invalid UTF-8 string');
    }
  }
}

function fromHex(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) fail('invalid hex');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Zarith integer at the start of `hex`: value and bytes consumed. */
export function unforgeInt(hex: string): { consumed: number; value: string } {
  const r = new Reader(fromHex(hex));
  const value = r.zarith();
  return { consumed: r.pos, value };
}

/** Forged string node: 0x01, 4-byte length, UTF-8. */
export function forgeString(s: string): string {
  const b = enc.encode(s);
  return `01${u32(b.length)}${hexOf(b)}`;
}

/** A 4-byte-length-prefixed UTF-8 string at the start of `hex`. */
export function unforgeString(hex: string): { consumed: number; value: string } {
  const r = new Reader(fromHex(hex));
  const value = r.text();
  return { consumed: r.pos, value };
}

function forgeNode(n: Micheline, out: string[], depth: number): void {
  if (depth > 10_000) fail('nested too deeply');
  if (Array.isArray(n)) {
    const inner: string[] = [];
    for (const x of n) forgeNode(x, inner, depth + 1);
    const body = inner.join('');
    out.push(`02${u32(body.length / 2)}${body}`);
  } else if (isPrim(n)) out.push(forgePrim(n, depth));
  else if (isInt(n)) out.push(`00${forgeInt(n.int)}`);
  else if (isString(n)) out.push(forgeString(n.string));
  else if (isBytes(n)) out.push(`0a${u32(n.bytes.length / 2)}${n.bytes.toLowerCase()}`);
  else fail('not a Micheline node');
}

function forgePrim(n: MichelinePrim, depth: number): string {
  const op = OPCODES[n.prim] ?? fail(`unknown primitive ${n.prim}`);
  const args = n.args ?? [];
  const annots = n.annots && n.annots.length > 0 ? hexOf(enc.encode(n.annots.join(' '))) : undefined;
  const forgedArgs: string[] = [];
  for (const a of args) forgeNode(a, forgedArgs, depth + 1);
  const argHex = forgedArgs.join('');
  const annotHex = annots === undefined ? '' : `${u32(annots.length / 2)}${annots}`;
  if (args.length <= 2) {
    const tag = 3 + args.length * 2 + (annots === undefined ? 0 : 1);
    return `0${tag}${op}${argHex}${annotHex}`;
  }
  return `09${op}${u32(argHex.length / 2)}${argHex}${annots === undefined ? u32(0) : annotHex}`;
}

/** Binary encoding of Micheline nodes (concatenated; no 0x05 prefix). */
export function forgeMicheline(nodes: Micheline | Micheline[], asSequence = false): string {
  const out: string[] = [];
  if (Array.isArray(nodes) && !asSequence) for (const n of nodes) forgeNode(n, out, 0);
  else forgeNode(nodes, out, 0);
  return out.join('');
}

function readNode(r: Reader, depth: number): Micheline {
  if (depth > 10_000) fail('nested too deeply');
  const tag = r.byte();
  switch (tag) {
    case 0x00:
      return { int: r.zarith() };
    case 0x01:
      return { string: r.text() };
    case 0x02: {
      const end = r.u32() + r.pos;
      const items: Micheline[] = [];
      while (r.pos < end) items.push(readNode(r, depth + 1));
      if (r.pos !== end) fail('sequence length mismatch');
      return items;
    }
    case 0x0a:
      return { bytes: hexOf(r.take(r.u32())) };
    default: {
      if (tag < 0x03 || tag > 0x09) return fail(`unknown tag ${tag.toString(16)}`);
      const opHex = r.byte().toString(16).padStart(2, '0');
      const prim = OPS[opHex] ?? fail(`unknown opcode ${opHex}`);
      const node: MichelinePrim = { prim };
      let args: Micheline[] = [];
      let hasAnnots = tag % 2 === 0;
      if (tag === 0x09) {
        const end = r.u32() + r.pos;
        while (r.pos < end) args.push(readNode(r, depth + 1));
        hasAnnots = true;
      } else args = Array.from({ length: (tag - 3) >> 1 }, () => readNode(r, depth + 1));
      if (args.length > 0) node.args = args;
      if (hasAnnots) {
        const text = r.text();
        if (text !== '') node.annots = text.split(' ');
      }
      return node;
    }
  }
}

/** Decodes binary Micheline (no 0x05 prefix) into its nodes. */
export function unforgeMicheline(hex: string): Micheline[] {
  const r = new Reader(fromHex(hex));
  const out: Micheline[] = [];
  while (r.pos < r.bytes.length) out.push(readNode(r, 0));
  return out;
}

/** Forged (22-byte, optimized) form of an address, with the entrypoint bytes when given `KT1…%ep`. */
export function forgeAddress(address: string): string {
  const [addr = '', ep] = address.split('%', 2);
  try {
    return b58DecodeAddress(addr).toLowerCase() + (ep ? hexOf(enc.encode(ep)) : '');
  } catch {
    return fail(`invalid address ${address}`);
  }
}

/** Base58 address (with `%entrypoint`) of its forged form; 21 bytes are read as an implicit account (key hash). */
export function unforgeAddress(hex: string): string {
  if (hex.length === 42) {
    try {
      return encodeKeyHash(hex);
    } catch {
      return fail('invalid key hash bytes');
    }
  }
  return decodeAddressBytes(hex);
}

/** Base58 public key of its forged form (tag byte + key). */
export function unforgePublicKey(hex: string): string {
  try {
    return encodeKey(hex);
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
