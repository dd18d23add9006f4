// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';
import type { AccountInfo, ContractWithStats, OPGResponse } from '@michelscope/api-types';
import { anyQueryRoute, mockFetch, resourceRoute, type Route } from '../../app/testing/mock-fetch';
import { apiGroup, hasShared } from '../operation/testing/rpc-group';

const KT = 'KT18sWFGnjvobw9BiHrm9bjpWr3AFAAVas9w';
const TZ = 'tz2CMxYEv6PY2asiihtoSF8a1Hbi95wtHGbQ';
// A real mainnet call with an internal transaction (../shared/fixtures/rpc/operations).
const GROUP = 'oocFt4vkkgQGfoRH54328cJUbDdWvj3x6KEs5Arm4XhqwwJmnJ8';

const account = (fields: Partial<AccountInfo> = {}): AccountInfo => ({
  address: KT,
  balance: 1_500_000,
  operations_count: 12_345,
  migrations_count: 0,
  events_count: 2,
  ticket_updates_count: 0,
  last_action: '2022-01-25T16:54:35Z',
  account_type: 'contract',
  ...fields,
});
const contract: ContractWithStats = {
  id: 1,
  network: 'mainnet',
  level: 37,
  timestamp: '2022-01-25T16:54:35Z',
  address: KT,
  manager: TZ,
  tags: ['fa2', 'CHAIN_ID'],
  entrypoints: ['transfer', 'update_operators'],
  last_action: '2022-01-25T16:54:35Z',
  same_count: 0,
};

const at = { network: 'mainnet', address: KT };
const firstPage = { ...at, size: 10, lastId: null };

function commonRoutes(rows: OPGResponse[]): Route[] {
  return [
    resourceRoute('account', at, account()),
    resourceRoute('contract', at, contract),
    resourceRoute('views', at, []),
    anyQueryRoute('opgList', firstPage, rows),
    resourceRoute('metadataGraphql', { data: { contract_metadata: [], token_metadata: [] } }),
    resourceRoute('usedSpace', at, '1234'),
    resourceRoute('paidSpace', at, '2000'),
  ];
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('contract page frame', () => {
  it('shows breadcrumbs, title, tags, actions and the tabs allowed by the spec', async () => {
    mockFetch(commonRoutes([]));
    renderApp(`/mainnet/${KT}/operations`);
    expect(await screen.findByRole('heading', { level: 1, name: KT })).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(within(crumbs).getByRole('link', { name: 'Mainnet' }).getAttribute('href')).toBe(
      '/mainnet/recently_called',
    );
    expect(within(crumbs).getByText('KT18sWF…as9w')).toBeTruthy();
    expect(within(await screen.findByRole('list', { name: 'Tags' })).getByText('FA2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add bookmark' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Copy address' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Open in an external explorer' }).getAttribute('href')).toBe(
      `https://tzkt.io/${KT}`,
    );
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Operations (12.3K)',
      'Storage',
      'Code',
      'Security',
      'Interact',
      'Tokens',
      'Fork',
      'Events',
      'Statistics',
      'Details',
      'Watch',
    ]);
    expect(tabs[1]?.getAttribute('href')).toBe(`/mainnet/${KT}/storage`);
    expect(await screen.findByText('Nothing found')).toBeTruthy();
    expect(screen.getByText('Empty set is also a result, otherwise try a broader query')).toBeTruthy();
    expect(
      screen.getByPlaceholderText('Start entering hash of operation, source or destination address'),
    ).toBeTruthy();
  });

  it('shows only the operations tab and no contract rows for a plain account', async () => {
    const tz = { network: 'mainnet', address: TZ };
    mockFetch([
      resourceRoute('account', tz, account({ address: TZ, account_type: 'account', events_count: 0 })),
      anyQueryRoute('opgList', { ...tz, size: 10, lastId: null }, []),
    ]);
    renderApp(`/mainnet/${TZ}/operations`);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Operations (12.3K)']);
    expect(screen.queryByText('Deployed by')).toBeNull();
    expect(await screen.findByText('1.5 ꜩ')).toBeTruthy();
  });

  it('goes to /not_found when the server answers 204 for the contract', async () => {
    mockFetch([
      resourceRoute('account', at, account()),
      // the server's 204 for an unknown contract
      resourceRoute('contract', at, null),
      resourceRoute('metadataGraphql', { data: { contract_metadata: [] } }),
    ]);
    const { router } = renderApp(`/mainnet/${KT}/operations`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/not_found'));
  });

  it('cancels the previous address requests when the address changes', async () => {
    const aborted: string[] = [];
    const tz = { network: 'mainnet', address: TZ };
    const net = mockFetch([
      resourceRoute('account', tz, account({ address: TZ, account_type: 'account' })),
      anyQueryRoute('opgList', { ...tz, size: 10, lastId: null }, []),
      // the first address's requests never answer: they end when aborted
      [
        /./,
        (call, signal) =>
          new Promise<Response>((_, reject) =>
            signal?.addEventListener('abort', () => {
              aborted.push(call.url);
              reject(new DOMException('aborted', 'AbortError'));
            }),
          ),
      ],
    ]);
    const { router } = renderApp(`/mainnet/${KT}/operations`);
    await waitFor(() => expect(net.calls.length).toBeGreaterThan(2));
    await router.navigate(`/mainnet/${TZ}/operations`);
    await waitFor(() => expect(aborted).toContain(`/v1/account/mainnet/${KT}`));
    expect(aborted).toContain(`/v1/contract/mainnet/${KT}?stats=true`);
  });
});

