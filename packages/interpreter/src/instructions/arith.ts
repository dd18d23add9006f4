/** Arithmetic, bitwise, comparison and conversion instructions on int/nat/mutez/timestamp/bytes/bool/BLS. */
import { blsAdd, blsMul, blsNeg } from '../bls';
import { compareChecked } from '../compare';
import { MichelsonError, staticError } from '../errors';
import type { Handler } from '../interpreter';
import { pop, register } from '../interpreter';
import type { Ty } from '../types';
import { T, showTy } from '../types';
import type { NumV, V } from '../values';
import { MUTEZ_MAX, asKind, bool, bytes, int, nat, none, pair, some, timestamp } from '../values';

const kinds = (a: V, b: V): string => `${a.t.prim}-${b.t.prim}`;
const mismatch = (ins: string, a: V, b?: V): MichelsonError =>
  staticError('bad_stack', `${ins} not defined on ${showTy(a.t)}${b ? ' and ' + showTy(b.t) : ''}`);

function mutezResult(v: bigint, a: bigint, b: bigint, under = false): NumV {
  if (v > MUTEZ_MAX)
    throw new MichelsonError('mutez_overflow', 'mutez overflow', { amounts: [a.toString(), b.toString()] });
  if (v < 0n || under)
    throw new MichelsonError('mutez_underflow', 'mutez underflow', { amounts: [a.toString(), b.toString()] });
  return { k: 'num', t: T.mutez, v };
}

function num(v: V): bigint {
  return asKind(v, 'num').v;
}

const ADD: Handler = (_it, _ins, s) => {
  const a = pop(s);
  const b = pop(s);
  switch (kinds(a, b)) {
    case 'nat-nat':
      s.push(nat(num(a) + num(b)));
      return;
    case 'int-int':
    case 'int-nat':
    case 'nat-int':
      s.push(int(num(a) + num(b)));
      return;
    case 'timestamp-int':
    case 'int-timestamp':
      s.push(timestamp(num(a) + num(b)));
      return;
    case 'mutez-mutez':
      s.push(mutezResult(num(a) + num(b), num(a), num(b)));
      return;
    case 'bls12_381_g1-bls12_381_g1':
    case 'bls12_381_g2-bls12_381_g2':
    case 'bls12_381_fr-bls12_381_fr':
      s.push(blsAdd(a, b));
      return;
  }
  throw mismatch('ADD', a, b);
};

const SUB: Handler = (it, _ins, s) => {
  const a = pop(s);
  const b = pop(s);
  switch (kinds(a, b)) {
    case 'nat-nat':
    case 'int-int':
    case 'int-nat':
    case 'nat-int':
    case 'timestamp-timestamp':
      s.push(int(num(a) - num(b)));
      return;
    case 'timestamp-int':
      s.push(timestamp(num(a) - num(b)));
      return;
    case 'mutez-mutez': {
      if (!it.legacy) break;
      // Legacy only (removed in Ithaca), kept for the legacy TZT files.
      const r = num(a) - num(b);
      s.push(mutezResult(r, num(a), num(b), r < 0n));
      return;
    }
  }
  throw mismatch('SUB', a, b);
};

const MUL: Handler = (_it, _ins, s) => {
  const a = pop(s);
  const b = pop(s);
  switch (kinds(a, b)) {
    case 'nat-nat':
      s.push(nat(num(a) * num(b)));
      return;
    case 'int-int':
    case 'int-nat':
    case 'nat-int':
      s.push(int(num(a) * num(b)));
      return;
    case 'mutez-nat':
    case 'nat-mutez': {
      const r = num(a) * num(b);
      if (r > MUTEZ_MAX)
        throw new MichelsonError('mutez_overflow', 'mutez overflow', {
          amounts: [num(a).toString(), num(b).toString()],
        });
      s.push({ k: 'num', t: T.mutez, v: r });
      return;
    }
    case 'bls12_381_g1-bls12_381_fr':
    case 'bls12_381_g2-bls12_381_fr':
    case 'bls12_381_fr-bls12_381_fr':
      s.push(blsMul(a, asKind(b, 'fr').v));
      return;
    case 'nat-bls12_381_fr':
    case 'int-bls12_381_fr':
      s.push(blsMul(b, num(a)));
      return;
    case 'bls12_381_fr-nat':
    case 'bls12_381_fr-int':
      s.push(blsMul(a, num(b)));
      return;
  }
  throw mismatch('MUL', a, b);
};

