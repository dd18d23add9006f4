import { describe, expect, it } from 'vitest';
import type { MiguelNode } from '@michelscope/api-types';
import {
  defaultEnds,
  hasChange,
  operationChoices,
  orderedEnds,
  pageRange,
  parseLevel,
} from './storage-compare-logic';

const node = (over: Partial<MiguelNode>): MiguelNode => ({
  prim: 'nat',
  type: 'nat',
  name: 'n',
  value: '1',
  ...over,
});

describe('storage compare logic', () => {
  it('reads levels typed with separators and refuses anything else', () => {
    expect(parseLevel(' 1,234 ')).toBe(1234);
    expect(parseLevel('0')).toBe(0);
    expect(parseLevel('-3')).toBeNull();
    expect(parseLevel('1e3')).toBeNull();
    expect(parseLevel('99999999999')).toBeNull();
    expect(parseLevel(null)).toBeNull();
  });

  it('orders the two ends and refuses equal or missing ones', () => {
    expect(orderedEnds(20, 10)).toEqual({ from: 10, to: 20 });
    expect(orderedEnds(10, 10)).toBeNull();
    expect(orderedEnds(null, 10)).toBeNull();
  });

  it('offers the two newest storage changes, or the level before the only one', () => {
    expect(defaultEnds([5, 40, 12])).toEqual({ from: 12, to: 40 });
    expect(defaultEnds([7])).toEqual({ from: 6, to: 7 });
    expect(defaultEnds([])).toBeNull();
  });

  it('finds a change mark at any depth', () => {
    expect(
      hasChange(node({ children: [node({}), node({ children: [node({ diff_type: 'update' })] })] })),
    ).toBe(true);
    expect(hasChange(node({ children: [node({})] }))).toBe(false);
    expect(hasChange(null)).toBe(false);
  });

  it('lists one choice per operation group, without mempool rows', () => {
    const row = { entrypoint: 'transfer', kind: 'transaction', mempool: false };
    expect(
      operationChoices([
        { ...row, level: 1200, hash: 'ooAAAAAAAAAAAA' },
        { ...row, level: 1200, hash: 'ooAAAAAAAAAAAA' },
        { ...row, level: 0, hash: 'ooBBBBBBBBBBBB', mempool: true },
        { ...row, level: 900, hash: 'ooCCCCCCCCCCCC', entrypoint: '', kind: 'origination' },
      ]).map((c) => c.text),
    ).toEqual(['1,200 · transfer · ooAAAAAAAA…', '900 · origination · ooCCCCCCCC…']);
  });

  it('says which rows a page shows', () => {
    expect(pageRange(1, 20, 20, 10_000)).toBe('21–40 of 10,000');
    expect(pageRange(0, 20, 0, 0)).toBe('0 of 0');
  });
});
