// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';
import type { Block, BlockStats } from '@michelscope/api-types';
import {
  anyQueryRoute,
  matchingRoute,
  mockFetch,
  resourceRoute,
  type Route,
} from '../../app/testing/mock-fetch';

const KT = (c: string) => `KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXit${c}`;
const counts: BlockStats = {
  contracts_count: 5,
  smart_rollups_count: 0,
  global_constants_count: 2,
  operations_count: 100,
  events_count: 0,
  tx_count: 0,
  originations_count: 0,
  sr_originations_count: 0,
  sr_executes_count: 0,
  register_global_constants_count: 0,
  transfer_tickets_count: 0,
};
const block = (network: string, protocol: string, level: number): Block => ({
  network,
  hash: `BLockHash${network}`,
  level,
  predecessor: '',
  chain_id: network === 'mainnet' ? 'NetXdQprcVkpaWU' : 'NetXnHfVqm9iesp',
  timestamp: '2025-11-20T10:00:00Z',
  protocol,
  cost_per_byte: 250,
  hard_gas_limit_per_operation: 1040000,
  hard_storage_limit_per_operation: 60000,
  time_between_blocks: 10,
  stats: counts,
});
const STATS = [
  block('ghostnet', 'PsParisCZo7KAh1Z1smVd9ZMZ1HHn5gkzbM94V3PLCpknFWhUAi', 10),
  block('mainnet', 'PtParisBxoLz5gzMmn3d9WBQNoPSZakgnkMC2VNuQ3KXfUtUQeZ', 5_123_456),
  block('sandboxnet', 'ProtoALphaALphaALphaALphaALphaALphaALphaALphaDdp3zK', 42),
];
const calledRow = (c: string) => ({
  id: 1,
  address: KT(c),
  last_action: '2025-11-20T09:00:00Z',
  operations_count: 42,
});
const EXPR = 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC';

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal('ResizeObserver', NoopResizeObserver);
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function routes(extra: Route[] = []) {
  const anyPage = { size: 10, offset: 0 };
  return mockFetch([
    ...extra,
    anyQueryRoute(
      'recentlyCalled',
      { network: 'mainnet', ...anyPage },
      '123456789A'.split('').map(calledRow),
    ),
    matchingRoute('recentlyCalled', 'GET /v1/stats/', []),
    resourceRoute('stats', STATS),
    resourceRoute(
      'accountAliases',
      { network: 'mainnet', address: KT('1') },
      { TzKT: { Name: 'Youves synthetic asset uUSD minter' } },
    ),
    ['GET /search/v1/account/', new Response(null, { status: 204 })],
    anyQueryRoute('globalConstants', { network: 'mainnet', ...anyPage }, [
      { address: EXPR, timestamp: '2025-01-02T03:04:05Z', level: 2_500_000, links_count: 17 },
    ]),
    matchingRoute('globalConstants', 'GET /v1/global_constants/', []),
    resourceRoute(
      'networkConstants',
      { network: 'mainnet', block: 'head' },
      { proof_of_work_nonce_size: 8, nonce_length: 32, cost_per_byte: '250' },
    ),
  ]);
}

