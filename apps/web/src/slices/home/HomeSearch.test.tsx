// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';
import { matchingRoute, mockFetch, resourceRoute, type Route } from '../../app/testing/mock-fetch';
import type { SearchItem } from '@michelscope/api-types';

const KT = (n: number) => `KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXit${'123456789ABCDEFGH'[n]}`;
const OP = 'ooz6h1jcE4qP9ZhUq9ygqXDqvcWHJbRW9wYjKr2LXGzeLFhzZsh';
const row = (n: number) => ({
  id: n,
  address: KT(n),
  last_action: '2026-01-01T10:00:00Z',
  operations_count: 1234 + n,
});

const hicToken: SearchItem = {
  type: 'token',
  value: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
  found_by: 'Name',
  highlights: { Name: ['<em>hic</em> et nunc'] },
  body: {
    Network: 'mainnet',
    Address: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
    TokenID: '152',
    Name: 'hic et nunc DAO',
  },
};

const opItem: SearchItem = {
  type: 'operation',
  value: OP,
  found_by: 'Hash',
  body: {
    Network: 'mainnet',
    Hash: OP,
    Counter: 1,
    Level: 10,
    '@timestamp': '2026-01-01T10:00:00Z',
    Status: 'applied',
    Entrypoint: '',
    Destination: '',
    Type: 'transaction',
    mempool: false,
  },
};

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function standardRoutes(extra: Route[] = []) {
  return mockFetch([
    ...extra,
    resourceRoute('head', []),
    matchingRoute('recentlyCalled', /GET \/v1\/stats\/\w+\/recently_called_contracts/, (c) => {
      const offset = Number(new URL(c.url, 'http://x').searchParams.get('offset'));
      return offset >= 6 ? [row(7)] : [row(offset + 1), row(offset + 2), row(offset + 3)];
    }),
    // KT(1) has a name; no other account has one
    matchingRoute('accountAliases', 'GET /search/v1/account/', (c) =>
      c.url.endsWith(KT(1))
        ? { TZIP: { Name: 'Quipuswap FA1.2 Exchange Pool' } }
        : new Response(null, { status: 204 }),
    ),
    resourceRoute('suggest', { items: [hicToken] }),
  ]);
}

describe('home: recently called contracts', () => {
  it('shows 3 rows per page with aliases cut at 20 characters', async () => {
    const net = standardRoutes();
    renderApp('/');
    const table = await screen.findByRole('table', { name: 'Recently called contracts on mainnet' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(await within(table).findByRole('link', { name: 'Quipuswap FA1.2 Exch…' })).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'Quipuswap FA1.2 Exch…' }).getAttribute('href')).toBe(
      `/mainnet/${KT(1)}/operations`,
    );
    expect(within(table).getAllByText('1.2K')).toHaveLength(3);
    expect(net.callsTo('GET /v1/stats/mainnet/recently_called_contracts')[0]?.url).toContain(
      'size=3&offset=0',
    );
  });

  it('pages through the table and starts again at page 1 when the network changes', async () => {
    const net = standardRoutes();
    renderApp('/');
    await screen.findByText('Quipuswap FA1.2 Exch…');
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() =>
      expect(net.calls.some((c) => c.url.includes('mainnet/recently_called_contracts?size=3&offset=3'))).toBe(
        true,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'ghostnet' }));
    await screen.findByRole('table', { name: 'Recently called contracts on ghostnet' });
    await waitFor(() =>
      expect(
        net.calls.some((c) => c.url.includes('ghostnet/recently_called_contracts?size=3&offset=0')),
      ).toBe(true),
    );
    expect(net.calls.some((c) => c.url.includes('ghostnet/recently_called_contracts?size=3&offset=3'))).toBe(
      false,
    );
    expect(screen.getByText(/^1–3/)).toBeTruthy();
  });

  it("says 'No called contracts found' for an empty network", async () => {
    mockFetch([resourceRoute('head', []), matchingRoute('recentlyCalled', 'GET /v1/stats/', [])]);
    renderApp('/');
    expect(await screen.findByText('No called contracts found')).toBeTruthy();
  });
});

