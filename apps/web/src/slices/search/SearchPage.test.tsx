// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';
import type { SearchItem } from '@michelscope/api-types';
import { mockFetch, resourceRoute, type Call } from '../../app/testing/mock-fetch';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const OP = 'ooz6h1jcE4qP9ZhUq9ygqXDqvcWHJbRW9wYjKr2LXGzeLFhzZsh';
const token = (id: number, thumb = 'http://insecure.example/t.png'): SearchItem => ({
  type: 'token',
  value: KT,
  found_by: 'Name',
  highlights: { Name: [`<em>hic</em> et nunc #${id}`] },
  body: {
    Network: 'mainnet',
    Address: KT,
    TokenID: String(id),
    Name: `hic et nunc #${id}`,
    ThumbnailURI: thumb,
    Tags: ['art'],
    Homepage: 'javascript:alert(1)',
    Formats: [{ uri: 'ipfs://Qm', fileName: 'a.png', fileSize: 2048, mimeType: 'image/png' }],
  },
});
const mempoolOp: SearchItem = {
  type: 'operation',
  value: OP,
  found_by: 'hash',
  highlights: {},
  body: {
    Network: 'ghostnet',
    Hash: OP,
    Counter: null,
    Level: 0,
    Status: '',
    Entrypoint: '',
    Destination: '',
    Type: 'transaction',
    mempool: true,
    '@timestamp': '2025-11-20T10:00:00Z',
  },
};

