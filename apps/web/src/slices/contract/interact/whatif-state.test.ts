import { describe, expect, it } from 'vitest';
import {
  emptyWhatIf,
  fieldError,
  hasOverrides,
  keepBigMaps,
  moveCall,
  overridesErrors,
  whatIfRequest,
  type BundleCall,
  type WhatIfState,
} from './whatif-state';

const ALICE = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const KT1 = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';
const call = (entrypoint: string, data: Record<string, unknown> = {}): BundleCall => ({
  entrypoint,
  data,
  amount: '',
  source: '',
  sender: '',
});
const withOverrides = (o: Partial<WhatIfState['overrides']>): WhatIfState => {
  const s = emptyWhatIf();
  return { ...s, overrides: { ...s.overrides, ...o } };
};

describe('what-if state', () => {
  it('is plain JSON: a round trip through JSON gives the same request', () => {
    const s = withOverrides({
      storageMode: 'micheline',
      storageText: 'Pair 100 5',
      level: '77',
      now: '2030-01-01T00:00:00Z',
    });
    s.bundle = [call('increment', { increment: 5 }), call('increment', { increment: 7 })];
    const copy = JSON.parse(JSON.stringify(s)) as WhatIfState;
    expect(whatIfRequest(copy, call('x'), undefined)).toEqual(whatIfRequest(s, call('x'), undefined));
  });

  it('builds the API request: storage text parsed, numbers and big-map entries by id or name', () => {
    const s = withOverrides({
      storageMode: 'micheline',
      storageText: 'Pair 100 5',
      level: '77',
      balance: '1000',
      sender: KT1,
      chainId: 'NetXdQprcVkpaWU',
      bigMaps: [
        { map: 'ledger', key: `"${ALICE}"`, value: '12', remove: false },
        { map: '5', key: '"a"', value: '', remove: true },
      ],
    });
    expect(whatIfRequest(s, call('increment', { increment: 1 }), undefined)).toEqual({
      calls: [{ name: 'increment', data: { increment: 1 } }],
      overrides: {
        storage: { prim: 'Pair', args: [{ int: '100' }, { int: '5' }] },
        balance: '1000',
        level: 77,
        sender: KT1,
        chain_id: 'NetXdQprcVkpaWU',
        big_maps: [
          { path: 'ledger', key: { string: ALICE }, value: { int: '12' } },
          { ptr: 5, key: { string: 'a' }, value: null },
        ],
      },
    });
  });

  it('runs the bundle instead of the current call when there is one; no overrides, no overrides object', () => {
    const s = emptyWhatIf();
    s.bundle = [call('a'), call('b')];
    expect(whatIfRequest(s, call('current'), undefined)).toEqual({
      calls: [
        { name: 'a', data: {} },
        { name: 'b', data: {} },
      ],
    });
    expect(hasOverrides(s.overrides)).toBe(false);
    expect(hasOverrides(withOverrides({ level: '5' }).overrides)).toBe(true);
  });

  it('says what is wrong with each field', () => {
    const o = withOverrides({
      balance: '-1',
      now: 'yesterday',
      level: 'x',
      source: KT1,
      sender: 'tz1nope',
      chainId: 'Net',
      storageMode: 'micheline',
      storageText: 'Pair 1 (',
      bigMaps: [{ map: '', key: '1', value: '1', remove: false }],
    }).overrides;
    expect(fieldError('balance', o)).toBe('Mutez: a whole number of mutez');
    expect(fieldError('now', o)).toMatch(/^A time such as/);
    expect(fieldError('level', o)).toBe('A block level (a whole number)');
    expect(fieldError('source', o)).toMatch(/^An implicit account/);
    expect(fieldError('sender', o)).toMatch(/^An address/);
    expect(fieldError('chainId', o)).toBe('A chain id (Net…)');
    expect(fieldError('storage', o)).toMatch(/^Storage: /);
    expect(fieldError('bigMaps.0', o)).toBe('Choose the big map');
    expect(overridesErrors(o)).toHaveLength(8);
    expect(() => whatIfRequest({ overrides: o, bundle: [] }, call('x'), undefined)).toThrow('Mutez');
    expect(overridesErrors(emptyWhatIf().overrides)).toEqual([]);
  });

  it('gives a storage form value the current big maps back, through combs of any shape', () => {
    const type = {
      prim: 'pair',
      args: [
        { prim: 'int', annots: ['%counter'] },
        { prim: 'big_map', args: [{ prim: 'string' }, { prim: 'nat' }] },
        { prim: 'nat' },
      ],
    };
    const form = { prim: 'Pair', args: [{ int: '50' }, { prim: 'Pair', args: [[], { int: '2' }] }] };
    const current = [{ int: '7' }, { int: '31' }, { int: '9' }];
    expect(keepBigMaps(type, form, current)).toEqual({
      prim: 'Pair',
      args: [{ int: '50' }, { prim: 'Pair', args: [{ int: '31' }, { int: '2' }] }],
    });
    expect(keepBigMaps(type, form, undefined)).toBe(form);
    // entries typed in the form make a new big map: kept as typed
    const typed = {
      prim: 'Pair',
      args: [
        { int: '50' },
        { prim: 'Pair', args: [[{ prim: 'Elt', args: [{ string: 'a' }, { int: '1' }] }], { int: '2' }] },
      ],
    };
    expect(keepBigMaps(type, typed, current)).toEqual(typed);
  });

  it('moves a bundle call up and down, never out of the list', () => {
    const b = [call('a'), call('b'), call('c')];
    expect(moveCall(b, 2, -1).map((c) => c.entrypoint)).toEqual(['a', 'c', 'b']);
    expect(moveCall(b, 0, 1).map((c) => c.entrypoint)).toEqual(['b', 'a', 'c']);
    expect(moveCall(b, 0, -1).map((c) => c.entrypoint)).toEqual(['a', 'b', 'c']);
  });
});
