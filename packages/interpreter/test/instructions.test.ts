/**
 * Instruction semantics per domain, table-driven. Each row is a small TZT test (code, input, output) whose
 * expected result comes from the Michelson specification or public test vectors, not from this code.
 */
import { describe, expect, it } from 'vitest';
import { bls12_381 } from '@noble/curves/bls12-381';
import { p256 } from '@noble/curves/p256';
import { secp256k1 } from '@noble/curves/secp256k1';
import { blake2b } from '@noble/hashes/blake2.js';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { parseData, runContract, runTzt, toTy, unparse } from '../src/index';
import type { Expr } from '../src/index';

type Row = [name: string, tzt: string];

const KT = 'KT1Q36KWPSba7dHsH5E4ZsQHehrChc51e19d';
const TZ = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

const groups: Record<string, Row[]> = {
  arith: [
    ['ADD int nat', 'code { ADD }; input { Stack_elt int -5; Stack_elt nat 3 }; output { Stack_elt int -2 }'],
    [
      'ADD mutez overflow',
      'code { ADD }; input { Stack_elt mutez 9223372036854775807; Stack_elt mutez 1 }; output (MutezOverflow 9223372036854775807 1)',
    ],
    [
      'SUB_MUTEZ underflow gives None',
      'code { SUB_MUTEZ }; input { Stack_elt mutez 1; Stack_elt mutez 2 }; output { Stack_elt (option mutez) None }',
    ],
    [
      'big numbers stay exact',
      'code { MUL }; input { Stack_elt nat 340282366920938463463374607431768211456; Stack_elt nat 3 }; output { Stack_elt nat 1020847100762815390390123822295304634368 }',
    ],
    [
      'EDIV is euclidean',
      'code { EDIV }; input { Stack_elt int -7; Stack_elt int 2 }; output { Stack_elt (option (pair int nat)) (Some (Pair -4 1)) }',
    ],
    [
      'EDIV by zero',
      'code { EDIV }; input { Stack_elt nat 7; Stack_elt nat 0 }; output { Stack_elt (option (pair nat nat)) None }',
    ],
    [
      'EDIV mutez by mutez',
      'code { EDIV }; input { Stack_elt mutez 7; Stack_elt mutez 2 }; output { Stack_elt (option (pair nat mutez)) (Some (Pair 3 1)) }',
    ],
    [
      'LSL past 256 overflows',
      'code { LSL }; input { Stack_elt nat 1; Stack_elt nat 257 }; output (GeneralOverflow 1 257)',
    ],
    [
      'bytes XOR pads the shorter',
      'code { XOR }; input { Stack_elt bytes 0x0f0f; Stack_elt bytes 0xff }; output { Stack_elt bytes 0x0ff0 }',
    ],
    [
      'ill-typed code after a bytes shift is still rejected statically (branch never runs)',
      'code { LSL; PUSH bool False; IF { PUSH nat 1; ADD } {} }; input { Stack_elt bytes 0x01; Stack_elt nat 1 }; output (StaticError _)',
    ],
    [
      'the same code without the bad branch runs',
      'code { LSL; PUSH bool False; IF { NOT } {} }; input { Stack_elt bytes 0x01; Stack_elt nat 1 }; output { Stack_elt bytes 0x0002 }',
    ],
    ['NOT int', 'code { NOT }; input { Stack_elt int 5 }; output { Stack_elt int -6 }'],
    [
      'BYTES of negative int',
      'code { BYTES }; input { Stack_elt int -129 }; output { Stack_elt bytes 0xff7f }',
    ],
    ['NAT of bytes', 'code { NAT }; input { Stack_elt bytes 0x0100 }; output { Stack_elt nat 256 }'],
    [
      'COMPARE strings',
      'code { COMPARE }; input { Stack_elt string "abc"; Stack_elt string "abd" }; output { Stack_elt int -1 }',
    ],
    [
      'COMPARE different types is ill-typed',
      'code { COMPARE }; input { Stack_elt nat 1; Stack_elt int 1 }; output (StaticError _)',
    ],
    [
      'timestamp minus timestamp',
      'code { SUB }; input { Stack_elt timestamp "1970-01-01T00:01:00Z"; Stack_elt timestamp 0 }; output { Stack_elt int 60 }',
    ],
  ],
  control: [
    [
      'LOOP_LEFT counts down',
      'code { LEFT nat; LOOP_LEFT { DUP; INT; EQ; IF { RIGHT nat } { PUSH nat 1; SWAP; SUB; ABS; LEFT nat } } }; input { Stack_elt nat 10 }; output { Stack_elt nat 0 }',
    ],
    [
      'LAMBDA_REC factorial',
      'code { LAMBDA_REC nat nat { DUP; INT; EQ; IF { DROP 2; PUSH nat 1 } { DUP; PUSH nat 1; SWAP; SUB; ABS; DIG 2; SWAP; EXEC; MUL } }; SWAP; EXEC }; input { Stack_elt nat 20 }; output { Stack_elt nat 2432902008176640000 }',
    ],
    [
      'LAMBDA_REC recursion 10,000 deep (control stack on the heap)',
      'code { LAMBDA_REC nat nat { DUP; INT; EQ; IF { DROP 2; PUSH nat 0 } { DUP; PUSH nat 1; SWAP; SUB; ABS; DIG 2; SWAP; EXEC; PUSH nat 1; ADD; SWAP; DROP } }; SWAP; EXEC }; input { Stack_elt nat 10000 }; output { Stack_elt nat 10000 }',
    ],
    [
      'DIP with a failing body is ill-typed',
      'code { DIP { UNIT; FAILWITH } }; input { Stack_elt int 1; Stack_elt int 2 }; output (StaticError _)',
    ],
    [
      'DIP 2 reaches below',
      'code { DIP 2 { PUSH int 9 } }; input { Stack_elt int 1; Stack_elt int 2 }; output { Stack_elt int 1; Stack_elt int 2; Stack_elt int 9 }',
    ],
    [
      'DIG and DUG',
      'code { DIG 2; DUG 1 }; input { Stack_elt int 1; Stack_elt int 2; Stack_elt int 3 }; output { Stack_elt int 1; Stack_elt int 3; Stack_elt int 2 }',
    ],
    [
      'FAILWITH carries the value',
      'code { PUSH string "oops"; PAIR; FAILWITH }; input { Stack_elt nat 4 }; output (Failed (Pair "oops" 4))',
    ],
    [
      'APPLY partially applies',
      'code { APPLY; PUSH int 3; EXEC }; input { Stack_elt int 2; Stack_elt (lambda (pair int int) int) { UNPAIR; MUL } }; output { Stack_elt int 6 }',
    ],
    [
      'endless loop exhausts gas',
      'code { LOOP { PUSH bool True } }; input { Stack_elt bool True }; output Gas_exhaustion',
    ],
    [
      'DUP of a ticket is ill-typed',
      'code { DUP }; input { Stack_elt (ticket nat) (Pair "' + KT + '" 1 2) }; output (StaticError _)',
    ],
  ],
  collections: [
    [
      'map UPDATE keeps keys sorted',
      'code { PUSH int 7; SOME; PUSH string "a"; UPDATE }; input { Stack_elt (map string int) { Elt "b" 1 } }; output { Stack_elt (map string int) { Elt "a" 7; Elt "b" 1 } }',
    ],
    [
      'unsorted map literal is refused',
      'code {}; input { Stack_elt (map string int) { Elt "b" 1; Elt "a" 2 } }; output (StaticError _)',
    ],
    [
      'GET_AND_UPDATE on big map',
      'code { GET_AND_UPDATE }; input { Stack_elt nat 1; Stack_elt (option string) None; Stack_elt (big_map nat string) 4 }; output { Stack_elt (option string) (Some "one"); Stack_elt (big_map nat string) (Pair 4 { Elt 1 None }) }; big_maps { Big_map 4 nat string { Elt 1 "one" } }',
    ],
    [
      'MAP on an empty list keeps the body type',
      'code { MAP { INT } }; input { Stack_elt (list nat) {} }; output { Stack_elt (list int) {} }',
    ],
    [
      'MAP on option',
      'code { MAP { PUSH nat 1; ADD } }; input { Stack_elt (option nat) (Some 4) }; output { Stack_elt (option nat) (Some 5) }',
    ],
    [
      'GET n and UPDATE n on combs',
      'code { PUSH string "x"; UPDATE 3; GET 4 }; input { Stack_elt (pair int string nat) (Pair 1 "a" 2) }; output { Stack_elt nat 2 }',
    ],
    [
      'SLICE out of range',
      'code { SLICE }; input { Stack_elt nat 2; Stack_elt nat 5; Stack_elt string "abc" }; output { Stack_elt (option string) None }',
    ],
    [
      'CONCAT list of bytes',
      'code { CONCAT }; input { Stack_elt (list bytes) { 0x01; 0x0203 } }; output { Stack_elt bytes 0x010203 }',
    ],
    [
      'ITER over a set in order',
      'code { DIP { NIL int }; ITER { CONS } }; input { Stack_elt (set int) { 1; 2; 3 } }; output { Stack_elt (list int) { 3; 2; 1 } }',
    ],
  ],
  pack: [
    // vectors from octez-client `hash data` (reference §1.7)
    ['PACK int', 'code { PACK }; input { Stack_elt int 1 }; output { Stack_elt bytes 0x050001 }'],
    [
      'PACK comb',
      'code { PACK }; input { Stack_elt (pair int int int) (Pair 1 2 3) }; output { Stack_elt bytes 0x0507070001070700020003 }',
    ],
    [
      'PACK address with entrypoint',
      'code { PACK }; input { Stack_elt address "KT1J4E79F1qL6kGBSQ3yXBdXmuq5j4FNThK2%main" }; output { Stack_elt bytes 0x050a0000001a0167ea84b1082efb9619d6ce04e033633906636e1d006d61696e }',
    ],
    [
      'UNPACK round trip',
      'code { PACK; UNPACK (pair string (list nat)) }; input { Stack_elt (pair string (list nat)) (Pair "hi" { 1; 2 }) }; output { Stack_elt (option (pair string (list nat))) (Some (Pair "hi" { 1; 2 })) }',
    ],
    [
      'UNPACK of garbage is None',
      'code { UNPACK nat }; input { Stack_elt bytes 0x0501 }; output { Stack_elt (option nat) None }',
    ],
  ],
  crypto: [
    [
      'BLAKE2B of empty bytes',
      'code { BLAKE2B }; input { Stack_elt bytes 0x }; output { Stack_elt bytes 0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8 }',
    ],
    [
      'SHA256 of empty bytes',
      'code { SHA256 }; input { Stack_elt bytes 0x }; output { Stack_elt bytes 0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 }',
    ],
    [
      'KECCAK of empty bytes',
      'code { KECCAK }; input { Stack_elt bytes 0x }; output { Stack_elt bytes 0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470 }',
    ],
    [
      'SHA3 of empty bytes',
      'code { SHA3 }; input { Stack_elt bytes 0x }; output { Stack_elt bytes 0xa7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a }',
    ],
    [
      'bls12_381_fr arithmetic wraps',
      'code { ADD }; input { Stack_elt bls12_381_fr -1; Stack_elt bls12_381_fr 2 }; output { Stack_elt bls12_381_fr 1 }',
    ],
  ],
  domain: [
    [
      'CONTRACT finds an entrypoint',
      'code { CONTRACT %go nat }; input { Stack_elt address "' +
        KT +
        '" }; output { Stack_elt (option (contract nat)) (Some "' +
        KT +
        '%go") }; other_contracts { Contract "' +
        KT +
        '" (or (nat %go) (unit %stop)) }',
    ],
    [
      'CONTRACT with the wrong type is None',
      'code { CONTRACT %go int }; input { Stack_elt address "' +
        KT +
        '" }; output { Stack_elt (option (contract int)) None }; other_contracts { Contract "' +
        KT +
        '" (or (nat %go) (unit %stop)) }',
    ],
    [
      'IMPLICIT_ACCOUNT then ADDRESS',
      'code { IMPLICIT_ACCOUNT; ADDRESS }; input { Stack_elt key_hash "' +
        TZ +
        '" }; output { Stack_elt address "' +
        TZ +
        '" }',
    ],
    [
      'TRANSFER_TOKENS builds an operation',
      'code { TRANSFER_TOKENS }; input { Stack_elt unit Unit; Stack_elt mutez 5; Stack_elt (contract unit) "' +
        TZ +
        '" }; output { Stack_elt operation (Transfer_tokens Unit 5 "' +
        TZ +
        '" _) }',
    ],
    [
      'SELF %entrypoint',
      'code { SELF %b; ADDRESS }; input {}; output { Stack_elt address "' +
        KT +
        '%b" }; self "' +
        KT +
        '"; parameter (or (int %a) (nat %b))',
    ],
    [
      'INDEX_ADDRESS allocates once',
      'code { DUP; INDEX_ADDRESS; SWAP; INDEX_ADDRESS }; input { Stack_elt address "' +
        TZ +
        '" }; output { Stack_elt nat 1; Stack_elt nat 1 }',
    ],
  ],
  tickets: [
    [
      'TICKET then READ_TICKET',
      'code { TICKET; ASSERT_SOME; READ_TICKET; DIP { DROP } }; input { Stack_elt string "gold"; Stack_elt nat 5 }; output { Stack_elt (pair address string nat) (Pair "' +
        KT +
        '" "gold" 5) }; self "' +
        KT +
        '"',
    ],
    [
      'SPLIT_TICKET with wrong total',
      'code { SPLIT_TICKET }; input { Stack_elt (ticket nat) (Pair "' +
        KT +
        '" 1 10); Stack_elt (pair nat nat) (Pair 3 3) }; output { Stack_elt (option (pair (ticket nat) (ticket nat))) None }',
    ],
    [
      'JOIN_TICKETS adds amounts',
      'code { JOIN_TICKETS }; input { Stack_elt (pair (ticket nat) (ticket nat)) (Pair (Pair "' +
        KT +
        '" 1 2) (Pair "' +
        KT +
        '" 1 3)) }; output { Stack_elt (option (ticket nat)) (Some (Pair "' +
        KT +
        '" 1 5)) }',
    ],
  ],
  views: [
    [
      'VIEW runs the callee with its own storage',
      'code { VIEW "get" nat }; input { Stack_elt nat 2; Stack_elt address "' +
        KT +
        '" }; output { Stack_elt (option nat) (Some 12) }; views { Views "' +
        KT +
        '" { View "get" nat nat { UNPAIR; ADD } } }; storages { Storage "' +
        KT +
        '" nat 10 }',
    ],
    [
      'VIEW of a missing view is None',
      'code { VIEW "nope" nat }; input { Stack_elt nat 2; Stack_elt address "' +
        KT +
        '" }; output { Stack_elt (option nat) None }',
    ],
  ],
};

