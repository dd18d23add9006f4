import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchAlias, fetchHistogram, fetchMimeTypes, search, suggest } from './services';
import { NETWORK_SERIES } from './stats-types';

const calls: { url: string; init: RequestInit | undefined }[] = [];
function answer(body: string | null, init: ResponseInit = {}) {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, request?: RequestInit) => {
      calls.push({ url, init: request });
      return new Response(body, init);
    }),
  );
}
afterEach(() => vi.unstubAllGlobals());

const tokenItem = {
  type: 'token',
  value: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
  found_by: 'Name',
  highlights: { Name: ['<em>hic</em> et nunc'] },
  body: {
    Network: 'mainnet',
    Address: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
    TokenID: 152,
    Name: 'hic et nunc',
    Tags: ['art', 7],
    '@timestamp': '2021-03-01T10:00:00Z',
  },
};

describe('search service', () => {
  it('POSTs the search request to /search/v1/search and parses items, total and took', async () => {
    answer(JSON.stringify({ items: [tokenItem, { type: 'weird', body: {} }], total: 10000, took: 12 }));
    const res = await search({
      query: 'hic',
      size: 10,
      offset: 0,
      filters: {
        search: {
          tags: [],
          creators: [],
          minters: [],
          mime_types: [],
          network: ['mainnet'],
          index: ['tokens'],
        },
      },
    });
    expect(calls[0]?.url).toBe('/search/v1/search');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(JSON.parse(calls[0]?.init?.body as string)).toMatchObject({ query: 'hic', size: 10, offset: 0 });
    expect(res.total).toBe(10000);
    expect(res.took).toBe(12);
    expect(res.items).toHaveLength(1);
    expect(res.items[0]?.body).toMatchObject({
      TokenID: '152',
      Tags: ['art'],
      Timestamp: '2021-03-01T10:00:00Z',
    });
  });

  it('asks suggestions with size 10', async () => {
    answer(JSON.stringify({ items: [tokenItem] }));
    const items = await suggest('hic');
    expect(JSON.parse(calls[0]?.init?.body as string)).toEqual({ query: 'hic', size: 10, filters: {} });
    expect(items).toHaveLength(1);
  });

  it('names an account from the alias sources of its body (TzKT, then TZIP, Profiles, Domains)', async () => {
    const account = (body: Record<string, unknown>) => ({
      type: 'account',
      value: 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
      found_by: 'Address',
      highlights: {},
      body: {
        Network: 'mainnet',
        Address: 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
        IsContract: true,
        ...body,
      },
    });
    answer(
      JSON.stringify({
        items: [
          account({ TzKT: { Name: 'Kolibri Oven' }, TZIP: { Name: 'kUSD' } }),
          account({ TZIP: { Name: 'kUSD' }, Domains: { Name: 'kolibri.tez' } }),
          account({ Domains: { Name: 'kolibri.tez' } }),
          account({}),
        ],
      }),
    );
    expect((await suggest('kolibri')).map((i) => i.body.Name)).toEqual([
      'Kolibri Oven',
      'kUSD',
      'kolibri.tez',
      '',
    ]);
  });

  it('reports a non-200 answer with status code and status text', async () => {
    answer('oops', { status: 503, statusText: 'Service Unavailable' });
    await expect(suggest('hic')).rejects.toThrow('Search service error: 503 Service Unavailable');
  });

  it('reads the alias from the first present source; 204 means none', async () => {
    answer(JSON.stringify({ TZIP: { Name: 'Kolibri' }, Domains: { Name: 'kolibri.tez' } }));
    expect(await fetchAlias('mainnet', 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV')).toBe('Kolibri');
    expect(calls[0]?.url).toBe('/search/v1/account/mainnet/KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV');
    answer(null, { status: 204 });
    expect(await fetchAlias('mainnet', 'tz1abc')).toBeNull();
  });

  it('lists mime type names', async () => {
    answer(JSON.stringify([{ name: 'image/png' }, { name: 'video/mp4' }, { name: 3 }]));
    expect(await fetchMimeTypes()).toEqual(['image/png', 'video/mp4']);
  });
});

describe('stats service', () => {
  it('asks the histogram of a series for a network and timeframe', async () => {
    answer(
      JSON.stringify([
        { ts: 1700003600, value: '7' },
        { ts: 1700000000, value: 5 },
        { ts: 'x', value: 1 },
      ]),
    );
    const points = await fetchHistogram('mainnet', NETWORK_SERIES.contractCalls, 'month');
    expect(calls[0]?.url).toBe(
      '/stats/v1/histogram/transactions/count/month?network=mainnet&Entrypoint.isnotnull=&Status=1',
    );
    expect(points).toEqual([
      { ts: 1700000000, value: 5 },
      { ts: 1700003600, value: 7 },
    ]);
  });
});
