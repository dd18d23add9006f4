/**
 * The route table end to end in a memory router: a URL goes in, the test reads where the router settled
 * (final pathname and the screen shown). Guards, redirects, ranking and the catch-all all take part.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryRouter } from 'react-router';
import {
  DATA_WAIT_MS,
  SCREEN_IDS,
  buildRouteTable,
  type BigMapOwner,
  type LazyScreen,
  type ScreenId,
} from './route-table';
import { DAPPS_URL } from './route-guards';

const NETWORKS = ['mainnet', 'sandboxnet', 'ghostnet'];
const TZ1 = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const TZ2 = 'tz28Pw51UCaNFZB8bZkW9pfBA44ezqyQn4Fs';
const KT1 = 'KT18bAxHmJh511Co2nuFJQn888JxYX939RU3';
const SR1 = 'sr18wx6ezkeRjt1SZSeZ2UQzQN3Uc3YLMLqg';
const OPG = 'ooWFa5HJd9tUiHfPyVoqdksspRzBgW1kC8AjoAFWZhrn2v54wNY';
const EXPR = 'exprtWtZN2EBsArFXaSd7R6ySLiwvacNeq4jQ6kmKWW5L4QYWeNWH3';

const stubScreen: LazyScreen = async () => ({ Component: () => null });
const screens = Object.fromEntries(SCREEN_IDS.map((id) => [id, stubScreen])) as Record<ScreenId, LazyScreen>;

/** Known big maps of the fake lookup: ptr 511 belongs to KT1 on mainnet. */
async function lookupBigMap(network: string, ptr: string): Promise<BigMapOwner | null> {
  if (network === 'mainnet' && ptr === '511') return { network: 'mainnet', address: KT1, ptr: 511 };
  if (ptr === '666') throw new Error('API down');
  if (ptr === '777') return { network: 'mainnet', address: '<script>', ptr: 777 };
  return null;
}

async function settle(
  url: string,
  networks: readonly string[] = NETWORKS,
): Promise<{ path: string; screen: string | undefined }> {
  const router = createMemoryRouter(buildRouteTable({ networks, screens, lookupBigMap }), {
    initialEntries: [url],
  });
  router.initialize();
  for (let i = 0; i < 200 && (router.state.navigation.state !== 'idle' || !router.state.initialized); i++) {
    await new Promise((r) => setTimeout(r, 1));
  }
  const last = router.state.matches.at(-1);
  const path = router.state.location.pathname;
  router.dispose();
  return { path, screen: last?.route.id };
}

