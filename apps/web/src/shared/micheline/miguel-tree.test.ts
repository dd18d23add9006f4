import { describe, expect, it } from 'vitest';
import type { MiguelNode } from '../../api/contract-types';
import { allContainerIds, changedPathIds, flattenTree, numericDelta } from './miguel-tree';

/** Miguel trees as the API writes them (typed by api-types). */
const miguel = (nodes: MiguelNode[]): MiguelNode[] => nodes;

// Reference examples of bcd-api.md §5.4.
const initiate = miguel([
  {
    prim: 'pair',
    type: 'namedtuple',
    name: 'initiate',
    children: [
      {
        prim: 'address',
        type: 'address',
        name: 'participant',
        value: 'tz1N5wmDvBHUGQ8ZYbZMJAPG6kcjeXGrT3U6',
      },
      {
        prim: 'pair',
        type: 'namedtuple',
        name: 'settings',
        children: [
          { prim: 'bytes', type: 'bytes', name: 'hashed_secret', value: '758a' },
          { prim: 'timestamp', type: 'timestamp', name: 'refund_time', value: '2021-02-09T11:10:27Z' },
          { prim: 'mutez', type: 'mutez', name: 'payoff', value: '1500000' },
        ],
      },
    ],
  },
]);

describe('Miguel tree rows', () => {
  it('flattens the root named tuple and formats leaves', () => {
    const rows = flattenTree(initiate, allContainerIds(initiate));
    expect(rows.map((r) => [r.depth, r.label, r.value])).toEqual([
      [0, 'participant', 'tz1N5wmDvBHUGQ8ZYbZMJAPG6kcjeXGrT3U6'],
      [0, 'settings', ''],
      [1, 'hashed_secret', '758a'],
      [1, 'refund_time', expect.stringMatching(/^9 Feb'21 \d\d:\d\d$/) as unknown as string],
      [1, 'payoff', '1.5 ꜩ'],
    ]);
  });

  it('names map children by key, counts items and hides closed children', () => {
    const map = miguel([
      {
        prim: 'map',
        type: 'map',
        name: 'openAuction',
        children: [
          { prim: 'int', type: 'int', name: '0', value: '8000' },
          { prim: 'int', type: 'int', name: '1', value: '7' },
        ],
      },
    ]);
    const closed = flattenTree(map, new Set());
    expect(closed.map((r) => [r.label, r.count, r.expanded])).toEqual([['openAuction', '2 items', false]]);
    const open = flattenTree(map, allContainerIds(map));
    expect(open.map((r) => [r.label, r.value])).toEqual([
      ['openAuction', ''],
      ['0', '8,000'],
      ['1', '7'],
    ]);
  });

  it('opens only the path to changed nodes in a diff and shows the previous value', () => {
    const diff = miguel([
      {
        prim: 'pair',
        type: 'namedtuple',
        name: '@pair_1',
        children: [
          {
            prim: 'map',
            type: 'map',
            name: 'a',
            children: [{ prim: 'nat', type: 'nat', name: 'k', value: '1' }],
          },
          {
            prim: 'or',
            type: 'or',
            name: '@or_1',
            children: [
              { prim: 'int', type: 'int', name: '@int_2', from: '0', diff_type: 'update', value: '10' },
            ],
          },
        ],
      },
    ]);
    const rows = flattenTree(diff, changedPathIds(diff), true);
    expect(rows.map((r) => [r.label, r.from, r.value, r.diff])).toEqual([
      ['a', '', '', null],
      ['or', '', '', null],
      ['int', '0', '10', 'update'],
    ]);
    expect(numericDelta('int', '0', '10')).toBe('(+10)');
    expect(numericDelta('mutez', '2000000', '1000000')).toBe('(-1 ꜩ)');
  });

  it('survives a hostile, very deep tree', () => {
    let node: MiguelNode = { prim: 'nat', type: 'nat', name: 'leaf', value: '1' };
    for (let i = 0; i < 5000; i += 1)
      node = { prim: 'option', type: 'option', name: `n${i}`, children: [node] };
    const roots = miguel([node]);
    const rows = flattenTree(roots, allContainerIds(roots));
    expect(rows.length).toBeGreaterThan(200);
    expect(rows.length).toBeLessThanOrEqual(258);
  });
});

describe('Miguel tree labels of unannotated types', () => {
  it("shows a generated name ('@nat_1', '@pair_16') as the type, and a map key as it is", () => {
    const roots = miguel([
      { prim: 'nat', type: 'nat', name: '@nat_1', value: '1022' },
      {
        prim: 'pair',
        type: 'namedtuple',
        name: '@pair_2',
        children: [
          {
            prim: 'address',
            type: 'address',
            name: '@address_3',
            value: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
          },
          {
            prim: 'map',
            type: 'map',
            name: 'notes',
            children: [{ prim: 'nat', type: 'nat', name: '@nat_7', value: '3' }],
          },
        ],
      },
    ]);
    const rows = flattenTree(roots, allContainerIds(roots));
    expect(rows.map((r) => [r.depth, r.label, r.value])).toEqual([
      [0, 'nat', '1,022'],
      // a root pair shows its fields
      [0, 'address', 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx'],
      [0, 'notes', ''],
      // a map child's name is its key (a user's string, whatever it looks like)
      [1, '@nat_7', '3'],
    ]);
  });
});

describe('Miguel tree rows of a large tree, toggled', () => {
  /** A storage as the benchmark's: a list of `n` pairs of two numbers (3n + 1 nodes). */
  const pairs = (n: number) =>
    miguel([
      {
        prim: 'list',
        type: 'list',
        name: 'entries',
        children: Array.from({ length: n }, (_, i) => ({
          prim: 'pair',
          type: 'namedtuple',
          name: '@pair_2',
          children: [
            { prim: 'nat', type: 'nat', name: 'a', value: String(i * 1000) },
            { prim: 'int', type: 'int', name: '@int_4', value: String(-i) },
          ],
        })),
      },
    ]);
  const texts = (rows: ReturnType<typeof flattenTree>) =>
    rows.map((r) => [r.id, r.depth, r.label, r.value, r.count, r.expanded, r.pos, r.size].join('|'));

  it('gives after each toggle the rows and texts of a tree flattened afresh', () => {
    const roots = pairs(3333);
    const all = allContainerIds(roots);
    const open = flattenTree(roots, all);
    expect(open).toHaveLength(10_000);
    expect(texts(open.slice(0, 4))).toEqual([
      '0|0|entries||3,333 items|true|1|1',
      '0.0|1|0|||true|1|3333',
      '0.0.0|2|a|0||false|1|2',
      '0.0.1|2|int|0||false|2|2',
    ]);
    // a pair closed: its fields are gone, the rows after it are as they were
    const closed = new Set(all);
    closed.delete('0.1');
    const afterClose = flattenTree(roots, closed);
    expect(afterClose).toHaveLength(9_998);
    expect(texts(afterClose.slice(3, 8))).toEqual([
      '0.0.1|2|int|0||false|2|2',
      '0.1|1|1|||false|2|3333',
      '0.2|1|2|||true|3|3333',
      '0.2.0|2|a|2,000||false|1|2',
      '0.2.1|2|int|-2||false|2|2',
    ]);
    // the same as a copy of the tree (other node objects) flattened once
    expect(texts(afterClose)).toEqual(texts(flattenTree(structuredClone(roots), closed)));
    // opened again: the first rows again; a row that did not change is the same object
    const reopened = flattenTree(roots, all);
    expect(texts(reopened)).toEqual(texts(open));
    expect(reopened[9_999]).toBe(open[9_999]);
    // the list closed, then opened
    expect(texts(flattenTree(roots, new Set()))).toEqual(['0|0|entries||3,333 items|false|1|1']);
    expect(texts(flattenTree(roots, all))).toEqual(texts(open));
  });

  it('gives a node met at another place, or in the other diff mode, its own label and count', () => {
    const shared: MiguelNode = { prim: 'nat', type: 'nat', name: 'n', value: '5' };
    const map: MiguelNode = { prim: 'big_map', type: 'big_map', name: 'm', children: [shared] };
    const roots = miguel([{ prim: 'list', type: 'list', name: 'l', children: [shared, shared] }, map]);
    const rows = flattenTree(roots, allContainerIds(roots));
    expect(rows.map((r) => [r.id, r.label, r.value, r.count])).toEqual([
      ['0', 'l', '', '2 items'],
      ['0.0', '0', '5', ''],
      ['0.1', '1', '5', ''],
      ['1', 'm', '', '1 items'],
      // a map's child is named by its key
      ['1.0', 'n', '5', ''],
    ]);
    expect(flattenTree(roots, new Set(), true).map((r) => r.count)).toEqual(['2 items', '1 diffs']);
    expect(flattenTree(roots, new Set()).map((r) => r.count)).toEqual(['2 items', '1 items']);
  });
});