describe('network page', () => {
  it('shows the breadcrumb, the sorted sidebar and the eight Network Info fields', async () => {
    routes();
    renderApp('/mainnet/recently_called');
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    const sidebar = screen.getByRole('navigation', { name: 'Networks' });
    await waitFor(() => expect(within(sidebar).getAllByRole('link')).toHaveLength(3));
    expect(
      within(sidebar)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/mainnet/recently_called', '/sandboxnet/recently_called', '/ghostnet/recently_called']);
    expect(within(sidebar).getByText(/^PtParisB ·/)).toBeTruthy();
    const info = screen.getByRole('region', { name: 'Network Info' });
    const terms = within(info)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual([
      'Chain ID',
      'Protocol',
      'Head Level',
      'Head Hash',
      'Hard Gas Limit per Operation',
      'Hard Storage Limit per Operation',
      'Time Between Blocks',
      'Cost per byte',
    ]);
    expect(await within(info).findByText('NetXdQprcVkpaWU')).toBeTruthy();
    expect(within(info).getByText('5,123,456')).toBeTruthy();
    expect(within(info).getByText('1,040,000')).toBeTruthy();
    expect(within(info).getByText('10 s')).toBeTruthy();
  });

  it('shows a network with no indexed block as unsynced with dashes, not zeros', async () => {
    // the API leaves out the stats of a network with no indexed block
    const { stats: _none, ...unindexed } = block('mainnet', '', 0);
    const empty: Block = {
      ...unindexed,
      hash: '',
      chain_id: '',
      timestamp: '0001-01-01T00:00:00Z',
      cost_per_byte: 0,
      hard_gas_limit_per_operation: 0,
      hard_storage_limit_per_operation: 0,
      time_between_blocks: 0,
    };
    routes([
      resourceRoute('stats', [empty, ...STATS.filter((s) => s.network !== 'mainnet')]),
      resourceRoute('head', [
        {
          network: 'mainnet',
          level: 0,
          synced: false,
          node_reachable: false,
          time: '0001-01-01T00:00:00Z',
          protocol: '',
        },
        {
          network: 'sandboxnet',
          level: 42,
          synced: true,
          node_reachable: true,
          node_level: 43,
          lag: 1,
          time: '2025-11-20T10:00:00Z',
          protocol: 'P',
        },
      ]),
    ]);
    renderApp('/mainnet/recently_called');
    const info = await screen.findByRole('region', { name: 'Network Info' });
    expect(await within(info).findByText('Unsynced')).toBeTruthy();
    await waitFor(() => expect(within(info).getAllByRole('definition')[0]?.textContent).toBe('—'));
    expect(
      within(info)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(Array(8).fill('—'));
    expect(info.textContent).not.toMatch(/0 s|0 mutez/);
    // the index against the node, outside the eight fields
    expect(within(info).getByTestId('network-sync').textContent).toBe('Indexed level — · Node unreachable');
    const sidebar = screen.getByRole('navigation', { name: 'Networks' });
    expect(within(sidebar).getByText('not synced yet')).toBeTruthy();
    // a synced network says so
    cleanup();
    renderApp('/sandboxnet/recently_called');
    const synced = await screen.findByRole('region', { name: 'Network Info' });
    expect(await within(synced).findByText('Synced')).toBeTruthy();
    expect(within(synced).getByText('42')).toBeTruthy();
    expect(within(synced).getByTestId('network-sync').textContent).toBe(
      'Indexed level 42 · Node level 43 · 1 level behind',
    );
  });

  it("shows a network whose indexer is behind its node as syncing, with the node's level and the lag", async () => {
    routes([
      resourceRoute('head', [
        {
          network: 'sandboxnet',
          level: 42,
          synced: false,
          node_reachable: true,
          node_level: 96,
          lag: 54,
          time: '2025-11-20T10:00:00Z',
          protocol: 'P',
        },
        {
          network: 'ghostnet',
          level: 10,
          synced: false,
          node_reachable: false,
          time: '2025-11-20T10:00:00Z',
          protocol: 'P',
        },
      ]),
    ]);
    renderApp('/sandboxnet/recently_called');
    const info = await screen.findByRole('region', { name: 'Network Info' });
    expect(await within(info).findByText('Syncing')).toBeTruthy();
    expect(within(info).getByLabelText('sandboxnet syncing')).toBeTruthy();
    expect(within(info).getByTestId('network-sync').textContent).toBe(
      'Indexed level 42 · Node level 96 · 54 levels behind',
    );
    // each network of the sidebar that is not synced says why
    const sidebar = screen.getByRole('navigation', { name: 'Networks' });
    expect(await within(sidebar).findByText(/^ProtoALp · .* · 54 behind$/)).toBeTruthy();
    expect(within(sidebar).getByText(/^PsParisC · .* · node unreachable$/)).toBeTruthy();
  });

  it("shows the network's history backfill (issue 32) from its head's backfill summary", async () => {
    routes([
      resourceRoute('head', [
        {
          network: 'sandboxnet',
          level: 96,
          synced: true,
          node_reachable: true,
          node_level: 96,
          lag: 0,
          time: '2025-11-20T10:00:00Z',
          protocol: 'P',
          backfill: { pending: 0, running: 1, done: 1, failed: 0, levels_done: 340, levels_total: 1200 },
        },
      ]),
    ]);
    renderApp('/sandboxnet/recently_called');
    const info = await screen.findByRole('region', { name: 'Network Info' });
    const bar = await within(info).findByRole('progressbar', {
      name: 'History backfill: 2 contracts, 340 of 1,200 levels · 1 running',
    });
    expect(bar.getAttribute('aria-valuetext')).toBe('340 of 1,200 levels');
  });

  it('shows a part that failed (issue 34): the chip, the error and since when, and the sidebar', async () => {
    routes([
      resourceRoute('head', [
        {
          network: 'sandboxnet',
          level: 42,
          synced: true,
          node_reachable: true,
          node_level: 42,
          lag: 0,
          time: '2025-11-20T10:00:00Z',
          protocol: 'P',
          failures: [
            {
              part: 'node',
              message: 'cannot append block 43 to the block log: ENOSPC: no space left on device, write',
              since: '2025-11-20T10:00:05Z',
            },
          ],
        },
      ]),
    ]);
    renderApp('/sandboxnet/recently_called');
    const info = await screen.findByRole('region', { name: 'Network Info' });
    expect(await within(info).findByText('Failed')).toBeTruthy();
    expect(within(info).getByLabelText('sandboxnet failed')).toBeTruthy();
    expect(within(info).getByTestId('network-failure').textContent).toBe(
      'The node cannot store its chain (it bakes no block meanwhile) since 2025-11-20T10:00:05Z: cannot append block 43 to the block log: ENOSPC: no space left on device, write',
    );
    const sidebar = screen.getByRole('navigation', { name: 'Networks' });
    expect(await within(sidebar).findByText(/^ProtoALp · .* · failed$/)).toBeTruthy();
  });

  it('remembers the network picked in the sidebar for home and the Networks link', async () => {
    routes();
    renderApp('/mainnet/recently_called');
    const sidebar = await screen.findByRole('navigation', { name: 'Networks' });
    await waitFor(() => expect(within(sidebar).getAllByRole('link')).toHaveLength(3));
    fireEvent.click(within(sidebar).getByRole('link', { name: /^ghostnet/ }));
    expect(localStorage.getItem('michelscope:network')).toBe('ghostnet');
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: 'Networks' })[0]?.getAttribute('href')).toBe('/ghostnet'),
    );
  });

  it('lists 10 recently called contracts with aliases cut at 24 characters', async () => {
    const net = routes();
    renderApp('/mainnet/recently_called');
    const table = await screen.findByRole('table', { name: 'Recently called contracts on mainnet' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(11));
    expect(await within(table).findByRole('link', { name: 'Youves synthetic asset u…' })).toBeTruthy();
    expect(net.callsTo('GET /v1/stats/mainnet/recently_called_contracts')[0]?.url).toContain(
      'size=10&offset=0',
    );
  });

  it("says 'No called contracts found' and 'No global constants found' on an empty network", async () => {
    routes();
    renderApp('/ghostnet/recently_called');
    expect(await screen.findByText('No called contracts found')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Global constants' }));
    expect(await screen.findByText('No global constants found')).toBeTruthy();
  });

  it('lists global constants with links to their pages', async () => {
    const net = routes();
    renderApp('/mainnet/constants');
    const table = await screen.findByRole('table', { name: 'Global constants on mainnet' });
    const link = await within(table).findByRole('link', { name: /exprtZBwZU/ });
    expect(link.getAttribute('href')).toBe(`/constant/mainnet/${EXPR}`);
    expect(within(table).getByText('17')).toBeTruthy();
    expect(net.callsTo('GET /v1/global_constants/mainnet')[0]?.url).toBe(
      '/v1/global_constants/mainnet?size=10&offset=0',
    );
  });

  it('opens the network constants as raw JSON from the node', async () => {
    const net = routes();
    renderApp('/mainnet/recently_called');
    fireEvent.click(await screen.findByRole('button', { name: 'Constants' }));
    const dialog = await screen.findByRole('dialog', { name: 'Constants of mainnet' });
    await waitFor(() =>
      expect(within(dialog).getByTestId('raw-json').textContent).toContain('"nonce_length": 32'),
    );
    expect(net.callsTo('GET /rpc/mainnet/chains/main/blocks/head/context/constants')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('renders constants over 10,000 characters in steps', async () => {
    const big = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`constant_${i}`, 'v'.repeat(60)]));
    routes([resourceRoute('networkConstants', { network: 'mainnet', block: 'head' }, big)]);
    renderApp('/mainnet/recently_called');
    fireEvent.click(await screen.findByRole('button', { name: 'Constants' }));
    const dialog = await screen.findByRole('dialog', { name: 'Constants of mainnet' });
    expect(await within(dialog).findByText(/^Rendering: step \d+ of \d+$/)).toBeTruthy();
    await waitFor(() =>
      expect(within(dialog).getByTestId('raw-json').textContent).toContain('"constant_399"'),
    );
    expect(JSON.parse(within(dialog).getByTestId('raw-json').textContent ?? '')).toEqual(big);
  });

  it("says 'Don't have an RPC endpoint for the ghostnet' without asking when none is configured", async () => {
    const net = routes();
    renderApp('/ghostnet/recently_called');
    fireEvent.click(await screen.findByRole('button', { name: 'Constants' }));
    const dialog = await screen.findByRole('dialog', { name: 'Constants of ghostnet' });
    expect(await within(dialog).findByText("Don't have an RPC endpoint for the ghostnet")).toBeTruthy();
    expect(net.calls.filter((c) => c.url.startsWith('/rpc/'))).toHaveLength(0);
  });

  it("shows an RPC error's text", async () => {
    routes([
      [
        'GET /rpc/mainnet/',
        Response.json({ message: "Don't have an RPC endpoint for the mainnet" }, { status: 404 }),
      ],
    ]);
    renderApp('/mainnet/recently_called');
    fireEvent.click(await screen.findByRole('button', { name: 'Constants' }));
    const dialog = await screen.findByRole('dialog', { name: 'Constants of mainnet' });
    expect(await within(dialog).findByText("Don't have an RPC endpoint for the mainnet")).toBeTruthy();
  });
});

