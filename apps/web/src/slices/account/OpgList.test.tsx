// @vitest-environment jsdom
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { OpgRow } from '../../api/opg-types';
import { TEST_CONFIG } from '../../app/testing/render-app';
import { mockFetch, resourceRoute } from '../../app/testing/mock-fetch';
import { NotificationsProvider } from '../../features/notifications/NotificationsProvider';
import { AppConfigContext } from '../../shared/config/app-config-context';
import { OpgList } from './OpgList';
import { ROW_ESTIMATE_PX, ROW_GAP_PX, VIRTUALISE_ABOVE } from './opg-list-logic';

// rows as high as the estimate: where a row is does not depend on which rows were measured
const ROW_PX = ROW_ESTIMATE_PX;
const STEP = ROW_PX + ROW_GAP_PX;

const rows = (n: number): OpgRow[] =>
  Array.from({ length: n }, (_, i) => ({
    last_id: n - i,
    content_index: 0,
    counter: n - i,
    level: n - i,
    total_cost: 0,
    flow: 0,
    internals: 0,
    hash: `oo${n - i}`,
    entrypoint: `call_${i}`,
    timestamp: '2022-01-25T16:54:35Z',
    status: 'applied',
    kind: 'transaction',
  }));

/** The window scrolled to `y` (jsdom does not scroll: its offset is set and the event sent, a task later). */
function scrollWindow(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true, writable: true });
  setTimeout(() => window.dispatchEvent(new Event('scroll')), 0);
}

// jsdom has no layout: every row is ROW_PX high, the window 768 px (jsdom's innerHeight), the page long;
// scrolling sets scrollY and sends the event.
const scrollTo = vi.fn((options?: ScrollToOptions | number) => {
  if (typeof options === 'object' && options.top !== undefined) scrollWindow(options.top);
});

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(ROW_PX);
  // the page as long as the longest list here (the virtualiser scrolls no further than the page's end)
  Object.defineProperty(document.documentElement, 'scrollHeight', {
    value: 10_000 * STEP,
    configurable: true,
  });
  scrollTo.mockClear();
  vi.stubGlobal('scrollTo', scrollTo);
  scrollWindow(0);
});
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(document.documentElement, 'scrollHeight');
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function List({ list, complete = true }: { list: OpgRow[]; complete?: boolean }) {
  const ref = useRef<HTMLUListElement>(null);
  return <OpgList network="mainnet" rows={list} newKeys={new Set()} complete={complete} listRef={ref} />;
}

function renderList(list: OpgRow[], complete = true) {
  return render(
    <AppConfigContext value={TEST_CONFIG}>
      <NotificationsProvider>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <List list={list} complete={complete} />
          </MemoryRouter>
        </QueryClientProvider>
      </NotificationsProvider>
    </AppConfigContext>,
  );
}

const listItems = () =>
  within(screen.getByRole('list', { name: 'Operation groups' })).queryAllByTestId('opg-row');
const positions = () => listItems().map((li) => Number(li.getAttribute('aria-posinset')));
const toggleOf = (li: HTMLElement) => li.querySelector<HTMLElement>('[data-opg-toggle]')!;

describe('the operations list', () => {
  it('is a plain list up to VIRTUALISE_ABOVE rows: every row in the DOM, no positions', () => {
    renderList(rows(VIRTUALISE_ABOVE));
    expect(listItems()).toHaveLength(VIRTUALISE_ABOVE);
    expect(listItems()[0]?.getAttribute('aria-posinset')).toBeNull();
    expect(listItems()[0]?.style.position).toBe('');
  });

  it('with many rows, only a window of them is in the DOM, and scrolling reaches the last row', async () => {
    renderList(rows(5_000));
    const items = listItems();
    expect(items.length).toBeGreaterThan(5);
    expect(items.length).toBeLessThan(40);
    expect(items[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(items[0]?.getAttribute('aria-setsize')).toBe('5000');
    // the list holds the room of all its rows
    expect(screen.getByRole('list', { name: 'Operation groups' }).style.height).toBe(
      `${5_000 * STEP - ROW_GAP_PX}px`,
    );

    act(() => scrollWindow(2_500 * STEP));
    await waitFor(() => expect(positions()).toContain(2_501));
    expect(positions()).not.toContain(1);
    expect(listItems().length).toBeLessThan(40);

    act(() => scrollWindow(5_000 * STEP));
    await waitFor(() => expect(positions()).toContain(5_000));
    expect(within(listItems().at(-1)!).getByText('call_4999')).toBeTruthy();
  });

  it('is operable by keyboard: End reaches the last row, ↑ the one before, Home the first', async () => {
    renderList(rows(1_000), false);
    expect(listItems()[0]?.getAttribute('aria-setsize')).toBe('-1');
    const first = toggleOf(listItems()[0]!);
    first.focus();
    fireEvent.keyDown(first, { key: 'End' });
    await waitFor(() =>
      expect(document.activeElement?.closest('li')?.getAttribute('aria-posinset')).toBe('1000'),
    );
    // the window scrolled there: the rows around the last one are rendered, the first ones no more
    expect(scrollTo).toHaveBeenCalled();
    await waitFor(() => expect(positions()).toContain(990));
    expect(positions()).not.toContain(1);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Show operations of call_999');

    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    await waitFor(() =>
      expect(document.activeElement?.closest('li')?.getAttribute('aria-posinset')).toBe('999'),
    );
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    await waitFor(() =>
      expect(document.activeElement?.closest('li')?.getAttribute('aria-posinset')).toBe('1'),
    );
  });

  it('keeps the focused row in the DOM when it is scrolled far away', async () => {
    renderList(rows(1_000));
    const third = toggleOf(listItems()[2]!);
    third.focus();
    act(() => scrollWindow(800 * STEP));
    await waitFor(() => expect(positions()).toContain(801));
    expect(positions()).toContain(3);
    expect(document.activeElement).toBe(third);
  });

  it('an opened row is still open when scrolled away and back', async () => {
    mockFetch([resourceRoute('opgContent', { network: 'mainnet', hash: 'oo1000', counter: 1000 }, [])]);
    renderList(rows(1_000));
    fireEvent.click(toggleOf(listItems()[0]!));
    expect(await within(listItems()[0]!).findByText('Nothing found')).toBeTruthy();
    // the focus elsewhere: the row is free to leave the DOM
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    act(() => scrollWindow(500 * STEP));
    await waitFor(() => expect(positions()).not.toContain(1));
    act(() => scrollWindow(0));
    await waitFor(() => expect(positions()).toContain(1));
    const first = listItems()[0]!;
    expect(toggleOf(first).getAttribute('aria-expanded')).toBe('true');
    expect(await within(first).findByText('Nothing found')).toBeTruthy();
  });
});