/** Euclidean division: remainder always non-negative. */
function ediv(a: bigint, b: bigint): [bigint, bigint] {
  let q = a / b;
  let r = a % b;
  if (r < 0n) {
    if (b > 0n) {
      q -= 1n;
      r += b;
    } else {
      q += 1n;
      r -= b;
    }
  }
  return [q, r];
}

const EDIV: Handler = (_it, _ins, s) => {
  const a = pop(s);
  const b = pop(s);
  const k = kinds(a, b);
  let qt: Ty;
  let rt: Ty;
  switch (k) {
    case 'nat-nat':
      qt = T.nat;
      rt = T.nat;
      break;
    case 'int-int':
    case 'int-nat':
    case 'nat-int':
      qt = T.int;
      rt = T.nat;
      break;
    case 'mutez-nat':
      qt = T.mutez;
      rt = T.mutez;
      break;
    case 'mutez-mutez':
      qt = T.nat;
      rt = T.mutez;
      break;
    default:
      throw mismatch('EDIV', a, b);
  }
  const res = { prim: 'pair', args: [qt, rt] };
  if (num(b) === 0n) {
    s.push(none(res));
    return;
  }
  const [q, r] = ediv(num(a), num(b));
  s.push(some(pair({ k: 'num', t: qt, v: q }, { k: 'num', t: rt, v: r })));
};

function bytesToBig(hex: string): bigint {
  return hex === '' ? 0n : BigInt('0x' + hex);
}
function bigToBytes(v: bigint, len: number): string {
  if (len <= 0) return '';
  const h = v.toString(16);
  return h.length >= len * 2 ? h.slice(h.length - len * 2) : h.padStart(len * 2, '0');
}

function shift(left: boolean): Handler {
  return (_it, ins, s) => {
    const a = pop(s);
    const n = num(pop(s));
    if (a.t.prim === 'nat') {
      if (n > 256n) throw new MichelsonError('overflow', `${ins.prim} shift too large`);
      s.push(nat(left ? num(a) << n : num(a) >> n));
      return;
    }
    if (a.t.prim === 'bytes') {
      const hex = asKind(a, 'bytes').v;
      const len = hex.length / 2;
      if (left) {
        if (n > 64000n) throw new MichelsonError('overflow', 'LSL shift too large');
        const newLen = len + Math.ceil(Number(n) / 8);
        s.push(bytes(bigToBytes(bytesToBig(hex) << n, newLen)));
      } else {
        const drop = n / 8n;
        const newLen = drop >= BigInt(len) ? 0 : len - Number(drop);
        s.push(bytes(newLen === 0 ? '' : bigToBytes(bytesToBig(hex) >> n, newLen)));
      }
      return;
    }
    throw mismatch(ins.prim, a);
  };
}

function bitwise(op: 'AND' | 'OR' | 'XOR'): Handler {
  const f = (x: bigint, y: bigint): bigint => (op === 'AND' ? x & y : op === 'OR' ? x | y : x ^ y);
  return (_it, _ins, s) => {
    const a = pop(s);
    const b = pop(s);
    switch (kinds(a, b)) {
      case 'bool-bool': {
        const x = asKind(a, 'bool').v;
        const y = asKind(b, 'bool').v;
        s.push(bool(op === 'AND' ? x && y : op === 'OR' ? x || y : x !== y));
        return;
      }
      case 'nat-nat':
        s.push(nat(f(num(a), num(b))));
        return;
      case 'int-nat':
        if (op === 'AND') {
          s.push(nat(f(num(a), num(b))));
          return;
        }
        break;
      case 'bytes-bytes': {
        const x = asKind(a, 'bytes').v;
        const y = asKind(b, 'bytes').v;
        const len = op === 'AND' ? Math.min(x.length, y.length) / 2 : Math.max(x.length, y.length) / 2;
        s.push(bytes(bigToBytes(f(bytesToBig(x), bytesToBig(y)), len)));
        return;
      }
    }
    throw mismatch(op, a, b);
  };
}

