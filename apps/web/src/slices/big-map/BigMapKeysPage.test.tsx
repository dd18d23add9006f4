// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatMichelsonInline, toMiguel, type Micheline } from '@michelscope/michelson';
import { renderApp } from '../../app/testing/render-app';
import type { BigMapKeyItem } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { contractFrame } from '../../app/testing/contract-page';
import { SHARED_DIR, hasShared } from '../operation/testing/rpc-group';

// hic et nunc OBJKT ledger, big map 511 (real mainnet entries).
const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
interface Entry {
  name: string;
  type: { args: Micheline[] };
  key: Micheline;
  value: Micheline;
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe.skipIf(!hasShared)('big map keys page', () => {
  if (!hasShared) console.warn('skipping the big map page tests: ../shared/fixtures is absent');

  function setup() {
    const entries = JSON.parse(
      readFileSync(path.join(SHARED_DIR, 'fixtures/contracts', KT, 'bigmaps/511.json'), 'utf8'),
    ) as Entry[];
    const [keyType, valueType] = entries[0]?.type.args ?? [];
    const item = (e: Entry, i: number): BigMapKeyItem => ({
      data: {
        key: toMiguel(keyType as Micheline, e.key)[0]!,
        key_hash: String(e.name.split('-').pop()),
        key_string: formatMichelsonInline(e.key),
        level: 1_400_000 + i,
        timestamp: '2021-03-01T00:00:00Z',
        is_active: i !== 1,
      },
      count: 1,
    });
    const first = entries.slice(0, 10).map(item);
    const firstHash = first[0]!.data.key_hash;
    const map = { network: 'mainnet', ptr: 511 };
    const keys = { ...map, size: 10, search: '', activeOnly: false };
    // the first two keys match the search; the second was removed
    const found = entries.slice(0, 2).map(item);
    const mock = mockFetch([
      ...contractFrame('mainnet', KT, { contract: { tags: ['fa2'] } }),
      resourceRoute('bigMapHistory', map, {
        address: KT,
        ptr: 511,
        items: [
          { action: 'alloc', source_ptr: 511, level: 1_365_000, timestamp: '2021-03-01T00:00:00Z' },
          {
            action: 'copy',
            source_ptr: 400,
            destination_ptr: 511,
            level: 1_365_000,
            timestamp: '2021-03-01T00:00:00Z',
          },
        ],
      }),
      resourceRoute('bigMapKeys', { ...keys, offset: 10 }, entries.slice(10, 20).map(item)),
      // the next page by keyset, after the last key of the page shown (the offset is not sent)
      resourceRoute(
        'bigMapKeys',
        { ...keys, offset: 10, after: first.at(-1)!.data.key_hash },
        entries.slice(10, 20).map(item),
      ),
      resourceRoute('bigMapKeys', { ...keys, offset: 40 }, entries.slice(40, 50).map(item)),
      resourceRoute('bigMapKeys', { ...keys, offset: 0, search: 'tz1UBZ' }, found),
      resourceRoute(
        'bigMapKeys',
        { ...keys, offset: 0, search: 'tz1UBZ', activeOnly: true },
        found.filter((k) => k.data.is_active),
      ),
      resourceRoute('bigMapKeys', { ...keys, offset: 0 }, first),
      resourceRoute(
        'bigMapKeyState',
        { ...map, keyHash: firstHash },
        {
          key_hash: firstHash,
          key_string: first[0]!.data.key_string,
          value: toMiguel(valueType as Micheline, entries[0]?.value as Micheline)[0]!,
          last_update_level: 1_400_000,
          last_update_time: '2021-03-01T00:00:00Z',
          removed: false,
          updates_count: 1,
        },
      ),
      resourceRoute('bigMap', map, {
        address: KT,
        network: 'mainnet',
        ptr: 511,
        active_keys: 12_000,
        total_keys: 15_000,
        typedef: [{ name: 'ledger', type: 'big_map(pair(address, nat), nat)' }],
      }),
      resourceRoute('bigMapTotalBytes', map, '123456'),
    ]);
    return { mock, entries, firstHash };
  }

  it('shows the sidebar, the keys with their state, and filters with the spec rules', async () => {
    const { mock, firstHash, entries } = setup();
    const firstKey = formatMichelsonInline(entries[0]?.key as Micheline);
    renderApp(`/mainnet/${KT}/storage/big_map/511/keys`);
    const side = await screen.findByRole('complementary', { name: 'Big map details' });
    expect(await within(side).findByText('Allocated')).toBeTruthy();
    expect(await within(side).findByText('12,000 / 15,000')).toBeTruthy();
    expect(await within(side).findByText('123,456 bytes')).toBeTruthy();
    expect(within(side).getByRole('link', { name: 'Big Map 400' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/storage/big_map/400/keys`,
    );

    const list = await screen.findByRole('list', { name: 'Keys' });
    const keys = within(list).getAllByRole('listitem');
    expect(keys).toHaveLength(10);
    expect(within(keys[1] as HTMLElement).getByText('Removed')).toBeTruthy();
    expect(within(keys[0] as HTMLElement).getByText(firstKey)).toBeTruthy();
    fireEvent.click(within(keys[0] as HTMLElement).getByText(firstKey));
    expect(await within(keys[0] as HTMLElement).findByRole('tree', { name: 'Value' })).toBeTruthy();
    expect(
      within(keys[0] as HTMLElement)
        .getByRole('link', { name: 'View history' })
        .getAttribute('href'),
    ).toBe(`/mainnet/${KT}/storage/big_map/511/${firstHash}`);
    // 15,000 keys: 1,500 pages
    expect(screen.getByRole('button', { name: 'Go to page 1500' })).toBeTruthy();

    const filter = screen.getByPlaceholderText('Start typing a key or paste a key hash');
    fireEvent.change(filter, { target: { value: 'tz' } });
    await act(() => new Promise((r) => setTimeout(r, 250)));
    expect(mock.calls.filter((c) => c.url.includes('search='))).toHaveLength(0);
    fireEvent.change(filter, { target: { value: '  tz1UBZ ' } });
    await waitFor(() =>
      expect(
        mock.calls.filter((c) => c.url.includes('search=tz1UBZ&') || c.url.endsWith('search=tz1UBZ')),
      ).toHaveLength(1),
    );

    fireEvent.click(screen.getByLabelText('Only active'));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Keys' })).getAllByRole('listitem')).toHaveLength(1),
    );
  });

  it('reads the next page after the last key shown (keyset), and a page jumped to by its offset', async () => {
    const { mock, entries } = setup();
    renderApp(`/mainnet/${KT}/storage/big_map/511/keys`);
    const list = await screen.findByRole('list', { name: 'Keys' });
    expect(await within(list).findAllByRole('listitem')).toHaveLength(10);
    const key = (i: number) => formatMichelsonInline(entries[i]?.key as Micheline);
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await within(list).findByText(key(10))).toBeTruthy();
    const pageTwo = mock.calls.filter((c) => c.url.includes('/bigmap/mainnet/511/keys?')).at(-1)!.url;
    expect(pageTwo).toContain('after=');
    expect(pageTwo).not.toContain('offset=');
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 5' }));
    expect(await within(list).findByText(key(40))).toBeTruthy();
    expect(mock.calls.filter((c) => c.url.includes('/bigmap/mainnet/511/keys?')).at(-1)!.url).toContain(
      'offset=40',
    );
  });
});
