// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Head, LiveHeadEvent } from '@michelscope/api-types';
import { resourceKey } from '../../api/resources';
import { TEST_CONFIG } from '../../app/testing/render-app';
import { AppConfigContext } from '../config/app-config-context';
import { indicatorState, LiveIndicator } from './LiveIndicator';

/** The browser's EventSource as far as the live client uses it. */
class FakeSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeSource[] = [];
  readyState = FakeSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, Array<(e: { data: string }) => void>>();
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = FakeSource.CLOSED;
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
}

const head = (sync: Partial<LiveHeadEvent>): LiveHeadEvent => ({
  network: 'mainnet',
  level: 5_000_000,
  hash: 'BLx',
  time: '2026-01-10T12:00:00Z',
  protocol: 'PtParis',
  synced: true,
  node_reachable: true,
  node_level: 5_000_000,
  lag: 0,
  ...sync,
});

/** The indicator of /mainnet in the header's place, with an open stream (`FakeSource.all[0]`). */
async function renderIndicator(heads?: Head[]) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // the head list as the start network's choice loaded it (the indicator never fetches it itself here)
  queries.setQueryData(resourceKey('head'), heads ?? []);
  const router = createMemoryRouter([{ path: '/:network', element: <LiveIndicator /> }], {
    initialEntries: ['/mainnet'],
  });
  render(
    <QueryClientProvider client={queries}>
      <AppConfigContext value={TEST_CONFIG}>
        <RouterProvider router={router} />
      </AppConfigContext>
    </QueryClientProvider>,
  );
  await act(async () => {
    await vi.advanceTimersByTimeAsync(100); // the channel opens its stream after a short delay
  });
  const source = FakeSource.all[0]!;
  act(() => source.onopen?.());
  return source;
}

