/** Validation and conversion of literal forms: strings, timestamps, BLS12-381 values, signatures. */
import { bls12_381 } from '@noble/curves/bls12-381';

export const FR_ORDER = bls12_381.fields.Fr.ORDER;

export function isPrintable(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 32 || c > 126) && c !== 10) return false;
  }
  return true;
}

/** RFC 3339 (leap second 60 allowed, as Octez) or a decimal integer string. */
export function parseTimestamp(s: string): bigint | null {
  if (/^-?\d+$/.test(s)) return BigInt(s);
  const m = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:([Zz])|([+-])(\d\d):(\d\d))$/.exec(
    s,
  );
  if (!m) return null;
  const n = (i: number): number => Number(m[i]);
  if (n(2) < 1 || n(2) > 12 || n(3) < 1 || n(3) > 31 || n(4) > 23 || n(5) > 59 || n(6) > 60) return null;
  const base = Date.UTC(n(1), n(2) - 1, n(3), n(4), n(5), 0);
  if (Number.isNaN(base)) return null;
  const offset = m[7] ? 0 : (m[8] === '-' ? -1 : 1) * (n(9) * 3600 + n(10) * 60);
  return BigInt(Math.floor(base / 1000) + n(6) - offset);
}

export function timestampToString(v: bigint): string | null {
  const ms = Number(v) * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (y < 0 || y > 9999) return null;
  return d.toISOString().replace('.000Z', 'Z');
}

export function g1Valid(hex: string): boolean {
  if (hex.length !== 192) return false;
  try {
    bls12_381.G1.ProjectivePoint.fromHex(hex).assertValidity();
    return true;
  } catch {
    return false;
  }
}
export function g2Valid(hex: string): boolean {
  if (hex.length !== 384) return false;
  try {
    bls12_381.G2.ProjectivePoint.fromHex(hex).assertValidity();
    return true;
  } catch {
    return false;
  }
}
export function frFromLeHex(hex: string): bigint {
  let v = 0n;
  for (let i = hex.length - 2; i >= 0; i -= 2) v = (v << 8n) | BigInt(parseInt(hex.substr(i, 2), 16));
  return v;
}
export function frToLeHex(v: bigint): string {
  let s = '';
  let x = v;
  for (let i = 0; i < 32; i++) {
    s += (x & 0xffn).toString(16).padStart(2, '0');
    x >>= 8n;
  }
  return s;
}
export function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** Rejects what Octez cannot decode: secp256k1 scalars out of range, BLS signatures off the curve. */
export function signatureValid(hex: string, scheme: string): boolean {
  if (scheme === 'bls') {
    try {
      bls12_381.G2.ProjectivePoint.fromHex(hex).assertValidity();
      return true;
    } catch {
      return false;
    }
  }
  if (scheme === 'secp256k1') {
    return BigInt('0x' + hex.slice(0, 64)) < SECP256K1_N && BigInt('0x' + hex.slice(64)) < SECP256K1_N;
  }
  return true;
}