function cmpOp(pred: (c: bigint) => boolean): Handler {
  return (_it, _ins, s) => {
    const v = pop(s);
    if (v.t.prim !== 'int') throw mismatch('comparison', v);
    s.push(bool(pred(num(v))));
  };
}

/** BYTES on int: shortest big-endian two's complement; on nat: shortest big-endian. */
export function intToBytes(v: bigint, signed: boolean): string {
  if (v === 0n) return '';
  if (!signed || v > 0n) {
    let h = v.toString(16);
    if (h.length % 2) h = '0' + h;
    if (signed && parseInt(h.slice(0, 2), 16) >= 0x80) h = '00' + h;
    return h;
  }
  let len = 1;
  while (-(1n << BigInt(8 * len - 1)) > v) len++;
  return bigToBytes((1n << BigInt(8 * len)) + v, len);
}
export function bytesToInt(hex: string, signed: boolean): bigint {
  const u = bytesToBig(hex);
  if (!signed || hex === '') return u;
  const bits = BigInt(hex.length * 4);
  return u >= 1n << (bits - 1n) ? u - (1n << bits) : u;
}

const table: Record<string, Handler> = {
  ADD,
  SUB,
  MUL,
  EDIV,
  SUB_MUTEZ(_it, _ins, s) {
    const a = pop(s);
    const b = pop(s);
    if (kinds(a, b) !== 'mutez-mutez') throw mismatch('SUB_MUTEZ', a, b);
    const r = num(a) - num(b);
    s.push(r < 0n ? none(T.mutez) : some({ k: 'num', t: T.mutez, v: r }));
  },
  ABS(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim !== 'int') throw mismatch('ABS', a);
    const v = num(a);
    s.push(nat(v < 0n ? -v : v));
  },
  ISNAT(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim !== 'int') throw mismatch('ISNAT', a);
    s.push(num(a) < 0n ? none(T.nat) : some(nat(num(a))));
  },
  INT(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim === 'nat') s.push(int(num(a)));
    else if (a.t.prim === 'bls12_381_fr') s.push(int(asKind(a, 'fr').v));
    else if (a.t.prim === 'bytes') s.push(int(bytesToInt(asKind(a, 'bytes').v, true)));
    else throw mismatch('INT', a);
  },
  NAT(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim !== 'bytes') throw mismatch('NAT', a);
    s.push(nat(bytesToInt(asKind(a, 'bytes').v, false)));
  },
  BYTES(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim !== 'int' && a.t.prim !== 'nat') throw mismatch('BYTES', a);
    s.push(bytes(intToBytes(num(a), a.t.prim === 'int')));
  },
  NEG(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim === 'int' || a.t.prim === 'nat') s.push(int(-num(a)));
    else if (a.t.prim.startsWith('bls12_381')) s.push(blsNeg(a));
    else throw mismatch('NEG', a);
  },
  LSL: shift(true),
  LSR: shift(false),
  AND: bitwise('AND'),
  OR: bitwise('OR'),
  XOR: bitwise('XOR'),
  NOT(_it, _ins, s) {
    const a = pop(s);
    if (a.t.prim === 'bool') s.push(bool(!asKind(a, 'bool').v));
    else if (a.t.prim === 'int' || a.t.prim === 'nat') s.push(int(-num(a) - 1n));
    else if (a.t.prim === 'bytes') {
      const h = asKind(a, 'bytes').v;
      let out = '';
      for (let i = 0; i < h.length; i += 2)
        out += (255 - parseInt(h.substr(i, 2), 16)).toString(16).padStart(2, '0');
      s.push(bytes(out));
    } else throw mismatch('NOT', a);
  },
  COMPARE(_it, _ins, s) {
    const a = pop(s);
    const b = pop(s);
    s.push(int(BigInt(compareChecked(a, b))));
  },
  EQ: cmpOp((c) => c === 0n),
  NEQ: cmpOp((c) => c !== 0n),
  LT: cmpOp((c) => c < 0n),
  GT: cmpOp((c) => c > 0n),
  LE: cmpOp((c) => c <= 0n),
  GE: cmpOp((c) => c >= 0n),
};

register(table);
