/** BLS12-381 group and field operations on Octez's encodings (uncompressed Zcash points, Fr little-endian). */
import { bls12_381 } from '@noble/curves/bls12-381';
import type { Ty } from './types';
import type { BlsV, FrV, V } from './values';
import { FR_ORDER, mod } from './literals';

const { G1, G2 } = bls12_381;
type G1P = ReturnType<typeof G1.ProjectivePoint.fromHex>;
type G2P = ReturnType<typeof G2.ProjectivePoint.fromHex>;

const toG1 = (hex: string): G1P => G1.ProjectivePoint.fromHex(hex);
const toG2 = (hex: string): G2P => G2.ProjectivePoint.fromHex(hex);
const hexOf = (p: { toHex(compressed?: boolean): string }): string => p.toHex(false);

export function fr(t: Ty, v: bigint): FrV {
  return { k: 'fr', t, v: mod(v, FR_ORDER) };
}

export function blsAdd(a: V, b: V): V {
  if (a.k === 'fr' && b.k === 'fr') return fr(a.t, a.v + b.v);
  const x = a as BlsV;
  const y = b as BlsV;
  if (a.t.prim === 'bls12_381_g1') return { k: 'bls', t: a.t, hex: hexOf(toG1(x.hex).add(toG1(y.hex))) };
  return { k: 'bls', t: a.t, hex: hexOf(toG2(x.hex).add(toG2(y.hex))) };
}

export function blsNeg(a: V): V {
  if (a.k === 'fr') return fr(a.t, -a.v);
  const x = a as BlsV;
  if (a.t.prim === 'bls12_381_g1') return { k: 'bls', t: a.t, hex: hexOf(toG1(x.hex).negate()) };
  return { k: 'bls', t: a.t, hex: hexOf(toG2(x.hex).negate()) };
}

/** point * scalar or fr * fr. */
export function blsMul(p: V, scalar: bigint): V {
  const s = mod(scalar, FR_ORDER);
  if (p.k === 'fr') return fr(p.t, p.v * s);
  const x = p as BlsV;
  if (p.t.prim === 'bls12_381_g1') {
    const pt = toG1(x.hex);
    return { k: 'bls', t: p.t, hex: hexOf(s === 0n ? G1.ProjectivePoint.ZERO : pt.multiplyUnsafe(s)) };
  }
  const pt = toG2(x.hex);
  return { k: 'bls', t: p.t, hex: hexOf(s === 0n ? G2.ProjectivePoint.ZERO : pt.multiplyUnsafe(s)) };
}

/** True when the product of the pairings e(g1_i, g2_i) is one. */
export function pairingCheck(pairs: [string, string][]): boolean {
  let acc = bls12_381.fields.Fp12.ONE;
  for (const [a, b] of pairs) {
    const p = toG1(a);
    const q = toG2(b);
    if (p.equals(G1.ProjectivePoint.ZERO) || q.equals(G2.ProjectivePoint.ZERO)) continue;
    acc = bls12_381.fields.Fp12.mul(acc, bls12_381.pairing(p, q, false));
  }
  return bls12_381.fields.Fp12.eql(bls12_381.fields.Fp12.finalExponentiate(acc), bls12_381.fields.Fp12.ONE);
}