describe('network statistics', () => {
  it('has a Statistics tab only where a stats service exists', async () => {
    routes();
    const { router } = renderApp('/sandboxnet/stats');
    await waitFor(() => expect(router.state.location.pathname).toBe('/sandboxnet/recently_called'));
    expect(await screen.findByRole('tab', { name: 'Global constants' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Statistics' })).toBeNull();
  });

  it('reads the gas sums as milligas: 366,820,000 milligas are 0.3668 ×10⁶ gas (issue 33)', async () => {
    // 204 calls of about 1,800 gas each: the service sums consumed_gas as stored, in milligas
    routes([
      matchingRoute(
        'statsSummary',
        'GET /stats/v1/summary/consumed_gas/sum?network=mainnet&field=Used',
        '366820000',
      ),
      ['GET /stats/v1/summary/', Response.json({ message: 'no summary' }, { status: 500 })],
      matchingRoute('statsHistogram', 'GET /stats/v1/histogram/', []),
    ]);
    renderApp('/mainnet/stats');
    const gas = await screen.findByRole('region', { name: 'Consumed gas ×10⁶' });
    expect(await within(gas).findByText('gas consumed · total 0.3668')).toBeTruthy();
  });

  it('draws four charts, monthly by default, and asks again when the period changes', async () => {
    const point = (ts: number, value: string) => ({ ts, value });
    const net = routes([
      matchingRoute('statsHistogram', /GET \/stats\/v1\/histogram\/consumed_gas/, []),
      matchingRoute(
        'statsSummary',
        'GET /stats/v1/summary/paid_storage_size_diff/sum?network=mainnet&field=Value',
        '3072',
      ),
      ['GET /stats/v1/summary/', Response.json({ message: 'no summary' }, { status: 500 })],
      matchingRoute('statsHistogram', 'GET /stats/v1/histogram/', [
        point(1_700_000_000, '4'),
        point(1_702_592_000, '7'),
      ]),
    ]);
    renderApp('/mainnet/stats');
    for (const title of [
      'Deployments',
      'Contract calls',
      'Paid storage size diff, KB',
      'Consumed gas ×10⁶',
    ]) {
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    }
    await waitFor(() => expect(net.callsTo('GET /stats/v1/histogram/')).toHaveLength(4));
    const urls = net
      .callsTo('GET /stats/v1/histogram/')
      .map((c) => c.url)
      .sort();
    expect(urls).toEqual([
      '/stats/v1/histogram/consumed_gas/sum/month?network=mainnet&field=Used',
      '/stats/v1/histogram/originations/count/month?network=mainnet&Status=1',
      '/stats/v1/histogram/paid_storage_size_diff/sum/month?network=mainnet&field=Value',
      '/stats/v1/histogram/transactions/count/month?network=mainnet&Entrypoint.isnotnull=&Status=1',
    ]);
    const storage = screen.getByRole('region', { name: 'Paid storage size diff, KB' });
    expect(await within(storage).findByText('storage bytes paid · total 3')).toBeTruthy();
    const gas = screen.getByRole('region', { name: 'Consumed gas ×10⁶' });
    expect(await within(gas).findByText('No data for this period are available')).toBeTruthy();
    const deployments = screen.getByRole('region', { name: 'Deployments' });
    expect(within(deployments).getByRole('button', { name: 'Month' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(within(deployments).getByRole('button', { name: 'Week' }));
    await waitFor(() =>
      expect(
        net.calls.some(
          (c) => c.url === '/stats/v1/histogram/originations/count/week?network=mainnet&Status=1',
        ),
      ).toBe(true),
    );
    expect(within(deployments).queryByText('No data for this period are available')).toBeNull();
  });
});
