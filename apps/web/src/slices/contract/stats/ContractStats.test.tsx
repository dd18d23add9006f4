// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import type { SeriesPoint } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { contractSeriesSpec, type ContractSeriesId } from '../../../api/contract-stats-api';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';

/** The histogram routes of one of the contract's series, by month and by week, and its total. */
const seriesRoutes = (id: ContractSeriesId, points: SeriesPoint[], total = '0') => [
  ...(['month', 'week'] as const).map((timeframe) =>
    resourceRoute('statsHistogram', { network: 'mainnet', ...contractSeriesSpec(id, KT), timeframe }, points),
  ),
  resourceRoute('statsSummary', { network: 'mainnet', ...contractSeriesSpec(id, KT) }, total),
];

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('contract statistics', () => {
  it('asks every series of the contract as the BCD client does', () => {
    // views/contract/StatsTab.vue: transactions/distinct with field Sender, balance_update with Kind 2
    expect(contractSeriesSpec('users', KT)).toEqual({
      table: 'transactions',
      fn: 'distinct',
      filters: { field: 'Sender', Target: KT, Status: '1' },
    });
    expect(contractSeriesSpec('burned', KT)).toEqual({
      table: 'balance_update',
      fn: 'sum',
      filters: { field: 'Update', Kind: '2', Counterparty: KT },
    });
  });

  it('shows four series with totals, monthly by default, and re-queries per period', async () => {
    const calls = [
      { ts: 1_700_000_000, value: '3' },
      { ts: 1_702_592_000, value: '4' },
    ];
    const mock = mockFetch([
      ...contractFrame('mainnet', KT),
      ...seriesRoutes(
        'gas',
        [
          { ts: 1_700_000_000, value: '1500000' },
          { ts: 1_702_592_000, value: '2500000' },
        ],
        '4000000',
      ),
      ...seriesRoutes('burned', []),
      ...seriesRoutes('calls', calls, '7'),
      // two senders a month, three in all: the total is the service's, not the sum of the months
      ...seriesRoutes(
        'users',
        [
          { ts: 1_700_000_000, value: '2' },
          { ts: 1_702_592_000, value: '2' },
        ],
        '3',
      ),
    ]);
    renderApp(`/mainnet/${KT}/stats`);
    for (const title of ['Contract calls', 'Unique users', 'Consumed gas', 'Burned']) {
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    }
    // the service sums milligas (1,500,000 + 2,500,000): 4,000 gas, not '4,000,000 gas' (issue 33)
    await waitFor(() =>
      expect(screen.getByLabelText('Consumed gas total').textContent).toBe('Total: 4,000 gas'),
    );
    await waitFor(() => expect(screen.getByLabelText('Contract calls total').textContent).toBe('Total: 7'));
    await waitFor(() => expect(screen.getByLabelText('Unique users total').textContent).toBe('Total: 3'));
    expect(
      mock.callsTo(
        `GET /stats/v1/histogram/transactions/distinct/month?network=mainnet&field=Sender&Target=${KT}&Status=1`,
      ),
    ).toHaveLength(1);
    expect(screen.getByText('No data for this period are available')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Month' }).getAttribute('aria-pressed')).toBe('true');
    expect(
      mock.callsTo('GET /stats/v1/histogram/transactions/count/month?network=mainnet&Target='),
    ).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Week' }));
    await waitFor(() =>
      expect(mock.callsTo('GET /stats/v1/histogram/consumed_gas/sum/week')).toHaveLength(1),
    );
  });

  it('a network without a statistics service neither shows the tab nor opens its URL', async () => {
    const mock = mockFetch(contractFrame('sandboxnet', KT));
    const { router } = renderApp(`/sandboxnet/${KT}/stats`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/sandboxnet/${KT}/operations`));
    expect(await screen.findByRole('tab', { name: /^Operations/ })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Statistics' })).toBeNull();
    expect(mock.callsTo('GET /stats/v1/')).toHaveLength(0);
  });
});
