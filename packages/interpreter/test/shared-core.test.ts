/**
 * The interpreter's entrypoint lookup and value order come from @michelscope/michelson's one
 * `findEntrypoint` and `compareValues`; these tests pin the Octez behaviour the interpreter needs from them.
 */
import { compareValues as compareMicheline } from '@michelscope/michelson';
import { describe, expect, it } from 'vitest';
import type { Expr } from '../src/index';
import { compareTyped, entrypointPath, parseData, runContract, toTy } from '../src/index';

const typed = (type: string, value: Expr) => parseData(value, toTy({ prim: type }));

describe('entrypoints in the interpreter (Octez rule: field annotations only)', () => {
  const param: Expr = {
    prim: 'or',
    args: [
      { prim: 'nat', annots: ['%add'] },
      { prim: 'or', args: [{ prim: 'unit' }, { prim: 'string', annots: ['%name'] }] },
    ],
  };

  it('finds named leaves with their Left/Right path and the root as default', () => {
    expect(entrypointPath(param, 'add')).toEqual({ path: ['Left'], ty: { prim: 'nat', args: [] } });
    expect(entrypointPath(param, 'name')).toEqual({
      path: ['Right', 'Right'],
      ty: { prim: 'string', args: [] },
    });
    expect(entrypointPath(param, 'default')?.path).toEqual([]);
  });

  it("does not call unnamed leaves by the explorer's generated names", () => {
    expect(entrypointPath(param, 'entrypoint_1')).toBeNull();
    const r = runContract({
      script: 'parameter (or (nat %add) unit); storage nat; code { CDR; NIL operation; PAIR }',
      storage: { int: '0' },
      parameter: { prim: 'Unit' },
      entrypoint: 'entrypoint_1',
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.id).toMatch(/bad_contract_parameter$|no_such_entrypoint$/);
  });
});

describe('the value order is the one compareValues of @michelscope/michelson', () => {
  const cases: [string, Expr, Expr][] = [
    ['int', { int: '-5' }, { int: '3' }],
    ['string', { string: 'abc' }, { string: 'abd' }],
    ['bytes', { bytes: '00ff' }, { bytes: '0100' }],
    ['timestamp', { string: '2024-01-01T00:00:00Z' }, { int: '1704067201' }],
    // implicit accounts sort before originated ones; then by hash
    [
      'address',
      { string: 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi' },
      { string: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
    ],
    [
      'address',
      { string: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
      { string: 'tz2BFTyPeYRzxd5aiBchbXN3WCZhx7BqbMBq' },
    ],
    [
      'key_hash',
      { string: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx' },
      { string: 'tz3WXYtyDUNL91qfiCJtVUX746QpNv5i5ve5' },
    ],
  ];

  it.each(cases)('%s: the interpreter (typed values) and the explorer (Micheline) agree', (type, a, b) => {
    const t = { prim: type, args: [] };
    const want = compareMicheline(t, a, b);
    expect(want).not.toBe(0);
    expect(compareTyped(typed(type, a), typed(type, b))).toBe(want);
    expect(compareTyped(typed(type, b), typed(type, a))).toBe(-want);
    expect(compareTyped(typed(type, a), typed(type, a))).toBe(0);
  });

  it('orders addresses with an entrypoint after the bare address (Octez: contract, then entrypoint)', () => {
    const bare = typed('address', { string: 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi' });
    const withEp = typed('address', { string: 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi%a' });
    expect(compareTyped(bare, withEp)).toBe(-1);
  });

  it('refuses to order values of a non-comparable type as Octez does', () => {
    const list = parseData([{ int: '1' }], toTy({ prim: 'list', args: [{ prim: 'int' }] }));
    expect(() => compareTyped(list, list)).toThrow(/not comparable/);
  });
});