const group = () => screen.getByRole('group', { name: 'Live updates of mainnet' });
const status = () => within(group()).getByRole('status');

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeSource);
  FakeSource.all = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the header live indicator', () => {
  it("says 'Live' with the level only while the index is synced with the node", async () => {
    const source = await renderIndicator();
    act(() => source.emit('head', head({})));
    expect(status().textContent).toBe('Live');
    expect(group().getAttribute('data-sync')).toBe('live');
    expect(screen.getByTestId('live-level').textContent).toBe('5,000,000');
    expect(screen.queryByTestId('live-lag')).toBeNull();
  });

  it('pulses once for each new level, not endlessly: the dot is drawn again for a new block only', async () => {
    const source = await renderIndicator();
    act(() => source.emit('head', head({})));
    const first = screen.getByTestId('live-dot');
    // the same level announced again (a sync change): no new pulse
    act(() => source.emit('head', head({ node_level: 5_000_001, lag: 1 })));
    expect(screen.getByTestId('live-dot')).toBe(first);
    act(() => source.emit('head', head({ level: 5_000_001, node_level: 5_000_001 })));
    expect(screen.getByTestId('live-dot')).not.toBe(first);
    // the dot's styles: a pulse that plays once, none that repeats for ever (the document also holds other
    // files' styles: this project's files share a worker, and a loading skeleton pulses while it is shown)
    const rules = [...document.querySelectorAll('style')]
      .flatMap((s) => (s.textContent ?? '').split('\n'))
      .filter((rule) => rule.includes('animation:ms-live-pulse'));
    expect(rules.some((rule) => /animation:ms-live-pulse 0\.8s ease-in-out 1[;}]/.test(rule))).toBe(true);
    expect(rules.filter((rule) => rule.includes('infinite'))).toEqual([]);
  });

  it("says 'Syncing · 54 behind' in words when the indexer is 54 levels behind, and 'Live' again once caught up", async () => {
    const source = await renderIndicator();
    act(() => source.emit('head', head({ synced: false, node_level: 5_000_054, lag: 54 })));
    expect(status().textContent).toBe('Syncing');
    expect(screen.getByTestId('live-lag').textContent).toBe('· 54 behind');
    // what a screen reader reads of the group: the words, not a colour
    expect(group().textContent).toContain('Syncing· 54 behind');
    expect(group().textContent).not.toContain('Live');
    expect(group().getAttribute('data-sync')).toBe('syncing');
    // the level is not next to the lag (it would read as part of it): the levels are in the title
    expect(screen.queryByTestId('live-level')).toBeNull();
    expect(group().getAttribute('title')).toBe('Indexed level 5,000,000, node level 5,000,054');
    // the same level sent again once the indexer is back within the sync gap (or a new block)
    act(() => source.emit('head', head({ level: 5_000_053, node_level: 5_000_055, lag: 2 })));
    expect(status().textContent).toBe('Live');
    expect(screen.queryByTestId('live-lag')).toBeNull();
    expect(screen.getByTestId('live-level').textContent).toBe('5,000,053');
    expect(group().getAttribute('title')).toBeNull();
  });

  it("says 'Node unreachable' when the API cannot read the node's head", async () => {
    const source = await renderIndicator();
    act(() =>
      source.emit('head', {
        ...head({ synced: false, node_reachable: false }),
        node_level: undefined,
        lag: undefined,
      }),
    );
    expect(status().textContent).toBe('Node unreachable');
    expect(group().getAttribute('data-sync')).toBe('unreachable');
  });

  it("says 'Node failed' with the error while a part failed, even at the node's head; 'Live' once it works (issue 34)", async () => {
    const source = await renderIndicator();
    const failure = {
      part: 'node' as const,
      message: "the sandbox's storage folder /data/sandbox is gone: ENOENT: no such file or directory",
      since: '2026-01-10T12:00:05Z',
    };
    act(() => source.emit('head', head({ failures: [failure] })));
    expect(status().textContent).toBe('Node failed');
    expect(status().textContent).not.toContain('Live');
    expect(group().getAttribute('data-sync')).toBe('failed');
    expect(group().getAttribute('title')).toBe(`${failure.message} (since ${failure.since})`);
    // the head list's answer (the same level sent again when only the sync fields changed)
    act(() => source.emit('head', head({})));
    expect(status().textContent).toBe('Live');
    expect(group().getAttribute('title')).toBeNull();
  });

  it('uses the head list until the stream sends a head (nothing indexed yet: no head event)', async () => {
    await renderIndicator([
      {
        network: 'mainnet',
        level: 0,
        time: '',
        protocol: '',
        synced: false,
        node_reachable: true,
        node_level: 9,
      },
    ]);
    expect(status().textContent).toBe('Syncing');
    expect(screen.queryByTestId('live-lag')).toBeNull();
  });

  it("says 'Paused' with Retry after the stream failed", async () => {
    const source = await renderIndicator();
    act(() => {
      source.readyState = FakeSource.CLOSED;
      source.onerror?.();
    });
    expect(status().textContent).toBe('Paused');
    fireEvent.click(within(group()).getByRole('button', { name: 'Retry' }));
    expect(status().textContent).toBe('Connecting');
  });
});

describe('indicatorState', () => {
  const sync = { synced: true, node_reachable: true, lag: 0 };
  it('is Live only when the stream is open and the head synced', () => {
    expect(indicatorState('live', sync)).toEqual({ tone: 'live', label: 'Live' });
    expect(indicatorState('connecting', sync).label).toBe('Connecting');
    expect(indicatorState('live', undefined).label).toBe('Connecting');
    expect(indicatorState('paused', sync).label).toBe('Paused');
  });
  it('gives the lag when behind, with thousands separators', () => {
    expect(indicatorState('live', { synced: false, node_reachable: true, lag: 12_345 })).toEqual({
      tone: 'syncing',
      label: 'Syncing',
      lag: '12,345 behind',
      behind: 12_345,
    });
    expect(indicatorState('live', { synced: false, node_reachable: true })).toEqual({
      tone: 'syncing',
      label: 'Syncing',
    });
    expect(indicatorState('live', { synced: false, node_reachable: false }).label).toBe('Node unreachable');
  });
  it('says which part failed before anything else but Paused', () => {
    const failures = [{ part: 'indexer' as const, message: 'disk full', since: '2026-01-10T12:00:00Z' }];
    expect(indicatorState('live', { ...sync, failures })).toEqual({
      tone: 'failed',
      label: 'Indexer failed',
      detail: 'disk full (since 2026-01-10T12:00:00Z)',
    });
    expect(indicatorState('paused', { ...sync, failures }).label).toBe('Paused');
  });
});