type Body = {
  query: string;
  offset: number;
  filters: Record<string, { index: string[]; network: string[]; tags: string[] }>;
};
const bodies = (calls: Call[]) =>
  calls.filter((c) => c.url === '/search/v1/search').map((c) => c.body as Body);

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('search page', () => {
  it("invites to search before any query ('Let's search')", async () => {
    const net = mockFetch([]);
    renderApp('/search');
    expect(await screen.findByText("Let's search")).toBeTruthy();
    expect(bodies(net.calls)).toHaveLength(0);
  });

  it('searches the URL text on every network, cleans sc/redirected, shows the total and the first card', async () => {
    const net = mockFetch([
      resourceRoute('search', { items: [token(1), mempoolOp], total: 10000, took: 12 }),
      resourceRoute('mimeTypes', []),
    ]);
    const { router } = renderApp('/search?text=hic&sc=tokens&redirected=true');
    expect(await screen.findByText('Found more than 10000 documents (12 ms)')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?text=hic'));
    const [body] = bodies(net.calls);
    expect(body).toMatchObject({ query: 'hic', offset: 0, size: 10 });
    expect(body?.filters.search?.network).toEqual(['mainnet', 'sandboxnet', 'ghostnet']);
    expect(body?.filters.search?.index).toEqual(['accounts', 'operations', 'big-maps', 'tokens']);

    const card = screen.getByRole('region', { name: 'Token details' });
    expect(within(card).getByRole('heading', { name: 'hic et nunc #1' })).toBeTruthy();
    expect(within(card).getByText("Can't load image from thumbnail")).toBeTruthy();
    expect(within(card).queryByRole('img')).toBeNull();
    expect(within(card).queryByText('javascript:alert(1)')).toBeNull();
    expect(within(card).getByText(/a\.png — image\/png, 2 KiB/)).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Token page' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/tokens?search=1`,
    );
    const marks = screen.getAllByText('hic', { selector: 'mark' });
    expect(marks.length).toBeGreaterThan(0);

    fireEvent.click(screen.getByRole('button', { name: /ooz6h1jcE4qP/ }));
    const opCard = await screen.findByRole('region', { name: 'Operation details' });
    expect(within(opCard).getByText('mempool', { selector: '.MuiChip-label' })).toBeTruthy();
  });

  it('selects a result with the keyboard', async () => {
    mockFetch([resourceRoute('search', { items: [token(1), mempoolOp], total: 2, took: 1 })]);
    renderApp('/search?text=hic');
    const op = await screen.findByRole('button', { name: /ooz6h1jcE4qP/ });
    op.focus();
    expect(document.activeElement).toBe(op);
    fireEvent.keyDown(op, { key: 'Enter' });
    expect(await screen.findByRole('region', { name: 'Operation details' })).toBeTruthy();
  });

  it('puts the result list on the left and the selected card on the right (spec: discovery, Search page)', async () => {
    mockFetch([resourceRoute('search', { items: [token(1), mempoolOp], total: 2, took: 1 })]);
    renderApp('/search?text=hic');
    const card = await screen.findByRole('region', { name: 'Token details' });
    const list = screen.getByRole('list', { name: 'Search results' });
    // document order is visual order in the two-column grid (no CSS reordering)
    expect(list.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('search-side-card').contains(card)).toBe(true);
  });

  it('on a phone opens the card right under the tapped result, not off-screen', async () => {
    // a phone-width viewport for MUI's useMediaQuery (breakpoints.down('md'))
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    mockFetch([resourceRoute('search', { items: [token(1), mempoolOp], total: 2, took: 1 })]);
    renderApp('/search?text=hic');
    const op = await screen.findByRole('button', { name: /ooz6h1jcE4qP/ });
    expect(screen.queryByTestId('search-side-card')).toBeNull();
    fireEvent.click(op);
    const opCard = await screen.findByRole('region', { name: 'Operation details' });
    const inline = screen.getByTestId('search-inline-card');
    expect(inline.contains(opCard)).toBe(true);
    // right after the tapped result's list item
    expect(op.closest('li')?.nextElementSibling).toBe(inline);
    expect(screen.queryByRole('region', { name: 'Token details' })).toBeNull();
  });

  it('loads the next page until a page comes back short', async () => {
    const net = mockFetch([
      resourceRoute('search', (c) => {
        const offset = (c.body as Body).offset;
        const n = offset === 0 ? 10 : 3;
        return {
          items: Array.from({ length: n }, (_, i) => token(offset + i + 1, 'ipfs://QmThumb')),
          total: 13,
          took: 3,
        };
      }),
    ]);
    renderApp('/search?text=hic');
    expect(await screen.findByText('Found 13 documents (3 ms)')).toBeTruthy();
    const card = screen.getByRole('region', { name: 'Token details' });
    expect(within(card).getByRole('img').getAttribute('src')).toBe('https://ipfs.io/ipfs/QmThumb');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Search results' })).getAllByRole('button'),
      ).toHaveLength(13),
    );
    expect(bodies(net.calls).map((b) => b.offset)).toEqual([0, 10]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("says 'Nothing found' with its explanation", async () => {
    mockFetch([resourceRoute('search', { items: [], total: 0, took: 1 })]);
    renderApp('/search?text=zzzz');
    expect(await screen.findByText('Nothing found')).toBeTruthy();
    expect(screen.getByText('Empty set is also a result, otherwise try a broader query')).toBeTruthy();
  });

  it('waits 500 ms after typing, then searches the trimmed text and puts it in the URL', async () => {
    const net = mockFetch([resourceRoute('search', { items: [], total: 0, took: 1 })]);
    const { router } = renderApp('/search');
    const box = await screen.findByRole('textbox', { name: 'Search query' });
    fireEvent.change(box, { target: { value: 'tz' } });
    fireEvent.change(box, { target: { value: ' tzBTC ' } });
    await screen.findByText('Nothing found');
    expect(bodies(net.calls).map((b) => b.query)).toEqual(['tzBTC']);
    expect(router.state.location.search).toBe('?text=tzBTC');
  });

  it('filters by tab and by network chips', async () => {
    const net = mockFetch([resourceRoute('search', { items: [], total: 0, took: 1 })]);
    renderApp('/search?text=transfer');
    await screen.findByText('Nothing found');
    fireEvent.click(screen.getByRole('tab', { name: 'Operations' }));
    await waitFor(() => expect(bodies(net.calls).at(-1)?.filters.search?.index).toEqual(['operations']));
    fireEvent.click(screen.getByRole('checkbox', { name: 'ghostnet' }));
    await waitFor(() =>
      expect(bodies(net.calls).at(-1)?.filters.search?.network).toEqual(['mainnet', 'sandboxnet']),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'mainnet' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'sandboxnet' }));
    // at least one network stays selected
    expect(screen.getByRole('checkbox', { name: 'sandboxnet' }).getAttribute('aria-checked')).toBe('true');
  });

  it("'Verified source only' adds verified: true to the request and the URL, and marks verified contracts (issue 38)", async () => {
    // `verified` is the search service's mark on a verified contract's body (absent otherwise)
    const verifiedBody = { Network: 'mainnet', Address: KT, IsContract: true, verified: true as const };
    const contract: SearchItem = {
      type: 'account',
      value: KT,
      found_by: 'Address',
      highlights: {},
      body: verifiedBody,
    };
    const net = mockFetch([resourceRoute('search', { items: [contract], total: 1, took: 1 })]);
    const { router } = renderApp('/search?text=counter');
    await screen.findByRole('list', { name: 'Search results' });
    expect(bodies(net.calls).at(-1)?.filters.search).not.toHaveProperty('verified');
    // the result and its card carry the badge
    expect(screen.getAllByRole('img', { name: 'Verified source' }).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Verified source only' }));
    await waitFor(() => expect(bodies(net.calls).at(-1)?.filters.search).toMatchObject({ verified: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?text=counter&verified=true'));
    // not offered where no contract is listed
    fireEvent.click(screen.getByRole('tab', { name: 'Operations' }));
    expect(screen.queryByRole('checkbox', { name: 'Verified source only' })).toBeNull();
    await waitFor(() => expect(bodies(net.calls).at(-1)?.filters.search).not.toHaveProperty('verified'));
  });

  it('applies token filters from tag inputs; Apply is enabled only after a change', async () => {
    const net = mockFetch([
      resourceRoute('search', { items: [], total: 0, took: 1 }),
      resourceRoute('mimeTypes', [{ name: 'image/png' }]),
    ]);
    renderApp('/search');
    await screen.findByText("Let's search");
    expect(screen.queryByRole('button', { name: 'Filters' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Tokens' }));
    fireEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const apply = await screen.findByRole('button', { name: 'Apply filters' });
    expect(apply.hasAttribute('disabled')).toBe(true);
    expect(screen.getAllByText('Press enter to create a new one')).toHaveLength(4);
    const tags = screen.getByRole('combobox', { name: 'Tags' });
    fireEvent.change(tags, { target: { value: 'art' } });
    fireEvent.keyDown(tags, { key: 'Enter' });
    await waitFor(() => expect(apply.hasAttribute('disabled')).toBe(false));
    fireEvent.click(apply);
    await waitFor(() => expect(bodies(net.calls)).toHaveLength(1));
    expect(bodies(net.calls)[0]?.filters.tokens).toMatchObject({ tags: ['art'], index: ['tokens'] });
    expect(apply.hasAttribute('disabled')).toBe(true);
    // Leaving the Tokens tab resets the filters.
    fireEvent.click(screen.getByRole('tab', { name: 'Accounts' }));
    expect(await screen.findByText("Let's search")).toBeTruthy();
  });
});

describe('detail cards share the pages’ queries', () => {
  it('a contract card and the contract page read one contract query (full shape): the page opened from the card shows its Events and Ticket updates tabs', async () => {
    const TZ = 'tz1UBZUkXpKGhYsP5KtzDNqLLchwF4uHrGjw';
    const at = { network: 'mainnet', address: KT };
    const contractItem: SearchItem = {
      type: 'account',
      value: KT,
      found_by: 'Address',
      highlights: {},
      body: { Network: 'mainnet', Address: KT, IsContract: true },
    };
    const net = mockFetch([
      resourceRoute('search', { items: [contractItem], total: 1, took: 1 }),
      resourceRoute('account', at, {
        address: KT,
        account_type: 'contract',
        operations_count: 3,
        migrations_count: 0,
        events_count: 12,
        ticket_updates_count: 25,
        balance: 0,
        last_action: '2021-01-01T00:00:00Z',
      }),
      resourceRoute('views', at, []),
      resourceRoute('contract', at, {
        id: 1,
        address: KT,
        network: 'mainnet',
        manager: TZ,
        timestamp: '2021-01-01T00:00:00Z',
        level: 1,
        tags: ['fa2'],
        entrypoints: ['mint'],
        same_count: 0,
      }),
      resourceRoute('metadataGraphql', { data: { contract_metadata: [] } }),
    ]);
    renderApp('/search?text=objkt');
    const card = await screen.findByRole('region', { name: 'Contract details' }, { timeout: 40_000 });
    expect(await within(card).findByText(TZ, {}, { timeout: 40_000 })).toBeTruthy();
    fireEvent.click(within(card).getByRole('link', { name: 'Open contract' }));
    const tabs = await screen.findByRole('tablist', { name: 'Account tabs' }, { timeout: 40_000 });
    expect(await within(tabs).findByRole('tab', { name: 'Events' }, { timeout: 40_000 })).toBeTruthy();
    expect(within(tabs).getByRole('tab', { name: 'Ticket updates' })).toBeTruthy();
    // one key, one shape: the card asked for the page's full contract, never a summary under its key
    expect(net.callsTo(`GET /v1/contract/mainnet/${KT}?stats=true`).length).toBeGreaterThan(0);
    expect(net.calls.filter((c) => c.url === `/v1/contract/mainnet/${KT}`)).toHaveLength(0);
  }, 150_000);
});