describe.each(Object.keys(groups))('%s instructions', (group) => {
  it.each(groups[group] as Row[])('%s', (_name, src) => {
    const r = runTzt(src);
    expect(r.reason).toBeDefined();
    expect(r.pass, r.reason).toBe(true);
  });
});

describe('unsupported features', () => {
  const chest =
    'parameter (pair chest_key chest); storage unit; code { CAR; UNPAIR; PUSH nat 1; DUG 2; OPEN_CHEST; DROP; UNIT; NIL operation; PAIR }';
  // Sapling: see sapling.test.ts (SAPLING_EMPTY_STATE runs; SAPLING_VERIFY_UPDATE has its own error).
  it.each([['OPEN_CHEST', chest, { prim: 'Pair', args: [{ bytes: '00' }, { bytes: '00' }] }]] as [
    string,
    string,
    Expr,
  ][])('%s answers not_supported in Octez error shape', (_name, script, parameter) => {
    const r = runContract({ script, storage: { prim: 'Unit' }, parameter });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('not_supported');
      expect(r.errors[0]?.id).toMatch(/michelson_v1\.unsupported_instruction$/);
    }
  });
});

describe('CHECK_SIGNATURE per scheme (signature over the BLAKE2B-256 digest, BLS over the raw bytes)', () => {
  const msg = Uint8Array.from([5, 1, 0, 0, 0, 2, 104, 105]);
  const digest = blake2b(msg, { dkLen: 32 });
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  const check = (key: string, sig: string, m: Uint8Array): string =>
    `code { CHECK_SIGNATURE }; input { Stack_elt key "${key}"; Stack_elt signature "${sig}"; Stack_elt bytes 0x${hex(m)} }; output { Stack_elt bool True }`;

  it('secp256k1', () => {
    const sk = secp256k1.utils.randomPrivateKey();
    const sig = secp256k1.sign(digest, sk, { prehash: false }).toCompactRawBytes();
    const r = runTzt(
      check(
        b58Encode(secp256k1.getPublicKey(sk, true), PrefixV2.Secp256k1PublicKey),
        b58Encode(sig, PrefixV2.Secp256k1Signature),
        msg,
      ),
    );
    expect(r.pass, r.reason).toBe(true);
    const tampered = runTzt(
      check(
        b58Encode(secp256k1.getPublicKey(sk, true), PrefixV2.Secp256k1PublicKey),
        b58Encode(sig, PrefixV2.Secp256k1Signature),
        msg.slice(1),
      ),
    );
    expect(tampered.pass).toBe(false);
  });

  it('p256', () => {
    const sk = p256.utils.randomPrivateKey();
    const sig = p256.sign(digest, sk, { prehash: false }).toCompactRawBytes();
    const r = runTzt(
      check(
        b58Encode(p256.getPublicKey(sk, true), PrefixV2.P256PublicKey),
        b58Encode(sig, PrefixV2.P256Signature),
        msg,
      ),
    );
    expect(r.pass, r.reason).toBe(true);
  });

  it('BLS (min-pk, augmented scheme)', () => {
    const sk = bls12_381.utils.randomPrivateKey();
    const pk = bls12_381.getPublicKey(sk);
    const aug = new Uint8Array([...pk, ...msg]);
    const h = bls12_381.G2.hashToCurve(aug, { DST: 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_AUG_' });
    const sig = (h as unknown as { multiply(s: bigint): { toRawBytes(c: boolean): Uint8Array } })
      .multiply(bls12_381.G1.normPrivateKeyToScalar(sk))
      .toRawBytes(true);
    const r = runTzt(
      check(b58Encode(pk, PrefixV2.BLS12_381PublicKey), b58Encode(sig, PrefixV2.BLS12_381Signature), msg),
    );
    expect(r.pass, r.reason).toBe(true);
  });
});

describe('unparsing modes', () => {
  const t = toTy({
    prim: 'pair',
    args: [{ prim: 'int' }, { prim: 'int' }, { prim: 'int' }, { prim: 'address' }],
  });
  const v = parseData(
    {
      prim: 'Pair',
      args: [{ int: '1' }, { int: '2' }, { int: '3' }, { string: 'KT1J4E79F1qL6kGBSQ3yXBdXmuq5j4FNThK2' }],
    },
    t,
  );
  it('Readable flattens combs and writes addresses in base58', () => {
    expect(unparse(v, 'Readable')).toEqual({
      prim: 'Pair',
      args: [{ int: '1' }, { int: '2' }, { int: '3' }, { string: 'KT1J4E79F1qL6kGBSQ3yXBdXmuq5j4FNThK2' }],
    });
  });
  it('Optimized writes combs of four or more as sequences and addresses as bytes', () => {
    expect(unparse(v, 'Optimized')).toEqual([
      { int: '1' },
      { int: '2' },
      { int: '3' },
      { bytes: '0167ea84b1082efb9619d6ce04e033633906636e1d00' },
    ]);
  });
  it('Optimized_legacy (PACK) keeps nested pairs', () => {
    expect(unparse(v, 'Optimized_legacy')).toMatchObject({
      prim: 'Pair',
      args: [{ int: '1' }, { prim: 'Pair' }],
    });
  });
});
