import { describe, expect, it } from 'vitest';
import type { Micheline } from '../src/micheline';
import { parseMichelsonExpression } from '../src/micheline';
import { entrypointsDocs, typedef } from '../src/typedef';
import { buildTypeTree, entrypointLeaves } from '../src/type-tree';
import { goldenCases, hasShared } from './golden';

type ScriptInput = { script: { prim: string; args: Micheline[] }[]; entrypoint: string };

describe.skipIf(!hasShared)('typedef.json goldens', () => {
  it.each(goldenCases<ScriptInput>('typedef.json').map((c) => [c.name, c] as const))('%s', (_n, c) => {
    const section = c.input.script[0]!;
    expect(typedef(section.args[0]!, c.input.entrypoint || undefined)).toEqual(c.expected);
  });
});

describe.skipIf(!hasShared)('entrypoints-docs.json goldens', () => {
  it.each(goldenCases<{ type: Micheline }>('entrypoints-docs.json').map((c) => [c.name, c] as const))(
    '%s',
    (_n, c) => {
      expect(entrypointsDocs(c.input.type)).toEqual(c.expected);
    },
  );
});

describe('type tree', () => {
  it('numbers nodes in pre-order with comb pairs binarised', () => {
    const t = buildTypeTree(parseMichelsonExpression('pair address (pair address (pair nat nat))'));
    expect(t.args[1]!.args[1]!.args.map((a) => a.name)).toEqual(['@nat_6', '@nat_7']);
    const comb = buildTypeTree(parseMichelsonExpression('pair (nat %a) (int %b) (string %c)'));
    expect(comb.args[1]!.name).toBe('@pair_3');
    expect(comb.args[1]!.args[1]!.name).toBe('c');
  });

  it('names entrypoints, numbering unnamed leaves', () => {
    const t = buildTypeTree(parseMichelsonExpression('or (or (nat %a) int) (or %x unit string)'));
    expect(entrypointLeaves(t).map((l) => [l.name, l.path])).toEqual([
      ['a', 'LL'],
      ['entrypoint_1', 'LR'],
      ['entrypoint_2', 'RL'],
      ['entrypoint_3', 'RR'],
    ]);
  });

  it('rejects malformed types clearly', () => {
    expect(() => buildTypeTree({ prim: 'pair', args: [{ prim: 'nat' }] })).toThrow(/pair needs at least 2/);
    expect(() => buildTypeTree({ prim: 'frobnicate' })).toThrow(/unknown type frobnicate/);
    expect(() => buildTypeTree({ int: '1' })).toThrow(/expected a primitive/);
  });

  it('documents lambdas and contracts of complex types with inline Michelson', () => {
    expect(
      typedef(parseMichelsonExpression('pair (lambda %f (pair nat nat) nat) (contract %c (pair nat nat))')),
    ).toEqual([
      {
        name: '@pair_1',
        type: 'pair',
        args: [
          { key: 'f', value: '$f' },
          { key: 'c', value: 'contract($c_param)' },
        ],
      },
      {
        name: 'f',
        type: 'lambda',
        args: [
          { key: 'input', value: 'pair nat nat' },
          { key: 'return', value: 'nat' },
        ],
      },
      { name: 'c_param', type: 'pair nat nat' },
    ]);
  });
});
