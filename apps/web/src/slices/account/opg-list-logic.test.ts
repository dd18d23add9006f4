import { describe, expect, it } from 'vitest';
import type { OpgRow } from '../../api/opg-types';
import {
  dateRange,
  entrypointLabel,
  flowKind,
  isLastPage,
  isNarrowSearch,
  listRowKey,
  mergeMempool,
  opgRowKey,
  prependNew,
  rowForKey,
  searchStatuses,
  withIndex,
} from './opg-list-logic';

// The worked example of bcd-api.md §3.23 (a real row shape of GET /contract/{N}/{A}/opg).
const row: OpgRow = {
  last_id: 67,
  content_index: 0,
  counter: 540,
  level: 37,
  total_cost: 518,
  flow: 0,
  internals: 0,
  hash: 'ootets92MnoSsoYDuGTwDjdHfEvcRA688Qhj6iRVXRYoMmmG559',
  entrypoint: '@entrypoint_0',
  timestamp: '2022-01-25T16:54:35Z',
  status: 'applied',
  kind: 'transaction',
};

describe('operations list rules', () => {
  it('labels entrypoints, several as "X and N calls"', () => {
    expect(entrypointLabel(row)).toBe('@entrypoint_0');
    expect(entrypointLabel({ entrypoint: 'transfer,update_operators,transfer', kind: 'transaction' })).toBe(
      'transfer and 2 calls',
    );
    expect(entrypointLabel({ entrypoint: '', kind: 'smart_rollup_originate' })).toBe(
      'smart rollup originate',
    );
  });

  it('ends the list on a short or empty page', () => {
    expect(isLastPage(10, 10)).toBe(false);
    expect(isLastPage(3, 10)).toBe(true);
    expect(isLastPage(0, 10)).toBe(true);
  });

  it('tells locked from withdrawn', () => {
    expect([flowKind(5), flowKind(-5), flowKind(0)]).toEqual(['locked', 'withdrawn', null]);
  });

  it('sends only searchable statuses and skips the search when none remain', () => {
    expect(searchStatuses([])).toEqual([]);
    expect(searchStatuses(['applied', 'pending'])).toEqual(['applied']);
    expect(searchStatuses(['pending', 'lost'])).toBeNull();
  });

  it('includes the whole end day, and a single date is that day', () => {
    const now = Date.parse('2024-01-10T12:00:00Z');
    expect(dateRange('2024-01-01', '2024-01-03', now)).toEqual({
      gte: Date.parse('2024-01-01T00:00:00Z'),
      lt: Date.parse('2024-01-04T00:00:00Z'),
    });
    expect(dateRange('2024-01-05', '', now)).toEqual({
      gte: Date.parse('2024-01-05T00:00:00Z'),
      lt: Date.parse('2024-01-06T00:00:00Z'),
    });
    expect(dateRange('2018-06-29', '', now)).toBeNull();
    expect(dateRange('2024-02-01', '', now)).toBeNull();
  });

  it('merges mempool rows first, newest first, only without filters and with a non-empty list', () => {
    const pendingRow = (hash: string, timestamp: string): OpgRow => ({
      ...row,
      last_id: 0,
      hash,
      timestamp,
      status: 'pending',
      mempool: true,
    });
    const pending = [pendingRow('oA', '2024-01-01T00:00:00Z'), pendingRow('oB', '2024-01-02T00:00:00Z')];
    expect(mergeMempool([row], pending, false).map((r) => r.hash)).toEqual(['oB', 'oA', row.hash]);
    expect(mergeMempool([row], pending, true).map((r) => r.hash)).toEqual([row.hash]);
    expect(mergeMempool([], pending, false)).toEqual([]);
  });

  it('narrows the search box below 240 px', () => {
    expect([isNarrowSearch(239), isNarrowSearch(240)]).toEqual([true, false]);
  });
});

describe('prependNew (live rows on top of the first page)', () => {
  const at = (last_id: number, hash = `oo${last_id}`) => ({ ...row, last_id, hash });
  it('puts the new rows before the first page and leaves the other pages as they are', () => {
    const pages = [[at(70), at(69)], [at(68)]];
    expect(prependNew(pages, [at(72), at(71)]).map((p) => p.map((r) => r.last_id))).toEqual([
      [72, 71, 70, 69],
      [68],
    ]);
  });
  it('never adds a row twice (a row already loaded on any page is left out)', () => {
    const pages = [[at(70)], [at(68)]];
    expect(prependNew(pages, [at(71), at(68), at(70)]).map((p) => p.map(opgRowKey))).toEqual([
      [opgRowKey(at(71)), opgRowKey(at(70))],
      [opgRowKey(at(68))],
    ]);
  });
});

describe('the virtual list', () => {
  it('keys a mempool row apart from the same group indexed', () => {
    expect(listRowKey(row)).toBe(opgRowKey(row));
    expect(listRowKey({ ...row, mempool: true })).toBe(`m${opgRowKey(row)}`);
  });
  it('renders the focused row with its window, in order, once', () => {
    expect(withIndex([10, 11, 12], 3)).toEqual([3, 10, 11, 12]);
    expect(withIndex([10, 11, 12], 40)).toEqual([10, 11, 12, 40]);
    expect(withIndex([10, 11, 12], 11)).toEqual([10, 11, 12]);
    expect(withIndex([10, 11, 12], -1)).toEqual([10, 11, 12]);
  });
  it('moves by keyboard one row, or to the first or last, within the list', () => {
    expect([rowForKey('ArrowDown', 3, 10), rowForKey('ArrowUp', 3, 10)]).toEqual([4, 2]);
    expect([rowForKey('Home', 3, 10), rowForKey('End', 3, 10)]).toEqual([0, 9]);
    expect([rowForKey('ArrowUp', 0, 10), rowForKey('ArrowDown', 9, 10)]).toEqual([0, 9]);
    expect(rowForKey('Enter', 3, 10)).toBeNull();
  });
});
