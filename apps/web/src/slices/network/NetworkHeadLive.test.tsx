// @vitest-environment jsdom
/**
 * The network panel's head against the header's (issue 33): the header shows the level of the live stream's last
 * head event; the panel's Head Level and Head Hash must not lag it — whether the network states (GET /v1/stats,
 * cached 30 s by the API) arrive before that event or after it, with an older level.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import type { Block, Head, LiveHeadEvent } from '@michelscope/api-types';
import { renderApp } from '../../app/testing/render-app';
import { anyQueryRoute, mockFetch, resourceRoute } from '../../app/testing/mock-fetch';

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

const PROTOCOL = 'ProtoALphaALphaALphaALphaALphaALphaALphaALphaDdp3zK';
const state = (level: number): Block => ({
  network: 'sandboxnet',
  hash: `BLhash${level}`,
  level,
  predecessor: '',
  chain_id: 'NetXnHfVqm9iesp',
  timestamp: '2026-01-10T00:00:00Z',
  protocol: PROTOCOL,
  cost_per_byte: 250,
  hard_gas_limit_per_operation: 1040000,
  hard_storage_limit_per_operation: 60000,
  time_between_blocks: 10,
});
const heads: Head[] = [
  {
    network: 'sandboxnet',
    level: 40,
    time: '2026-01-10T00:00:00Z',
    protocol: PROTOCOL,
    synced: true,
    node_reachable: true,
    node_level: 40,
    lag: 0,
  },
];
const headEvent = (level: number): LiveHeadEvent => ({
  network: 'sandboxnet',
  level,
  hash: `BLhash${level}`,
  time: '2026-01-10T00:07:00Z',
  protocol: PROTOCOL,
  synced: true,
  node_reachable: true,
  node_level: level,
  lag: 0,
});

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal('EventSource', FakeSource);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  FakeSource.all = [];
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The network page of sandboxnet whose states answer when `release` is called (with level 40). */
function open(statesFirst: boolean) {
  let release: () => void = () => undefined;
  const states = new Promise<Block[]>((resolve) => {
    release = () => resolve([state(40)]);
  });
  if (statesFirst) release();
  mockFetch([
    resourceRoute('stats', () => states),
    resourceRoute('head', heads),
    anyQueryRoute('recentlyCalled', { network: 'sandboxnet', size: 10, offset: 0 }, []),
  ]);
  renderApp('/sandboxnet/recently_called');
  return { release };
}

async function stream(): Promise<FakeSource> {
  await waitFor(() => expect(FakeSource.all.length).toBeGreaterThan(0));
  const source = FakeSource.all[0]!;
  act(() => source.onopen?.());
  return source;
}

const field = (info: HTMLElement, term: string) =>
  within(info)
    .getAllByRole('term')
    .find((t) => t.textContent === term)!.nextElementSibling!.textContent;

describe("the network panel's head follows the header's (issue 33)", () => {
  it('a head event after the states moves the panel (what 9ffa664 did)', async () => {
    open(true);
    const info = await screen.findByRole('region', { name: 'Network Info' });
    await waitFor(() => expect(field(info, 'Head Level')).toBe('40'));
    const source = await stream();
    act(() => source.emit('head', headEvent(42)));
    expect(await screen.findByTestId('live-level')).toBeTruthy();
    expect(screen.getByTestId('live-level').textContent).toBe('42');
    await waitFor(() => expect(field(info, 'Head Level')).toBe('42'));
    expect(field(info, 'Head Hash')).toBe('BLhash42');
  });

  it('states older than the head event, arriving after it, do not put the panel behind the header', async () => {
    const { release } = open(false);
    const source = await stream();
    act(() => source.emit('head', headEvent(42)));
    await waitFor(() => expect(screen.getByTestId('live-level').textContent).toBe('42'));
    // the API's states, cached before block 42
    act(() => release());
    const info = await screen.findByRole('region', { name: 'Network Info' });
    await waitFor(() => expect(within(info).queryAllByRole('term').length).toBe(8));
    await waitFor(() => expect(field(info, 'Chain ID')).toBe('NetXnHfVqm9iesp'));
    expect(field(info, 'Head Level')).toBe('42');
    expect(field(info, 'Head Hash')).toBe('BLhash42');
    expect(screen.getByTestId('live-level').textContent).toBe('42');
  });
});
