import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { routeParams } from '../../../../server/src/fetch-preloads';
import { defaultNetwork, routeFetches } from './route-fetches';
import { routeData } from './route-data';
import type { ScreenId } from './route-table';

const NETWORKS = ['mainnet', 'sandboxnet'];
const KT = 'KT1SdePpVJXS5KsxFH1x4WfiKGVS7PVVEnSc';
const TZ = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const JAKARTA = 'PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGikgPkLX7SNJZF4';
const OPG = 'onh7vaXAJVtN9296PxXxT91yFh5HtdYDJfvw82VWRRNnmFq7G7y';

/**
 * The GET URLs the web's route loader of `screen` starts for `url` (recorded at fetch), once its dynamic
 * import of the contract route data has run.
 */
async function loaderGets(
  screen: ScreenId,
  url: string,
  params: Record<string, string>,
  sandboxMode = false,
): Promise<string[]> {
  const gets = new Set<string>();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string | URL | Request, init?: RequestInit) => {
      const u = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if ((init?.method ?? 'GET') === 'GET') gets.add(u);
      // a never-answered request: nothing follows from an answer (home's table waits for /v1/head)
      return new Promise<Response>(() => {});
    }),
  );
  const data = routeData(new QueryClient(), { networks: NETWORKS, sandbox_mode: sandboxMode })[screen];
  void data?.({ params, url: new URL(url, 'http://localhost') });
  // the first contract screen imports the contract route data (and its modules) first: over a second on a
  // loaded machine, so the wait is for the request, up to 15 s, not for vi.waitFor's default second
  await vi.waitFor(
    () => {
      if (screen !== 'home' && gets.size === 0) throw new Error('no request yet');
    },
    { timeout: 15_000, interval: 20 },
  );
  await new Promise((r) => setTimeout(r, 50));
  return [...gets].sort();
}

/** What the server announces for the same URL (route path as in the route table). */
function serverFetches(route: string, url: string): string[] {
  const u = new URL(url, 'http://localhost');
  const params = routeParams(route, u.pathname);
  if (!params) throw new Error(`${url} does not match ${route}`);
  return routeFetches(route, params, u.searchParams, NETWORKS).sort();
}

afterEach(() => vi.unstubAllGlobals());

describe("the server's fetch preloads match the web's route loaders", () => {
  const cases: [ScreenId, string, string][] = [
    ['operations', '/:network/:address/operations', `/sandboxnet/${KT}/operations`],
    ['operations', '/:network/:address/operations', `/mainnet/${TZ}/operations`],
    ['storage', '/:network/:address/storage', `/sandboxnet/${KT}/storage`],
    ['storage', '/:network/:address/storage', `/sandboxnet/${KT}/storage?level=12`],
    ['code', '/:network/:address/code', `/sandboxnet/${KT}/code`],
    ['code', '/:network/:address/code', `/sandboxnet/${KT}/code?protocol=${JAKARTA}`],
    ['code', '/:network/:address/code', `/sandboxnet/${KT}/code?protocol=nonsense`],
    ['events', '/:network/:address/events', `/sandboxnet/${KT}/events`],
    ['interact', '/:network/:address/interact/:entrypoint?', `/sandboxnet/${KT}/interact/transfer`],
    ['views', '/:network/:address/views/:view?', `/sandboxnet/${KT}/views`],
    ['details', '/:network/:address/details', `/sandboxnet/${KT}/details`],
    ['security', '/:network/:address/security', `/sandboxnet/${KT}/security`],
    ['source', '/:network/:address/source', `/sandboxnet/${KT}/source`],
    ['watch', '/:network/:address/watch', `/sandboxnet/${KT}/watch`],
    ['contract_stats', '/:network/:address/stats', `/sandboxnet/${KT}/stats`],
    [
      'big_map_keys',
      '/:network/:address/storage/big_map/:ptr/keys',
      `/sandboxnet/${KT}/storage/big_map/7/keys`,
    ],
    ['opg_contents', '/:network/opg/:hash/contents', `/sandboxnet/opg/${OPG}/contents`],
  ];
  for (const [screen, route, url] of cases) {
    it(`${url}`, async () => {
      const server = serverFetches(route, url);
      const u = new URL(url, 'http://localhost');
      const params = routeParams(route, u.pathname)!;
      expect(server.length).toBeGreaterThan(0);
      expect(await loaderGets(screen, url, params)).toEqual(server);
    });
  }

  it("home: /v1/head and the default network's recently called table, asked at once", async () => {
    for (const sandboxMode of [false, true]) {
      const home = defaultNetwork({ networks: NETWORKS, sandbox_mode: sandboxMode });
      const table = `/v1/stats/${sandboxMode ? 'sandboxnet' : 'mainnet'}/recently_called_contracts?size=3&offset=0`;
      const server = routeFetches('/', {}, new URLSearchParams(), NETWORKS, home);
      expect(server).toEqual(['/v1/head', table]);
      // the web asks for the same URLs before the heads answer (they never do here)
      expect(await loaderGets('home', '/', {}, sandboxMode)).toEqual([...server].sort());
    }
  });

  it('announces nothing for an unknown network, a malformed address or another route', () => {
    const none = new URLSearchParams();
    expect(
      routeFetches('/:network/:address/code', { network: 'nowhere', address: KT }, none, NETWORKS),
    ).toEqual([]);
    expect(
      routeFetches('/:network/:address/code', { network: 'mainnet', address: 'KT1"<x>' }, none, NETWORKS),
    ).toEqual([]);
    expect(routeFetches('/search', {}, none, NETWORKS)).toEqual([]);
    const keys = '/:network/:address/storage/big_map/:ptr/keys';
    expect(routeFetches(keys, { network: 'mainnet', address: KT, ptr: '1e3' }, none, NETWORKS)).not.toContain(
      '/v1/bigmap/mainnet/1000',
    );
    expect(
      routeFetches('/:network/opg/:hash/contents', { network: 'mainnet', hash: 'o"<x>' }, none, NETWORKS),
    ).toEqual([]);
  });

  it('reads route parameters React Router style', () => {
    expect(routeParams('/:network/:address/views/:view?', '/mainnet/KT1x/views')).toEqual({
      network: 'mainnet',
      address: 'KT1x',
    });
    expect(routeParams('/:network/:address/views/:view?', '/mainnet/KT1x/views/v%201')).toEqual({
      network: 'mainnet',
      address: 'KT1x',
      view: 'v 1',
    });
    expect(routeParams('/:network/:address/code', '/mainnet/KT1x/storage')).toBeNull();
    expect(routeParams('/:network/:address/code', '/mainnet/%E0%A4%A/code')).toBeNull();
  });
});
