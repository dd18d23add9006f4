// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { apiGroup, hasShared } from './testing/rpc-group';

// A real mainnet batch of 28 transactions: some backtracked, the rest skipped after a storage_exhausted error.
const BATCH = 'onq5z62MJf7WvHva6PdpSBC645NzQzt7M2xL43e9NpwpPvA6Lrp';

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('operation group page', () => {
  it('shows the empty state texts when the group is unknown', async () => {
    mockFetch([resourceRoute('opg', { network: 'mainnet', hash: BATCH }, [])]);
    renderApp(`/mainnet/opg/${BATCH}/contents`);
    expect(await screen.findByText('Nothing found')).toBeTruthy();
    expect(
      screen.getByText(
        "Can't find operation group by hash. Maybe the operation you are looking for is not yet in the mempool",
      ),
    ).toBeTruthy();
  });

  it('treats a 204 as a silent empty result', async () => {
    mockFetch([
      resourceRoute('opg', { network: 'mainnet', hash: BATCH }, new Response(null, { status: 204 })),
    ]);
    renderApp(`/mainnet/opg/${BATCH}/contents`);
    expect(await screen.findByText('Nothing found')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.skipIf(!hasShared)(
    'renders a real failed batch: header styles, expanded errors, sidebar and raw JSON',
    async () => {
      // `ops` in execution order; the API answers `level desc, counter desc, id asc` (reference §3.7)
      const ops = apiGroup(BATCH);
      const apiOrder = [...ops].sort(
        (a, b) => Number(b.counter) - Number(a.counter) || Number(a.id) - Number(b.id),
      );
      expect(apiOrder[0]).not.toBe(ops[0]);
      const group = resourceRoute('opg', { network: 'mainnet', hash: BATCH }, apiOrder);
      const mock = mockFetch([group]);
      renderApp(`/mainnet/opg/${BATCH}/contents`);
      const cards = await screen.findAllByRole('article');
      expect(cards).toHaveLength(ops.length);
      expect(mock.callsOf(group)).toHaveLength(1);
      const styles = new Set(
        cards.map((c) => c.querySelector('[data-header-style]')?.getAttribute('data-header-style')),
      );
      const statuses = new Set(ops.map((o) => o.status));
      expect(styles).toEqual(
        new Set([...statuses].map((s) => (s === 'applied' ? 'applied' : 'backtracked'))),
      );
      // the failing operation has its details open with its error alert
      const failing = ops.findIndex((o) => Array.isArray(o.errors) && o.errors.length > 0);
      const failingCard = cards[failing] as HTMLElement;
      expect(within(failingCard).getByRole('button', { name: 'Hide details' })).toBeTruthy();
      const errorId = String((ops[failing]?.errors as { id: string }[])[0]?.id);
      expect(within(failingCard).getByText(errorId)).toBeTruthy();
      // applied operations are not expanded
      expect(
        within(cards[cards.length - 1] as HTMLElement).getByRole('button', { name: 'Show details' }),
      ).toBeTruthy();

      const side = screen.getByRole('complementary', { name: 'Operation group details' });
      const fees = ops.reduce((s, o) => s + Number(o.fee ?? 0), 0);
      expect(
        within(side).getByText(`${(fees / 1e6).toLocaleString('en-US', { maximumFractionDigits: 6 })} ꜩ`),
      ).toBeTruthy();
      const stack = within(within(side).getByRole('list', { name: 'Call stack' })).getAllByRole('listitem');
      expect(stack).toHaveLength(ops.length);
      // contents in execution order: the cards' counters rise
      const counters = cards.map((c) => Number(c.getAttribute('data-counter')));
      expect(counters).toEqual(ops.map((o) => Number(o.counter)));
      expect(counters[0]).toBeLessThan(counters[counters.length - 1]!);
      expect(screen.getByRole('button', { name: 'Copy hash' })).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Raw JSON' }));
      await waitFor(() => expect(screen.getByTestId('raw-json').textContent).toContain(BATCH));
    },
  );
});