describe('home: search box', () => {
  const type = (text: string) =>
    fireEvent.change(screen.getByRole('combobox', { name: 'Search' }), { target: { value: text } });
  const enter = () => fireEvent.keyDown(screen.getByRole('combobox', { name: 'Search' }), { key: 'Enter' });

  it('asks suggestions once the text has rested for 200 ms, trimmed', async () => {
    const net = standardRoutes();
    renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    type('h');
    type('hi');
    type('  hic ');
    expect(await screen.findByRole('option', { name: /hic et nunc DAO/ })).toBeTruthy();
    const suggests = net.callsTo('POST /search/v1/suggest');
    expect(suggests.map((c) => c.body)).toEqual([{ query: 'hic', size: 10, filters: {} }]);
  });

  it("shows a contract suggestion under its name from the search service's alias sources", async () => {
    standardRoutes([
      resourceRoute('suggest', {
        items: [
          {
            type: 'account',
            value: KT(2),
            found_by: 'Address',
            highlights: { Address: [`<em>${KT(2)}</em>`] },
            body: { Network: 'mainnet', Address: KT(2), IsContract: true, TzKT: { Name: 'Youves Engine' } },
          },
        ],
      }),
    ]);
    renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Search' }), { target: { value: KT(2) } });
    const option = await screen.findByRole('option', { name: /Youves Engine/ });
    // a KT1 account is named a contract, not an 'account'
    expect(option.textContent).toContain('mainnet · contract · found by Address');
  });

  it('cuts the text to 255 characters', async () => {
    const net = standardRoutes();
    renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    type(`${'x'.repeat(300)}`);
    await waitFor(() => expect(net.callsTo('POST /search/v1/suggest')).toHaveLength(1));
    expect((net.callsTo('POST /search/v1/suggest')[0]?.body as { query: string }).query).toHaveLength(255);
  });

  it('opens a chosen suggestion and remembers it in the recent searches', async () => {
    standardRoutes();
    const { router } = renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    type('hic');
    fireEvent.click(await screen.findByRole('option', { name: /hic et nunc DAO/ }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/mainnet/KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton/tokens'),
    );
    expect(router.state.location.search).toBe('?search=152');
    expect(localStorage.getItem('version')).toBe('0');
    expect(JSON.parse(localStorage.getItem('history') ?? '[]')).toEqual([
      expect.objectContaining({
        value: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
        type: 'token',
        alias: 'hic et nunc DAO',
      }),
    ]);
  });

  it('shows recent searches while the box is empty', async () => {
    localStorage.setItem('version', '0');
    localStorage.setItem('history', JSON.stringify([{ value: 'tzBTC', type: 'text' }]));
    standardRoutes();
    const { router } = renderApp('/');
    const box = await screen.findByRole('combobox', { name: 'Search' });
    fireEvent.mouseDown(box);
    fireEvent.click(await screen.findByRole('option', { name: /tzBTC/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?text=tzBTC'));
  });

  it('Enter: text longer than 2 characters opens the search page, shorter does nothing', async () => {
    standardRoutes();
    const { router } = renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    type('ab');
    enter();
    expect(router.state.location.pathname).toBe('/');
    type('hic et nunc');
    enter();
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toBe('?text=hic+et+nunc');
  });

  it('Enter: a contract address or an operation hash opens it where its suggestion is, else the search page', async () => {
    standardRoutes([
      resourceRoute('suggest', (call) => ({
        items:
          (call.body as { query: string }).query === OP
            ? [{ ...opItem, body: { ...opItem.body, Network: 'ghostnet' } }]
            : [],
      })),
    ]);
    const { router } = renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    type(OP);
    enter();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/ghostnet/opg/${OP}/contents`));
    await act(() => router.navigate('/'));
    // no network knows it: the search page says so, instead of a 404 on the first network
    fireEvent.change(await screen.findByRole('combobox', { name: 'Search' }), { target: { value: KT(4) } });
    enter();
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toBe(`?text=${KT(4)}`);
  });

  it('Enter before the suggestions came: waits for them and opens the address on the network that knows it', async () => {
    let answer: (value: { items: SearchItem[] }) => void = () => {};
    const net = standardRoutes([
      resourceRoute('suggest', () => new Promise<{ items: SearchItem[] }>((resolve) => (answer = resolve))),
    ]);
    const { router } = renderApp('/');
    await screen.findByRole('combobox', { name: 'Search' });
    // pasted and Enter at once: no suggestion yet (the 200 ms pause has not passed)
    type(KT(6));
    enter();
    await waitFor(() => expect(net.callsTo('POST /search/v1/suggest')).toHaveLength(1));
    expect(net.callsTo('POST /search/v1/suggest')[0]?.body).toEqual({ query: KT(6), size: 10, filters: {} });
    expect(router.state.location.pathname).toBe('/');
    answer({
      items: [
        {
          type: 'account',
          value: KT(6),
          found_by: 'Address',
          body: { Network: 'sandboxnet', Address: KT(6), IsContract: true },
        },
      ],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`/sandboxnet/${KT(6)}/operations`));
    // the list shows it too, from the same answer: one request
    expect(net.callsTo('POST /search/v1/suggest')).toHaveLength(1);
  });

  it('keyboard: arrows move the active option (aria-activedescendant), Enter opens it, Escape closes the list', async () => {
    standardRoutes([
      resourceRoute('suggest', {
        items: [
          hicToken,
          {
            ...hicToken,
            value: KT(5),
            body: { ...hicToken.body, Address: KT(5), TokenID: '7', Name: 'hic second' },
          },
        ],
      }),
    ]);
    const { router } = renderApp('/');
    const box = await screen.findByRole('combobox', { name: 'Search' });
    type('hic');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(2);
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    const key = (k: string) => fireEvent.keyDown(box, { key: k });
    key('ArrowDown');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    key('ArrowDown');
    key('ArrowDown');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    key('ArrowUp');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    key('Escape');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    // ArrowDown opens the list again (nothing active), the next one activates the first option.
    key('ArrowDown');
    expect(await screen.findByRole('listbox')).toBeTruthy();
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    key('ArrowDown');
    key('ArrowDown');
    key('Enter');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/mainnet/${KT(5)}/tokens`));
    expect(router.state.location.search).toBe('?search=7');
  });

  it('the clear button empties the box and the list shows the recent searches again', async () => {
    localStorage.setItem('version', '0');
    localStorage.setItem('history', JSON.stringify([{ value: 'tzBTC', type: 'text' }]));
    standardRoutes();
    renderApp('/');
    const box = await screen.findByRole('combobox', { name: 'Search' });
    type('hic');
    expect(await screen.findByRole('option', { name: /hic et nunc DAO/ })).toBeTruthy();
    // (visible while the field has the focus or the pointer, which jsdom does not give it: found by title)
    fireEvent.click(screen.getByTitle('Clear'));
    expect((box as HTMLInputElement).value).toBe('');
    expect(await screen.findByRole('option', { name: /tzBTC/ })).toBeTruthy();
    expect(screen.getByRole('listbox', { name: 'Recent searches' })).toBeTruthy();
    expect(screen.queryByTitle('Clear')).toBeNull();
  });

  it('carries the framework advertisement line', async () => {
    standardRoutes();
    renderApp('/');
    expect((await screen.findByRole('link', { name: 'DipDup' })).getAttribute('href')).toBe(
      'https://dipdup.io',
    );
  });
});
