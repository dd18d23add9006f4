// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import type { SeriesPoint } from '@michelscope/api-types';
import { mockFetch, resourceRoute } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { contractSeriesSpec, type ContractSeriesId } from '../../../api/contract-stats-api';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';

/** The histogram routes of one of the contract's series, by month and by week. */
const seriesRoutes = (id: ContractSeriesId, points: SeriesPoint[]) =>
  (['month', 'week'] as const).map((timeframe) =>
    resourceRoute('statsHistogram', { network: 'mainnet', ...contractSeriesSpec(id, KT), timeframe }, points),
  );

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

describe('contract statistics', { timeout: 20_000 }, () => {
  it('filters every series on the contract as the reference does', () => {
    expect(contractSeriesSpec('users', KT)).toEqual({
      table: 'transactions',
      fn: 'count',
      filters: { Target: KT, Status: '1', 'Entrypoint.isnotnull': '', distinct: 'Sender' },
    });
    expect(contractSeriesSpec('burned', KT).filters).toEqual({
      field: 'Update',
      Kind: '2',
      Counterparty: KT,
    });
  });

  it('shows four series with totals, monthly by default, and re-queries per period', async () => {
    const calls = [
      { ts: 1_700_000_000, value: '3' },
      { ts: 1_702_592_000, value: '4' },
    ];
    const mock = mockFetch([
      ...contractFrame('mainnet', KT),
      ...seriesRoutes('gas', [
        { ts: 1_700_000_000, value: '1500000' },
        { ts: 1_702_592_000, value: '2500000' },
      ]),
      ...seriesRoutes('burned', []),
      ...seriesRoutes('calls', calls),
      ...seriesRoutes('users', calls),
    ]);
    renderApp(`/mainnet/${KT}/stats`);
    for (const title of ['Contract calls', 'Unique users', 'Consumed gas', 'Burned']) {
      expect(await screen.findByRole('heading', { name: title }, { timeout: 5000 })).toBeTruthy();
    }
    // the service sums milligas (1,500,000 + 2,500,000): 4,000 gas, not '4,000,000 gas' (issue 33)
    await waitFor(() =>
      expect(screen.getByLabelText('Consumed gas total').textContent).toBe('Total: 4,000 gas'),
    );
    expect(screen.getByLabelText('Contract calls total').textContent).toBe('Total: 7');
    expect(screen.getByText('No data for this period are available')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Month' }).getAttribute('aria-pressed')).toBe('true');
    expect(
      mock.callsTo('GET /stats/v1/histogram/transactions/count/month?network=mainnet&Target='),
    ).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Week' }));
    await waitFor(() =>
      expect(mock.callsTo('GET /stats/v1/histogram/consumed_gas/sum/week')).toHaveLength(1),
    );
  });

  it('a network without a statistics service neither shows the tab nor opens its URL', async () => {
    const mock = mockFetch(contractFrame('sandboxnet', KT));
    const { router } = renderApp(`/sandboxnet/${KT}/stats`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/sandboxnet/${KT}/operations`), {
      timeout: 10_000,
    });
    expect(await screen.findByRole('tab', { name: /^Operations/ })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Statistics' })).toBeNull();
    expect(mock.callsTo('GET /stats/v1/')).toHaveLength(0);
  });
});
