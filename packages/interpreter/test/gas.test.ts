/**
 * Gas: each row runs one instruction and checks the milligas charged against Octez's cost model
 * (reference §6 and Octez's generated cost functions): flat 10 for stack instructions, n + n/8 + 430 for
 * BLAKE2B, n + n/8 + 65800 for an ed25519 CHECK_SIGNATURE, 35 + max(size)/2 for ADD on integers, ...
 */
import { Parser } from '@taquito/michel-codec';
import { describe, expect, it } from 'vitest';
import type { Expr, V } from '../src/index';
import { Interpreter, MichelsonError, defaultEnv, parseData, toTy } from '../src/index';
import { dataCost, decodeCost } from '../src/gas-typecheck';
import { instructionCost } from '../src/gas';
import { DEFAULT_COST } from '../src/gas-params';

const parser = new Parser();
const expr = (src: string): Expr => parser.parseMichelineExpression(src) as unknown as Expr;
const type = (src: string): Expr =>
  /\s/.test(src.trim()) ? (parser.parseData(src) as unknown as Expr) : expr(src);
const data = (src: string): Expr =>
  /^\s*[A-Z]/.test(src) ? (parser.parseData(src) as unknown as Expr) : expr(src);

/** Milligas used by `code` on a stack given as [type, value] pairs, top first. */
function gasOf(code: string, stack: [string, string][]): number {
  const it = new Interpreter({ env: defaultEnv() });
  const values: V[] = stack.map(([t, v]) => parseData(data(v), toTy(type(t)))).reverse();
  it.exec(expr(`{ ${code} }`) as Expr[], values);
  return it.consumedMilligas;
}

const msg32 = '0x' + 'ab'.repeat(32);
const rows: [string, string, [string, string][], number][] = [
  [
    'SWAP',
    'SWAP',
    [
      ['int', '1'],
      ['int', '2'],
    ],
    10,
  ],
  ['DROP', 'DROP', [['int', '1']], 10],
  ['PUSH', 'PUSH nat 1', [], 10],
  [
    'ADD on 16-byte integers',
    'ADD',
    [
      ['int', String(2n ** 127n)],
      ['int', '1'],
    ],
    35 + 8,
  ],
  [
    'ADD mutez',
    'ADD',
    [
      ['mutez', '1'],
      ['mutez', '2'],
    ],
    20,
  ],
  ['BLAKE2B of 32 bytes', 'BLAKE2B', [['bytes', msg32]], 430 + 32 + 4],
  ['SHA256 of 32 bytes', 'SHA256', [['bytes', msg32]], 600 + 4.75 * 32],
  ['KECCAK of 32 bytes', 'KECCAK', [['bytes', msg32]], 1350 + 8.25 * 32],
  [
    'COMPARE two nats',
    'COMPARE',
    [
      ['nat', '5'],
      ['nat', '7'],
    ],
    35,
  ],
  ['EMPTY_MAP', 'EMPTY_MAP string nat', [], 300],
  ['HASH_KEY', 'HASH_KEY', [['key', '"edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav"']], 605],
  [
    'DROP 3',
    'DROP 3',
    [
      ['int', '1'],
      ['int', '2'],
      ['int', '3'],
    ],
    30 + 6 + 1,
  ],
  [
    'GET on a 7-entry map',
    'GET',
    [
      ['int', '3'],
      ['map int int', '{ Elt 1 1; Elt 2 2; Elt 3 3; Elt 4 4; Elt 5 5; Elt 6 6; Elt 7 7 }'],
    ],
    80 + 35 * 3,
  ],
  [
    'DIG 2 (cost_N_IDig: 30 + 6n + n/2 + n/4)',
    'DIG 2',
    [
      ['int', '1'],
      ['int', '2'],
      ['int', '3'],
    ],
    30 + 12 + 1,
  ],
  [
    'PAIR 4 (cost_N_IComb: 3n + n/2 + n/32)',
    'PAIR 4',
    [
      ['int', '1'],
      ['int', '2'],
      ['int', '3'],
      ['int', '4'],
    ],
    12 + 2,
  ],
  ['UNPAIR 3 (cost_N_IUncomb: 25 + 4n)', 'UNPAIR 3', [['pair int int int', 'Pair 1 2 3']], 25 + 12],
  [
    'MUL on 1-byte nats (cost_mul: a = 2, log2 a = 3, 55 + 3 + 1)',
    'MUL',
    [
      ['nat', '5'],
      ['nat', '7'],
    ],
    59,
  ],
  [
    'MUL mutez by nat (cost_N_IMul_teznat)',
    'MUL',
    [
      ['mutez', '5'],
      ['nat', '7'],
    ],
    50,
  ],
];