// [url, expected final pathname, expected screen]
const TABLE: [string, string, ScreenId][] = [
  ['/', '/', 'home'],
  ['/not_found', '/not_found', 'not_found'],
  ['/search', '/search', 'search'],
  ['/search?text=tzbtc', '/search', 'search'],
  ['/deploy', '/deploy', 'deploy'],
  // network pages
  ['/mainnet', '/mainnet/recently_called', 'recently_called'],
  ['/ghostnet/', '/ghostnet/recently_called', 'recently_called'],
  ['/sandboxnet/constants', '/sandboxnet/constants', 'network_constants'],
  ['/mainnet/stats', '/mainnet/stats', 'network_stats'],
  ['/oxfordnet', '/not_found', 'not_found'],
  ['/oxfordnet/recently_called', '/not_found', 'not_found'],
  ['/Mainnet', '/not_found', 'not_found'],
  // global constants
  [`/constant/mainnet/${EXPR}`, `/constant/mainnet/${EXPR}`, 'constant'],
  [`/constant/nairobinet/${EXPR}`, '/not_found', 'not_found'],
  // accounts and contracts
  [`/mainnet/${TZ1}`, `/mainnet/${TZ1}/operations`, 'operations'],
  [`/mainnet/${KT1}`, `/mainnet/${KT1}/operations`, 'operations'],
  [`/ghostnet/${SR1}`, `/ghostnet/${SR1}/operations`, 'operations'],
  [`/sandboxnet/${TZ2}/events`, `/sandboxnet/${TZ2}/events`, 'events'],
  [`/mainnet/${TZ1}/ticket_updates`, `/mainnet/${TZ1}/ticket_updates`, 'ticket_updates'],
  [`/mainnet/${KT1}/interact`, `/mainnet/${KT1}/interact`, 'interact'],
  [`/mainnet/${KT1}/interact/transfer`, `/mainnet/${KT1}/interact/transfer`, 'interact'],
  [`/mainnet/${KT1}/views`, `/mainnet/${KT1}/views`, 'views'],
  [`/mainnet/${KT1}/views/get_balance`, `/mainnet/${KT1}/views/get_balance`, 'views'],
  [`/mainnet/${KT1}/storage`, `/mainnet/${KT1}/storage`, 'storage'],
  [`/mainnet/${KT1}/storage/big_map/511`, `/mainnet/${KT1}/storage/big_map/511/keys`, 'big_map_keys'],
  [`/mainnet/${KT1}/storage/big_map/511/keys`, `/mainnet/${KT1}/storage/big_map/511/keys`, 'big_map_keys'],
  [
    `/mainnet/${KT1}/storage/big_map/511/${EXPR}`,
    `/mainnet/${KT1}/storage/big_map/511/${EXPR}`,
    'big_map_history',
  ],
  [`/mainnet/${KT1}/storage/big_map/abc/keys`, '/not_found', 'not_found'],
  [`/mainnet/${KT1}/code`, `/mainnet/${KT1}/code`, 'code'],
  [`/mainnet/${KT1}/metadata`, `/mainnet/${KT1}/metadata`, 'metadata'],
  [`/mainnet/${KT1}/fork`, `/mainnet/${KT1}/fork`, 'fork'],
  [`/mainnet/${KT1}/tokens?search=12`, `/mainnet/${KT1}/tokens`, 'tokens'],
  [`/mainnet/${KT1}/stats`, `/mainnet/${KT1}/stats`, 'contract_stats'],
  [`/mainnet/${KT1}/details`, `/mainnet/${KT1}/details`, 'details'],
  [`/mainnet/${KT1}/security`, `/mainnet/${KT1}/security`, 'security'],
  [`/mainnet/${KT1}/watch`, `/mainnet/${KT1}/watch`, 'watch'],
  [`/mainnet/${KT1}/source`, `/mainnet/${KT1}/source`, 'source'],
  // contract-only tabs on an implicit account or rollup
  [`/mainnet/${TZ1}/interact`, '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/storage`, '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/code`, '/not_found', 'not_found'],
  [`/mainnet/${SR1}/details`, '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/stats`, '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/security`, '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/watch`, '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/source`, '/not_found', 'not_found'],
  // invalid addresses and unknown networks
  ['/mainnet/tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZS', '/not_found', 'not_found'],
  ['/mainnet/tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZS0', '/not_found', 'not_found'],
  ['/mainnet/not-an-address', '/not_found', 'not_found'],
  [`/mainnet/${TZ1}/nonsense`, '/not_found', 'not_found'],
  [`/nairobinet/${KT1}`, '/not_found', 'not_found'],
  [`/nairobinet/${KT1}/code`, '/not_found', 'not_found'],
  // operation groups
  [`/mainnet/opg/${OPG}`, `/mainnet/opg/${OPG}/contents`, 'opg_contents'],
  [`/ghostnet/opg/${OPG}/contents`, `/ghostnet/opg/${OPG}/contents`, 'opg_contents'],
  [`/mainnet/${OPG}`, `/mainnet/opg/${OPG}/contents`, 'opg_contents'],
  [`/sandboxnet/${OPG}/contents`, `/sandboxnet/opg/${OPG}/contents`, 'opg_contents'],
  [`/mainnet/opg/${OPG.slice(0, -1)}`, '/not_found', 'not_found'],
  [`/rollupnet/opg/${OPG}`, '/not_found', 'not_found'],
  // catch-all: bare address / hash, old big map URLs, anything else
  [`/${TZ1}`, `/mainnet/${TZ1}/operations`, 'operations'],
  [`/${KT1}`, `/mainnet/${KT1}/operations`, 'operations'],
  [`/${KT1}/`, `/mainnet/${KT1}/operations`, 'operations'],
  [`/${OPG}`, `/mainnet/opg/${OPG}/contents`, 'opg_contents'],
  ['/mainnet/big_map/511', `/mainnet/${KT1}/storage/big_map/511/keys`, 'big_map_keys'],
  [`/mainnet/big_map/511/${EXPR}`, `/mainnet/${KT1}/storage/big_map/511/${EXPR}`, 'big_map_history'],
  ['/mainnet/big_map/512', '/not_found', 'not_found'],
  ['/mainnet/big_map/666', '/not_found', 'not_found'],
  ['/mainnet/big_map/777', '/not_found', 'not_found'],
  ['/mainnet/big_map/511/not-a-key-hash', '/not_found', 'not_found'],
  ['/oxfordnet/big_map/511', '/not_found', 'not_found'],
  ['/foo/bar/baz/qux', '/not_found', 'not_found'],
  ['/%E0%A4%A', '/not_found', 'not_found'],
  ['/wp-admin/install.php', '/not_found', 'not_found'],
];