describe.skipIf(!hasShared)('operations list', () => {
  if (!hasShared) console.warn('skipping the operations list tests: ../shared/fixtures is absent');

  it('lists operation groups and loads a group when expanded', async () => {
    const ops = hasShared ? apiGroup(GROUP) : [];
    const counter = ops[0]?.counter ?? 0;
    const group = resourceRoute('opgContent', { network: 'mainnet', hash: GROUP, counter }, ops);
    const mock = mockFetch([
      ...commonRoutes([
        {
          last_id: 67,
          content_index: 0,
          counter,
          level: 1_400_000,
          total_cost: 518,
          flow: -2_000_000,
          internals: 1,
          hash: GROUP,
          entrypoint: 'transfer,mint,burn',
          timestamp: '2022-01-25T16:54:35Z',
          status: 'applied',
          kind: 'transaction',
        },
        {
          last_id: 60,
          content_index: 0,
          counter: 539,
          level: 36,
          total_cost: 400,
          flow: 0,
          internals: 0,
          hash: 'ootets92MnoSsoYDuGTwDjdHfEvcRA688Qhj6iRVXRYoMmmG559',
          entrypoint: '@entrypoint_0',
          timestamp: '2022-01-25T16:50:35Z',
          status: 'backtracked',
          kind: 'transaction',
        },
      ]),
      group,
    ]);
    renderApp(`/mainnet/${KT}/operations`);
    const list = await screen.findByRole('list', { name: 'Operation groups' });
    const rows = within(list).getAllByTestId('opg-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByText('transfer and 2 calls')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('1 internal')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('withdrawn')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('-2 ꜩ')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('backtracked')).toBeTruthy();
    // a short page ends the list: no "Load more"
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(within(rows[0] as HTMLElement).getByRole('button', { name: /Show operations of/ }));
    const cards = await within(rows[0] as HTMLElement).findAllByRole('article');
    expect(cards).toHaveLength(ops.length);
    expect(mock.callsOf(group)).toHaveLength(1);
    expect(cards[1]?.textContent).toContain('internal');
  });

  it("a filtered list shows each group's total cost and flow, as the unfiltered list does", async () => {
    const mock = mockFetch([
      ...commonRoutes([]),
      resourceRoute('search', {
        items: [
          {
            type: 'operation',
            value: GROUP,
            found_by: 'Hash',
            highlights: {},
            body: {
              Network: 'mainnet',
              Hash: GROUP,
              Counter: 7,
              Level: 1_400_000,
              '@timestamp': '2022-01-25T16:54:35Z',
              Status: 'applied',
              Entrypoint: 'transfer',
              Destination: KT,
              Type: 'transaction',
              mempool: false,
              TotalCost: 5000,
              Flow: -2_000_000,
              Internals: 1,
            },
          },
        ],
        total: 1,
        took: 1,
      }),
    ]);
    renderApp(`/mainnet/${KT}/operations`);
    const box = await screen.findByPlaceholderText(
      'Start entering hash of operation, source or destination address',
    );
    fireEvent.change(box, { target: { value: GROUP.slice(0, 10) } });
    const list = await screen.findByRole('list', { name: 'Operation groups' });
    const row = await within(list).findByTestId('opg-row');
    expect(mock.callsTo('POST /search/v1/search').length).toBeGreaterThan(0);
    expect(within(row).getByText('0.005 ꜩ')).toBeTruthy();
    expect(within(row).getByText('-2 ꜩ')).toBeTruthy();
    expect(within(row).getByText('1 internal')).toBeTruthy();
  });

  it('pages with last_id and stops on a short page', async () => {
    const page = (from: number) =>
      Array.from({ length: 10 }, (_, i): OPGResponse => ({
        last_id: from - i,
        content_index: 0,
        counter: from - i,
        level: from - i,
        total_cost: 0,
        flow: 0,
        internals: 0,
        hash: `oo${from - i}`,
        entrypoint: `call_${from - i}`,
        timestamp: '2022-01-25T16:54:35Z',
        status: 'applied',
        kind: 'transaction',
      }));
    const second = resourceRoute('opgList', { ...firstPage, lastId: 91 }, page(90).slice(0, 3));
    const mock = mockFetch([resourceRoute('opgList', firstPage, page(100)), second, ...commonRoutes([])]);
    renderApp(`/mainnet/${KT}/operations`);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('opg-row')).toHaveLength(13));
    expect(mock.callsOf(second)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
