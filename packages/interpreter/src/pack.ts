/**
 * Binary Micheline (the PACK format) written for the interpreter: unlike michel-codec's packData it handles
 * tz4/sr1 addresses, BLS signatures and bls12_381_fr (32 little-endian bytes) like Octez.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import type { DataContext } from './data';
import { parseData, unparse } from './data';
import { bytesToHex, exprHash, hexToBytes } from './encoding';
import { MichelsonError, staticError } from './errors';
import type { Expr, Ty } from './types';
import { isPrim } from './types';
import type { V } from './values';

// Octez michelson_v1_primitives order (the binary tag is the index).
export const PRIMITIVES = (
  'parameter storage code False Elt Left None Pair Right Some True Unit PACK UNPACK BLAKE2B SHA256 SHA512 ABS ADD ' +
  'AMOUNT AND BALANCE CAR CDR CHECK_SIGNATURE COMPARE CONCAT CONS CREATE_ACCOUNT CREATE_CONTRACT IMPLICIT_ACCOUNT DIP ' +
  'DROP DUP EDIV EMPTY_MAP EMPTY_SET EQ EXEC FAILWITH GE GET GT HASH_KEY IF IF_CONS IF_LEFT IF_NONE INT LAMBDA LE LEFT ' +
  'LOOP LSL LSR LT MAP MEM MUL NEG NEQ NIL NONE NOT NOW OR PAIR PUSH RIGHT SIZE SOME SOURCE SENDER SELF ' +
  'STEPS_TO_QUOTA SUB SWAP TRANSFER_TOKENS SET_DELEGATE UNIT UPDATE XOR ITER LOOP_LEFT ADDRESS CONTRACT ISNAT CAST ' +
  'RENAME bool contract int key key_hash lambda list map big_map nat option or pair set signature string bytes mutez ' +
  'timestamp unit operation address SLICE DIG DUG EMPTY_BIG_MAP APPLY chain_id CHAIN_ID LEVEL SELF_ADDRESS never ' +
  'NEVER UNPAIR VOTING_POWER TOTAL_VOTING_POWER KECCAK SHA3 PAIRING_CHECK bls12_381_g1 bls12_381_g2 bls12_381_fr ' +
  'sapling_state sapling_transaction_deprecated SAPLING_EMPTY_STATE SAPLING_VERIFY_UPDATE ticket TICKET_DEPRECATED ' +
  'READ_TICKET SPLIT_TICKET JOIN_TICKETS GET_AND_UPDATE chest chest_key OPEN_CHEST VIEW view constant SUB_MUTEZ ' +
  'tx_rollup_l2_address MIN_BLOCK_TIME sapling_transaction EMIT Lambda_rec LAMBDA_REC TICKET BYTES NAT Ticket ' +
  'IS_IMPLICIT_ACCOUNT INDEX_ADDRESS GET_ADDRESS_INDEX'
).split(' ');
const PRIM_TAG = new Map(PRIMITIVES.map((p, i) => [p, i]));

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
}

function writeZarith(w: Writer, n: bigint): void {
  let abs = n < 0n ? -n : n;
  let first = Number(abs & 0x3fn) | (n < 0n ? 0x40 : 0);
  abs >>= 6n;
  if (abs > 0n) first |= 0x80;
  w.byte(first);
  while (abs > 0n) {
    let b = Number(abs & 0x7fn);
    abs >>= 7n;
    if (abs > 0n) b |= 0x80;
    w.byte(b);
  }
}

const utf8 = new TextEncoder();
function writeExpr(w: Writer, e: Expr): void {
  if (Array.isArray(e)) {
    const inner = new Writer();
    for (const x of e) writeExpr(inner, x);
    w.byte(2);
    w.u32(inner.parts.length);
    w.raw(inner.parts);
    return;
  }
  if ('int' in e) {
    w.byte(0);
    writeZarith(w, BigInt(e.int));
    return;
  }
  if ('string' in e) {
    const b = utf8.encode(e.string);
    w.byte(1);
    w.u32(b.length);
    w.raw(b);
    return;
  }
  if ('bytes' in e) {
    const b = hexToBytes(e.bytes);
    w.byte(10);
    w.u32(b.length);
    w.raw(b);
    return;
  }
  const tag = PRIM_TAG.get(e.prim);
  if (tag === undefined) throw staticError('invalid_primitive', `unknown primitive ${e.prim}`);
  const args = e.args ?? [];
  const annots = e.annots ?? [];
  const hasAnnots = annots.length > 0;
  if (args.length <= 2) {
    w.byte(3 + args.length * 2 + (hasAnnots ? 1 : 0));
    w.byte(tag);
    for (const a of args) writeExpr(w, a);
  } else {
    w.byte(9);
    w.byte(tag);
    const inner = new Writer();
    for (const a of args) writeExpr(inner, a);
    w.u32(inner.parts.length);
    w.raw(inner.parts);
  }
  if (hasAnnots || args.length > 2) {
    const b = utf8.encode(annots.join(' '));
    w.u32(b.length);
    w.raw(b);
  }
}

export function encodeExpr(e: Expr): Uint8Array {
  const w = new Writer();
  writeExpr(w, e);
  return Uint8Array.from(w.parts);
}

class Reader {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  byte(): number {
    const x = this.b[this.pos++];
    if (x === undefined) throw new Error('unexpected end of bytes');
    return x;
  }
  u32(): number {
    const n = ((this.byte() << 24) | (this.byte() << 16) | (this.byte() << 8) | this.byte()) >>> 0;
    if (this.pos + n > this.b.length) throw new Error('length beyond end of bytes');
    return n;
  }
  slice(n: number): Uint8Array {
    const s = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
}

const utf8d = new TextDecoder('utf-8', { fatal: true });
function readExpr(r: Reader, depth = 0): Expr {
  if (depth > 10000) throw new Error('expression too deep');
  const tag = r.byte();
  switch (tag) {
    case 0: {
      let b = r.byte();
      const neg = (b & 0x40) !== 0;
      let v = BigInt(b & 0x3f);
      let shift = 6n;
      while (b & 0x80) {
        b = r.byte();
        if (b === 0) throw new Error('non-canonical zarith');
        v |= BigInt(b & 0x7f) << shift;
        shift += 7n;
      }
      if (neg && v === 0n) throw new Error('negative zero');
      return { int: (neg ? -v : v).toString() };
    }
    case 1:
      return { string: utf8d.decode(r.slice(r.u32())) };
    case 2: {
      const end = r.u32() + r.pos;
      const out: Expr[] = [];
      while (r.pos < end) out.push(readExpr(r, depth + 1));
      if (r.pos !== end) throw new Error('bad sequence length');
      return out;
    }
    case 10:
      return { bytes: bytesToHex(r.slice(r.u32())) };
    default: {
      if (tag < 3 || tag > 9) throw new Error(`bad tag ${tag}`);
      const p = PRIMITIVES[r.byte()];
      if (p === undefined) throw new Error('unknown primitive');
      const args: Expr[] = [];
      let annots: string[] = [];
      if (tag === 9) {
        const end = r.u32() + r.pos;
        while (r.pos < end) args.push(readExpr(r, depth + 1));
        if (r.pos !== end) throw new Error('bad args length');
      } else {
        const n = (tag - 3) >> 1;
        for (let i = 0; i < n; i++) args.push(readExpr(r, depth + 1));
      }
      if (tag === 9 || tag % 2 === 0) {
        const s = utf8d.decode(r.slice(r.u32()));
        annots = s === '' ? [] : s.split(' ');
      }
      const out: Expr = { prim: p };
      if (args.length) out.args = args;
      if (annots.length) out.annots = annots;
      return out;
    }
  }
}

export function decodeExpr(bytes: Uint8Array): Expr {
  const r = new Reader(bytes);
  const e = readExpr(r);
  if (r.pos !== bytes.length) throw new Error('trailing bytes');
  return e;
}

/** PACK: 0x05 followed by the binary Micheline of the Optimized_legacy form. */
export function packValue(v: V): string {
  return '05' + bytesToHex(encodeExpr(unparse(v, 'Optimized_legacy')));
}

/** UNPACK: null when the bytes are not a well-typed packed value of `t`. */
export function unpackValue(hex: string, t: Ty, ctx: DataContext): V | null {
  if (!hex.startsWith('05')) return null;
  let e: Expr;
  try {
    e = decodeExpr(hexToBytes(hex.slice(2)));
  } catch {
    return null;
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
  const packed = hexToBytes(packValue(v));
  return exprHash(bytesToHex(blake2b(packed, { dkLen: 32 })));
}

export function isPrimExpr(e: Expr, p: string): boolean {
  return isPrim(e) && e.prim === p;
}
