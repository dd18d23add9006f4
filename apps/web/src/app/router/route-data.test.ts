/**
 * Route data: entering a screen's route starts that screen's requests while its chunk loads (the memory
 * router stands for the browser router; the screens are stubs that never render).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter } from 'react-router';
import { opgListQuery } from '../../api/contract-api';
import type { OPGResponse } from '@michelscope/api-types';
import type { Operation } from '../../api/opg-types';
import { mockFetch, resourceRoute } from '../testing/mock-fetch';
import { routeData } from './route-data';
import { SCREEN_IDS, buildRouteTable, type LazyScreen, type ScreenId } from './route-table';

const KT1 = 'KT18bAxHmJh511Co2nuFJQn888JxYX939RU3';
const NETWORKS = ['mainnet', 'sandboxnet'];
const OPG_ROW: OPGResponse = {
  last_id: 41,
  content_index: 0,
  counter: 7,
  level: 12,
  total_cost: 0,
  flow: 0,
  internals: 0,
  hash: 'ooWFa5HJd9tUiHfPyVoqdksspRzBgW1kC8AjoAFWZhrn2v54wNY',
  entrypoint: 'transfer',
  timestamp: '2026-11-25T10:00:00Z',
  status: 'applied',
  kind: 'transaction',
};

/** A lazy screen that never resolves: the data must not wait for the screen's code. */
const pending: LazyScreen = () => new Promise(() => {});
const screens = Object.fromEntries(SCREEN_IDS.map((id) => [id, pending])) as Record<ScreenId, LazyScreen>;

function enter(url: string, client: QueryClient, sandboxMode = false) {
  const router = createMemoryRouter(
    buildRouteTable({
      networks: NETWORKS,
      screens,
      lookupBigMap: () => Promise.resolve(null),
      data: routeData(client, { networks: NETWORKS, sandbox_mode: sandboxMode }),
    }),
    { initialEntries: [url] },
  );
  router.initialize();
  return router;
}

const paths = (calls: { url: string }[]) =>
  calls.map((c) => new URL(c.url, 'http://x').pathname + new URL(c.url, 'http://x').search);

afterEach(() => vi.unstubAllGlobals());

// the contract tabs' query factories come with a dynamic import: a loaded host took over vi.waitFor's default
// second for it (CI, session 33)
const LOADED = { timeout: 30_000 };

