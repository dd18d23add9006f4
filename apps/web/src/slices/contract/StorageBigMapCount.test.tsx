// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { jsonSchema, toMiguel, typedef, type Micheline } from '@michelscope/michelson';
import { renderApp } from '../../app/testing/render-app';
import { anyQueryRoute, mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { contractFrame } from '../../app/testing/contract-page';
import { bigMapCountText } from '../../shared/micheline/MiguelTree';

// the demo counter: a counter and its notes, big map 7
const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const STORAGE_TYPE: Micheline = {
  prim: 'pair',
  args: [
    { prim: 'int', annots: ['%counter'] },
    { prim: 'big_map', args: [{ prim: 'string' }, { prim: 'nat' }], annots: ['%notes'] },
  ],
};
const storageAt = (counter: number) =>
  toMiguel(STORAGE_TYPE, { prim: 'Pair', args: [{ int: String(counter) }, { int: '7' }] });

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("a storage's big maps at an old level (issue 33)", () => {
  function routes() {
    const at = { network: 'mainnet', address: KT };
    return mockFetch([
      ...contractFrame('mainnet', KT, { contract: { entrypoints: [] } }),
      resourceRoute(
        'storageSchema',
        { ...at, fillType: null },
        { name: 'default', typedef: typedef(STORAGE_TYPE) ?? [], schema: jsonSchema(STORAGE_TYPE) },
      ),
      resourceRoute('storageLevels', at, [
        { level: 40, timestamp: '2026-01-10T00:10:00Z' },
        { level: 4, timestamp: '2026-01-10T00:00:00Z' },
      ]),
      resourceRoute('storage', { ...at, level: 4 }, storageAt(1)),
      resourceRoute('storage', { ...at, level: null }, storageAt(12)),
      anyQueryRoute('storageRaw', { ...at, level: null }, 'Pair 1 7'),
      // today big map 7 holds 7 keys; at the end of block 4 it held 2
      resourceRoute('bigMapCount', { network: 'mainnet', ptr: 7 }, { count: 7 }),
      resourceRoute('bigMapCount', { network: 'mainnet', ptr: 7, level: 4 }, { count: 2 }),
    ]);
  }

  it('the big map chip says how many keys it had at the level shown, not today', async () => {
    const mock = routes();
    renderApp(`/mainnet/${KT}/storage?level=4`);
    const tree = await screen.findByRole('tree', { name: 'Storage' });
    await waitFor(() => expect(within(tree).getByText(/2 keys/)).toBeTruthy());
    expect(within(tree).queryByText(/7 keys/)).toBeNull();
    // asked at that level only
    expect(mock.callsTo('GET /v1/bigmap/mainnet/7/count').map((c) => c.url)).toEqual([
      '/v1/bigmap/mainnet/7/count?level=4',
    ]);
  });

  it('one key is one key', () => {
    expect(bigMapCountText({ count: 1 })).toBe('1 key');
    expect(bigMapCountText({ count: 2 })).toBe('2 keys');
    expect(bigMapCountText({ count: 1, partial: true })).toBe('at least 1 key');
    expect(bigMapCountText({ count: 0, partial: true })).toBe('keys not indexed');
  });

  it('at the latest level the chip says the keys it has now', async () => {
    const mock = routes();
    renderApp(`/mainnet/${KT}/storage`);
    const tree = await screen.findByRole('tree', { name: 'Storage' });
    await waitFor(() => expect(within(tree).getByText(/7 keys/)).toBeTruthy());
    expect(mock.callsTo('GET /v1/bigmap/mainnet/7/count?')).toHaveLength(0);
  });
});