describe('instruction gas', () => {
  it.each(rows)('%s', (_name, code, stack, milligas) => {
    expect(gasOf(code, stack)).toBe(milligas);
  });

  it('charges an ed25519 CHECK_SIGNATURE n + n/8 + 65800', () => {
    const stack: [string, string][] = [
      ['key', '"edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav"'],
      [
        'signature',
        '"edsigtXomBKi5CTRf5cjATJWSyaRvhfYNHqSUGrn4SdbYRcGwQrUGjzEfQDTuqHhuA8b2d8NarZjz8TRf65WkpQmo423BtomS8Q"',
      ],
      ['bytes', msg32],
    ];
    expect(gasOf('CHECK_SIGNATURE', stack)).toBe(65800 + 32 + 4);
  });

  it('fails with gas_exhausted once the limit is reached, and never goes below zero', () => {
    const it2 = new Interpreter({ env: defaultEnv(), gasLimit: 1000 });
    const stack: V[] = [parseData({ prim: 'True' }, toTy({ prim: 'bool' }))];
    let err: unknown;
    try {
      it2.exec(expr('{ LOOP { PUSH bool True } }') as Expr[], stack);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MichelsonError);
    expect((err as MichelsonError).kind).toBe('gas_exhausted');
    expect(it2.gasLeft).toBe(0);
    expect(it2.consumedMilligas).toBe(1000);
  });
});

describe('typecheck and big-map gas (Octez constants)', () => {
  it('decodes Micheline at 60 per node plus 10 per integer or string byte', () => {
    expect(decodeCost({ int: '256' })).toBe(60 + 2 * 10);
    expect(decodeCost({ prim: 'Pair', args: [{ string: 'abc' }, { int: '0' }] })).toBe(3 * 60 + 3 * 10);
  });

  it('typechecks a readable address at 100 per node plus the b58check decoding (3,600)', () => {
    const addr = { string: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' };
    expect(dataCost(addr, { prim: 'address' })).toBe(100 + 3600);
    expect(dataCost({ bytes: '00' }, { prim: 'bytes' })).toBe(100);
  });

  it('charges a big-map GET that finds a value its bytes, decoding and typechecking on top of a miss', () => {
    const run = (found: boolean): number => {
      const it = new Interpreter({
        env: defaultEnv(),
        chain: { bigMapGet: () => (found ? { int: '1' } : null) },
      });
      const bm: V = {
        k: 'big_map',
        t: toTy(type('big_map nat nat')),
        id: 7n,
        diff: new Map(),
      };
      it.exec(expr('{ GET }') as Expr[], [bm, parseData(data('3'), toTy(type('nat')))]);
      return it.consumedMilligas;
    };
    // value `1` is 2 bytes in binary: 2 × 2 read, 60 + 10 decode, 100 typecheck
    expect(run(true) - run(false)).toBe(4 + 70 + 100);
    // a miss: overlay 45 + 1, key hash (unparse 65, encode 100 + 25, blake2b of 3 bytes 430 + 3),
    // storage read 200 gas + 5 gas × 6 path segments
    expect(run(false)).toBe(46 + 65 + 125 + 433 + 230_000);
  });
});

describe('the cost table is read by own properties only', () => {
  it('an instruction named after an Object property costs the default, not a prototype member', () => {
    for (const prim of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(instructionCost({ prim }, [])).toBe(DEFAULT_COST);
  });
});