describe('route data', () => {
  it("a contract's operations tab asks for the frame and the first page of groups before its code is there", async () => {
    const api = mockFetch([
      resourceRoute('opgList', { network: 'sandboxnet', address: KT1, size: 10, lastId: null }, [OPG_ROW]),
    ]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = enter(`/sandboxnet/${KT1}/operations`, client);
    await vi.waitFor(
      () => expect(client.getQueryData(opgListQuery('sandboxnet', KT1).queryKey)).toBeDefined(),
      LOADED,
    );
    expect(client.getQueryData(opgListQuery('sandboxnet', KT1).queryKey)?.pages[0]?.[0]?.hash).toBe(
      OPG_ROW.hash,
    );
    expect(paths(api.calls)).toEqual(
      expect.arrayContaining([
        `/v1/account/sandboxnet/${KT1}`,
        `/v1/contract/sandboxnet/${KT1}?stats=true`,
        `/v1/contract/sandboxnet/${KT1}/views/schema`,
        `/v1/contract/sandboxnet/${KT1}/opg?size=10`,
      ]),
    );
    router.dispose();
  });

  it("an operation group's page asks for its operations; a debugger link, once the group has that call, its recording", async () => {
    const call = {
      id: 364,
      kind: 'transaction',
      status: 'applied',
      destination: KT1,
      network: 'sandboxnet',
      hash: OPG_ROW.hash,
    } as Operation;
    const api = mockFetch([resourceRoute('opg', { network: 'sandboxnet', hash: OPG_ROW.hash }, [call])]);
    const fresh = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const page = `/sandboxnet/opg/${OPG_ROW.hash}/contents`;
    const group = `/v1/opg/sandboxnet/${OPG_ROW.hash}?with_storage_diff=true`;
    enter(page, fresh()).dispose();
    await vi.waitFor(() => expect(paths(api.calls)).toEqual([group]), LOADED);
    // the fragment is the browser's (the router's URL never carries it to the loader)
    for (const [fragment, recording] of [
      ['#debug=364.12.step', '/v1/operation/sandboxnet/364/debug'],
      ['#debug=100364.1.step', undefined],
    ] as const) {
      api.calls.length = 0;
      vi.stubGlobal('window', { location: { hash: fragment } });
      enter(page, fresh()).dispose();
      await vi.waitFor(() => expect(paths(api.calls)).toContain(group), LOADED);
      await new Promise((r) => setTimeout(r, 50));
      // an operation the group does not hold gets no recording request (a 404 the page would log)
      expect(paths(api.calls)).toEqual(recording ? [group, recording] : [group]);
    }
  });

  it('storage and code tabs ask for their own data; ?level= is left to the tab', async () => {
    const api = mockFetch([]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    enter(`/mainnet/${KT1}/storage`, client).dispose();
    enter(`/mainnet/${KT1}/code`, client).dispose();
    enter(`/sandboxnet/${KT1}/storage?level=5`, client).dispose();
    await vi.waitFor(() => {
      const asked = paths(api.calls);
      expect(asked).toContain(`/v1/contract/mainnet/${KT1}/storage`);
      expect(asked).toContain(`/v1/contract/mainnet/${KT1}/storage/schema`);
      expect(asked).toContain(`/v1/contract/mainnet/${KT1}/code`);
      expect(asked).toContain(`/v1/contract/sandboxnet/${KT1}/storage/schema`);
    }, LOADED);
    const asked = paths(api.calls);
    expect(asked.filter((p) => p.startsWith(`/v1/contract/sandboxnet/${KT1}/storage`))).toEqual([
      `/v1/contract/sandboxnet/${KT1}/storage/schema`,
    ]);
  });

  it("the tokens tab asks for its first page of tokens (with the URL's search) before its code is there", async () => {
    const api = mockFetch([]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    enter(`/mainnet/${KT1}/tokens`, client).dispose();
    enter(`/mainnet/${KT1}/tokens?search=%20gold%20`, client).dispose();
    // the frame asks for the contract's metadata there too: the token pages are those with a page size
    const tokenPages = () =>
      api
        .callsTo('POST /metadata/v1/graphql')
        .map((c) => (c.body as { variables?: { limit?: number } } | undefined)?.variables)
        .filter((v) => v?.limit !== undefined);
    await vi.waitFor(() => expect(tokenPages()).toHaveLength(2), LOADED);
    expect(tokenPages()).toEqual([
      { network: 'mainnet', contract: KT1, limit: 20, offset: 0 },
      { network: 'mainnet', contract: KT1, name: '%gold%', id: 'gold', limit: 20 },
    ]);
  });

  it("home asks for the default network's recently called contracts; a redirected URL asks for nothing", async () => {
    const api = mockFetch([]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    enter('/', client, true).dispose();
    await vi.waitFor(() => expect(api.calls.length).toBeGreaterThan(1), LOADED);
    expect(paths(api.calls)).toEqual(
      expect.arrayContaining(['/v1/head', '/v1/stats/sandboxnet/recently_called_contracts?size=3&offset=0']),
    );
    const before = api.calls.length;
    enter(`/oxfordnet/${KT1}/operations`, client).dispose();
    await new Promise((r) => setTimeout(r, 20));
    expect(api.calls.length).toBe(before);
  });

  it('home asks for the table of the first synced network when the default one is not synced', async () => {
    const api = mockFetch([
      resourceRoute('head', [
        { network: 'mainnet', level: 0, synced: false, time: '', protocol: '' },
        { network: 'sandboxnet', level: 30, synced: true, time: '', protocol: '' },
      ]),
    ]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    enter('/', client).dispose();
    await vi.waitFor(() => expect(api.calls.length).toBeGreaterThan(2), LOADED);
    // the default network's table is asked at once (as the server announces it), the synced one's once the
    // heads answer
    expect(paths(api.calls)).toEqual([
      '/v1/stats/mainnet/recently_called_contracts?size=3&offset=0',
      '/v1/head',
      '/v1/stats/sandboxnet/recently_called_contracts?size=3&offset=0',
    ]);
  });
});