describe('route table', () => {
  it.each(TABLE)('%s -> %s (%s)', async (url, path, screen) => {
    expect(await settle(url)).toEqual({ path, screen });
  });

  it('redirects /dapps and everything below it to the external dapps page', async () => {
    const routes = buildRouteTable({ networks: NETWORKS, screens, lookupBigMap });
    const pages = routes[0]?.children?.[0]?.children ?? [];
    const dapps = pages.find((r) => r.id === 'dapps');
    expect(dapps?.path).toBe('dapps/*');
    const loader = dapps?.loader;
    if (typeof loader !== 'function') throw new Error('dapps route has no loader');
    const response = (await loader({
      request: new Request('http://localhost/dapps/list'),
      params: {},
      context: undefined,
    } as never)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe(DAPPS_URL);
  });

  it('a network that is not configured is rejected even when the product knows it', async () => {
    // The bare address goes to mainnet, which this server does not serve.
    expect(await settle(`/${TZ1}`, ['sandboxnet'])).toEqual({ path: '/not_found', screen: 'not_found' });
    expect(await settle('/mainnet', ['sandboxnet'])).toEqual({ path: '/not_found', screen: 'not_found' });
    expect(await settle('/sandboxnet', ['sandboxnet'])).toEqual({
      path: '/sandboxnet/recently_called',
      screen: 'recently_called',
    });
  });

  describe("a screen's first data", () => {
    /** Enters `url` with `data` as the operations tab's data; resolves with the ms until the page renders. */
    async function renderedAfter(url: string, data: () => Promise<unknown>): Promise<number> {
      const router = createMemoryRouter(
        buildRouteTable({ networks: NETWORKS, screens, lookupBigMap, data: { operations: data } }),
        { initialEntries: [url] },
      );
      const start = performance.now();
      router.initialize();
      while (!router.state.initialized) await new Promise((r) => setTimeout(r, 1));
      const ms = performance.now() - start;
      expect(router.state.matches.at(-1)?.route.id).toBe('operations');
      router.dispose();
      return ms;
    }

    it('the page renders once its data has answered (one render with the data, not one per answer)', async () => {
      let answered = false;
      const ms = await renderedAfter(`/mainnet/${KT1}/operations`, async () => {
        await new Promise((r) => setTimeout(r, 60));
        answered = true;
      });
      expect(answered).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(55);
    });

    it('a slow or failing answer holds the page back DATA_WAIT_MS at most', async () => {
      const slow = await renderedAfter(`/mainnet/${KT1}/operations`, () => new Promise(() => {}));
      expect(slow).toBeGreaterThanOrEqual(DATA_WAIT_MS - 5);
      expect(slow).toBeLessThan(DATA_WAIT_MS + 1000);
      const failed = await renderedAfter(`/mainnet/${KT1}/operations`, () =>
        Promise.reject(new Error('down')),
      );
      expect(failed).toBeLessThan(DATA_WAIT_MS);
    });
  });
});
