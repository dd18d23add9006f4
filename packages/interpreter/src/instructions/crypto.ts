/**
 * Hashes, signatures, BLS12-381 pairing check; SAPLING_EMPTY_STATE; SAPLING_VERIFY_UPDATE and timelock's
 * OPEN_CHEST answer "not supported" (their proofs are out of the sandbox's reach).
 */
import { bls12_381 } from '@noble/curves/bls12-381';
import { ed25519 } from '@noble/curves/ed25519';
import { p256 } from '@noble/curves/p256';
import { secp256k1 } from '@noble/curves/secp256k1';
import { blake2b } from '@noble/hashes/blake2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { pairingCheck } from '../bls';
import { bytesToHex, hexToBytes, keyHashFromHex } from '../encoding';
import { inconsistentMemoSizes, notSupported, staticError } from '../errors';
import { saplingVerifyUnsupported } from '../sapling';
import type { Handler } from '../interpreter';
import { pop, register } from '../interpreter';
import { T, parseMemoSize, saplingT } from '../types';
import { asKind, bool, bytes } from '../values';

function hashOp(f: (b: Uint8Array) => Uint8Array): Handler {
  return (_it, _ins, s) => {
    const b = asKind(pop(s), 'bytes');
    s.push(bytes(bytesToHex(f(hexToBytes(b.v)))));
  };
}

const BLS_AUG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_AUG_';

/** Verifies a Tezos signature: `keyHex` is tag + key bytes, `sigHex` raw signature bytes. */
export function checkSignature(keyHex: string, sigHex: string, msg: Uint8Array): boolean {
  const tag = parseInt(keyHex.slice(0, 2), 16);
  const pk = hexToBytes(keyHex.slice(2));
  const sig = hexToBytes(sigHex);
  try {
    if (tag === 3) {
      if (sig.length !== 96) return false;
      const aug = new Uint8Array(pk.length + msg.length);
      aug.set(pk);
      aug.set(msg, pk.length);
      const h = bls12_381.G2.hashToCurve(aug, { DST: BLS_AUG_DST }) as unknown as ReturnType<
        typeof bls12_381.G2.ProjectivePoint.fromHex
      >;
      const P = bls12_381.G1.ProjectivePoint.fromHex(pk);
      const S = bls12_381.G2.ProjectivePoint.fromHex(sig);
      const lhs = bls12_381.pairing(P, h);
      const rhs = bls12_381.pairing(bls12_381.G1.ProjectivePoint.BASE, S);
      return bls12_381.fields.Fp12.eql(lhs, rhs);
    }
    if (sig.length !== 64) return false;
    const digest = blake2b(msg, { dkLen: 32 });
    if (tag === 0) return ed25519.verify(sig, digest, pk);
    if (tag === 1) return secp256k1.verify(sig, digest, pk, { prehash: false, lowS: false });
    if (tag === 2) return p256.verify(sig, digest, pk, { prehash: false, lowS: false });
  } catch {
    return false;
  }
  return false;
}

const table: Record<string, Handler> = {
  BLAKE2B: hashOp((b) => blake2b(b, { dkLen: 32 })),
  SHA256: hashOp(sha256),
  SHA512: hashOp(sha512),
  SHA3: hashOp(sha3_256),
  KECCAK: hashOp(keccak_256),
  HASH_KEY(_it, _ins, s) {
    const k = asKind(pop(s), 'key');
    const h = bytesToHex(blake2b(hexToBytes(k.hex.slice(2)), { dkLen: 20 }));
    const hex = k.hex.slice(0, 2) + h;
    s.push({ k: 'key_hash', t: T.key_hash, hex, str: keyHashFromHex(hex) });
  },
  CHECK_SIGNATURE(_it, _ins, s) {
    const k = asKind(pop(s), 'key');
    const sig = asKind(pop(s), 'signature');
    const msg = asKind(pop(s), 'bytes');
    s.push(bool(checkSignature(k.hex, sig.hex, hexToBytes(msg.v))));
  },
  PAIRING_CHECK(_it, _ins, s) {
    const l = asKind(pop(s), 'list');
    const pairs: [string, string][] = l.v.map((p) => {
      const pp = asKind(p, 'pair');
      return [asKind(pp.a, 'bls').hex, asKind(pp.b, 'bls').hex];
    });
    s.push(bool(pairingCheck(pairs)));
  },
  OPEN_CHEST() {
    throw notSupported('OPEN_CHEST');
  },
  // Octez: SAPLING_EMPTY_STATE ms : S -> sapling_state ms : S (memo size an int in 0..65535).
  SAPLING_EMPTY_STATE(it, ins, s) {
    if (ins.args?.length !== 1)
      throw staticError('invalid_arity', 'SAPLING_EMPTY_STATE expects 1 argument (a memo size)');
    const memo = it.cached(ins.args[0] as object, () => parseMemoSize(ins.args?.[0]));
    s.push({ k: 'sapling_state', t: saplingT('sapling_state', memo), id: null });
  },
  // Octez: sapling_transaction ms : sapling_state ms : S -> option (pair bytes (pair int (sapling_state ms))) : S
  // (sapling_transaction_deprecated ms, legacy only: option (pair int (sapling_state ms))). The types are checked
  // as Octez's typechecker does; the verification itself needs proofs the sandbox cannot check.
  SAPLING_VERIFY_UPDATE(_it, _ins, s) {
    const tx = pop(s);
    const state = pop(s);
    if (
      (tx.t.prim !== 'sapling_transaction' && tx.t.prim !== 'sapling_transaction_deprecated') ||
      state.t.prim !== 'sapling_state'
    )
      throw staticError(
        'bad_stack',
        'SAPLING_VERIFY_UPDATE expects a sapling_transaction and a sapling_state',
      );
    if (state.t.memo !== tx.t.memo) throw inconsistentMemoSizes(state.t.memo ?? 0, tx.t.memo ?? 0);
    throw saplingVerifyUnsupported();
  },
  TICKET_DEPRECATED() {
    throw staticError('deprecated_instruction', 'TICKET_DEPRECATED');
  },
};

register(table);
