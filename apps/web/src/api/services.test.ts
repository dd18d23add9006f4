import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { SearchItem, SearchResponse } from '@michelscope/api-types';
import { runAction, type ActionName, type ResourceName } from './resources';
import { matchingRoute, mockFetch, type Call, type Payload } from '../app/testing/mock-fetch';
import {
  chartPoints,
  fetchAlias,
  histogramQuery,
  mimeTypeNames,
  mimeTypesQuery,
  suggestItems,
  suggestQuery,
  summaryQuery,
  summaryValue,
} from './services';
import { itemName } from './search-items';
import { NETWORK_SERIES } from './stats-series';

let calls: Call[] = [];
/** Every request answers a payload of resource `name`'s type (the URLs are what the tests check). */
function answer<N extends ResourceName | ActionName>(name: N, payload: Payload<N>) {
  calls = mockFetch([matchingRoute(name, /^/, payload)]).calls;
}
afterEach(() => vi.unstubAllGlobals());

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

const tokenItem: SearchItem = {
  type: 'token',
  value: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
  found_by: 'Name',
  highlights: { Name: ['<em>hic</em> et nunc'] },
  body: {
    Network: 'mainnet',
    Address: 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton',
    TokenID: '152',
    Name: 'hic et nunc',
    Tags: ['art'],
  },
};

describe('search service', () => {
  it('POSTs the search request to /search/v1/search and reads items, total and took', async () => {
    const page: SearchResponse = { items: [tokenItem], total: 10000, took: 12 };
    answer('search', page);
    const res = await runAction('search', undefined, {
      query: 'hic',
      size: 10,
      offset: 0,
      filters: { search: { network: ['mainnet'], index: ['tokens'] } },
    });
    expect(calls[0]?.url).toBe('/search/v1/search');
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.body).toMatchObject({ query: 'hic', size: 10, offset: 0 });
    expect(res).toEqual(page);
  });

  it('asks suggestions with size 10 and selects their items', async () => {
    answer('suggest', { items: [tokenItem] });
    const items = suggestItems(await client().fetchQuery(suggestQuery('hic')));
    expect(calls[0]?.url).toBe('/search/v1/suggest');
    expect(calls[0]?.body).toEqual({ query: 'hic', size: 10, filters: {} });
    expect(items).toEqual([tokenItem]);
  });

  it('names an account from the alias sources of its body (TzKT, then TZIP), a token by its name', () => {
    const account = (names: { TzKT?: { Name: string }; TZIP?: { Name: string } }): SearchItem => ({
      type: 'account',
      value: 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
      found_by: 'Address',
      body: {
        Network: 'mainnet',
        Address: 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV',
        IsContract: true,
        ...names,
      },
    });
    expect(
      [
        account({ TzKT: { Name: 'Kolibri Oven' }, TZIP: { Name: 'kUSD' } }),
        account({ TZIP: { Name: 'kUSD' } }),
        account({}),
        tokenItem,
      ].map(itemName),
    ).toEqual(['Kolibri Oven', 'kUSD', '', 'hic et nunc']);
  });

  it('reports a non-200 answer with status code and status text', async () => {
    answer('suggest', new Response('oops', { status: 503, statusText: 'Service Unavailable' }));
    await expect(client().fetchQuery(suggestQuery('hic'))).rejects.toThrow(
      'Search service error: 503 Service Unavailable',
    );
  });

  it('reads the alias from the first present source; 204 means none', async () => {
    answer('accountAliases', { TZIP: { Name: 'Kolibri' }, Domains: { Name: 'kolibri.tez' } });
    expect(await fetchAlias('mainnet', 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV')).toBe('Kolibri');
    expect(calls[0]?.url).toBe('/search/v1/account/mainnet/KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV');
    answer('accountAliases', { Domains: { Name: 'kolibri.tez' } });
    expect(await fetchAlias('mainnet', 'KT1K9gCRgaLRFKTErYt1wVxA3Frb9FjasjTV')).toBe('kolibri.tez');
    answer('accountAliases', null);
    expect(await fetchAlias('mainnet', 'tz1abc')).toBeNull();
  });

  it('lists mime type names once each', async () => {
    answer('mimeTypes', [{ name: 'image/png' }, { name: 'video/mp4' }, { name: 'image/png' }]);
    const q = mimeTypesQuery();
    expect(mimeTypeNames(await client().fetchQuery(q))).toEqual(['image/png', 'video/mp4']);
    expect(calls[0]?.url).toBe('/search/v1/mime_types');
  });
});

describe('stats service', () => {
  it('asks the histogram of a series for a network and timeframe; points become numbers in time order', async () => {
    answer('statsHistogram', [
      { ts: 1700003600, value: '7' },
      { ts: 1700000000, value: '5' },
    ]);
    const q = histogramQuery({ network: 'mainnet', ...NETWORK_SERIES.contractCalls }, 'month');
    const points = chartPoints(await client().fetchQuery(q));
    expect(calls[0]?.url).toBe(
      '/stats/v1/histogram/transactions/count/month?network=mainnet&Entrypoint.isnotnull=&Status=1',
    );
    expect(points).toEqual([
      { ts: 1700000000, value: 5 },
      { ts: 1700003600, value: 7 },
    ]);
    expect(chartPoints(null)).toEqual([]);
  });

  it('reads a summary (the bare decimal string the service answers) as a number', async () => {
    answer('statsSummary', '12345678901');
    const q = summaryQuery({ network: 'ghostnet', ...NETWORK_SERIES.consumedGas });
    expect(summaryValue(await client().fetchQuery(q))).toBe(12345678901);
    expect(summaryValue('x')).toBeNull();
    expect(summaryValue('')).toBeNull();
    expect(summaryValue(null)).toBeNull();
    expect(calls[0]?.url).toBe('/stats/v1/summary/consumed_gas/sum?network=ghostnet&field=Used');
  });
});
