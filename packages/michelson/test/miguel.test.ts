import { describe, expect, it } from 'vitest';
import { compareAddresses, compareValues } from '../src/compare';
import { diffValues } from '../src/diff';
import type { Micheline } from '../src/micheline';
import { parseMichelsonExpression } from '../src/micheline';
import { encodeAddress } from '@taquito/utils';
import { keyText, readableText, toMiguel, toMiguelNode } from '../src/miguel';
import { buildTypeTree } from '../src/type-tree';
import { isTypeEqualShape } from '../src/type-equal';
import { goldenCases, hasShared } from './golden';

type MiguelIn = { type: Micheline; value: Micheline };
type DiffIn = { type: Micheline; curr: Micheline; prev: Micheline };

describe.skipIf(!hasShared)('miguel.json goldens (exact compact JSON)', () => {
  it.each(goldenCases<MiguelIn>('miguel.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const got = Array.isArray(c.expected)
      ? toMiguel(c.input.type, c.input.value)
      : toMiguelNode(buildTypeTree(c.input.type), c.input.value);
    expect(JSON.stringify(got)).toBe(JSON.stringify(c.expected));
  });
});

describe.skipIf(!hasShared)('diff.json goldens (exact compact JSON)', () => {
  it.each(goldenCases<DiffIn>('diff.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    expect(JSON.stringify(diffValues(c.input.type, c.input.curr, c.input.prev))).toBe(
      JSON.stringify(c.expected),
    );
  });
});

describe.skipIf(!hasShared)('compare.json goldens', () => {
  type In = {
    type?: Micheline | Micheline[];
    a?: Micheline;
    b?: Micheline;
    first?: string;
    first_kind?: string;
    second?: string;
    second_kind?: string;
    typ1?: Micheline;
    typ2?: Micheline;
  };
  const lit = (s: string, kind: string): Micheline => (kind === 'bytes' ? { bytes: s } : { string: s });
  it.each(goldenCases<In>('compare.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const i = c.input;
    if (i.first !== undefined) {
      expect(compareAddresses(lit(i.first, i.first_kind!), lit(i.second!, i.second_kind!))).toBe(c.expected);
    } else if (i.typ1 !== undefined) {
      expect(isTypeEqualShape(buildTypeTree(i.typ1), buildTypeTree(i.typ2!))).toBe(c.expected);
    } else {
      const type = Array.isArray(i.type) ? i.type[0]! : i.type!;
      const run = () => compareValues(buildTypeTree(type), i.a!, i.b!);
      if (c.expected === null) expect(run).toThrow(/not comparable/);
      else expect(run()).toBe(c.expected);
    }
  });
});

describe('miguel', () => {
  it('shows bytes as unpacked Michelson, text or hex', () => {
    const t = buildTypeTree({ prim: 'bytes' });
    expect(toMiguelNode(t, { bytes: '74657a6f732d73746f726167653a6d65746164617461' }).value).toBe(
      'tezos-storage:metadata',
    );
    expect(toMiguelNode(t, { bytes: '050001' }).value).toBe('{ 1 }');
    expect(toMiguelNode(t, { bytes: '00ff' }).value).toBe('00ff');
  });

  it('renders lambdas as multi-line Michelson and big-map pointers as numbers', () => {
    const t = parseMichelsonExpression('pair (lambda %f unit unit) (big_map %b nat nat)');
    const [root] = toMiguel(t, parseMichelsonExpression('Pair { DROP ; UNIT } 12'));
    expect(root!.children).toEqual([
      { prim: 'lambda', type: 'lambda', name: 'f', value: '{ DROP ; UNIT }' },
      { prim: 'big_map', type: 'big_map', name: 'b', value: 12 },
    ]);
  });

  it('names or types like the reference', () => {
    const enumT = parseMichelsonExpression('or (unit %a) (unit %b)');
    expect(toMiguel(enumT, parseMichelsonExpression('Left Unit'))[0]!.type).toBe('namedenum');
    const unionT = parseMichelsonExpression('or (nat %a) (string %b)');
    expect(toMiguel(unionT, parseMichelsonExpression('Right "x"'))[0]!.type).toBe('namedunion');
  });

  it('rejects values that do not match the type', () => {
    expect(() => toMiguel({ prim: 'nat' }, { string: 'x' })).toThrow(/does not match type nat/);
    expect(() => toMiguel(parseMichelsonExpression('pair nat nat'), { int: '1' })).toThrow(
      /does not match type pair/,
    );
  });

  it('handles 10,000-element storages quickly', () => {
    const t = parseMichelsonExpression('map nat (pair (address %owner) (nat %amount))');
    const value: Micheline = Array.from({ length: 10_000 }, (_, i) => ({
      prim: 'Elt',
      args: [
        { int: String(i) },
        { prim: 'Pair', args: [{ string: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a' }, { int: String(i * 3) }] },
      ],
    }));
    const [root] = toMiguel(t, value);
    expect(root!.children).toHaveLength(10_000);
    const next = value.slice(1).concat([
      {
        prim: 'Elt',
        args: [
          { int: '20000' },
          { prim: 'Pair', args: [{ string: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a' }, { int: '1' }] },
        ],
      },
    ]);
    const d = diffValues(t, next, value);
    expect(d.children!.filter((c) => c.diff_type).map((c) => [c.name, c.diff_type])).toEqual([
      ['0', 'delete'],
      ['20000', 'create'],
    ]);
  });

  it('aligns list edits (insert in the middle) instead of marking everything changed', () => {
    const t = parseMichelsonExpression('list nat');
    const d = diffValues(
      t,
      parseMichelsonExpression('{ 1 ; 2 ; 9 ; 3 ; 4 }'),
      parseMichelsonExpression('{ 1 ; 2 ; 3 ; 4 }'),
    );
    expect(d.children!.map((c) => [c.value, c.diff_type ?? null])).toEqual([
      ['1', null],
      ['2', null],
      ['9', 'create'],
      ['3', null],
      ['4', null],
    ]);
  });
});

describe('readable text of typed values', () => {
  const addrBytes = '0000a9ceae0d7d4b2ae0b3a8e8b0d0fcc2c4e8b70d83';
  it('decodes optimized addresses, timestamps and contracts inside complex keys', () => {
    const t = buildTypeTree({ prim: 'pair', args: [{ prim: 'address' }, { prim: 'nat' }] });
    const key = { prim: 'Pair', args: [{ bytes: addrBytes }, { int: '1' }] };
    const addr = encodeAddress(addrBytes);
    expect(addr).toMatch(/^tz1[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(readableText(t, key)).toBe(`Pair "${addr}" 1`);
    expect(keyText(t, key)).toBe(`Pair "${addr}" 1`);
    const ts = buildTypeTree({
      prim: 'pair',
      args: [{ prim: 'timestamp' }, { prim: 'contract', args: [{ prim: 'unit' }] }],
    });
    expect(readableText(ts, { prim: 'Pair', args: [{ int: '0' }, { bytes: `${addrBytes}616263` }] })).toBe(
      `Pair "1970-01-01T00:00:00Z" "${addr}%abc"`,
    );
  });
  it('keeps a value that does not match its type as it is', () => {
    const t = buildTypeTree({ prim: 'pair', args: [{ prim: 'address' }, { prim: 'nat' }] });
    expect(readableText(t, { int: '5' })).toBe('5');
  });
});
