// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import type { Head } from '@michelscope/api-types';
import { renderApp } from '../../app/testing/render-app';
import { matchingRoute, mockFetch, resourceRoute } from '../../app/testing/mock-fetch';

const head = (network: string, synced: boolean, level: number): Head => ({
  network,
  synced,
  level,
  time: '2026-01-01T00:00:00Z',
  protocol: 'PsX',
});

/** What /v1/head says in turn, the last one repeated. */
let heads: (Head[] | Response)[] = [];
const headRoute = resourceRoute('head', () => (heads.length > 1 ? heads.shift() : heads[0]) ?? []);
let net: ReturnType<typeof mockFetch>;

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  // every network's table is empty
  net = mockFetch([headRoute, matchingRoute('recentlyCalled', 'GET /v1/stats/', [])]);
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('home network toggle', () => {
  it('has one toggle per configured network named after it, each with a sync dot', async () => {
    heads = [[head('sandboxnet', true, 12), head('mainnet', false, 0)]];
    renderApp('/');
    // The first test also loads the app's modules: a longer wait on a busy machine.
    expect(await screen.findByRole('img', { name: 'sandboxnet synced' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'mainnet unsynced' })).toBeTruthy();
    // ghostnet is configured but absent from /v1/head: unsynced
    expect(screen.getByRole('img', { name: 'ghostnet unsynced' })).toBeTruthy();
    const buttons = ['mainnet', 'sandboxnet', 'ghostnet'].map((n) => screen.getByRole('button', { name: n }));
    // mainnet (the default) is not synced: home opens on the first synced network
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true', 'false']);
    fireEvent.click(buttons[2] as HTMLElement);
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'true']);
  });

  it('is one tab stop: the arrow keys, Home and End move the focus between the networks, Enter picks one', async () => {
    heads = [[head('sandboxnet', true, 12), head('mainnet', true, 3)]];
    renderApp('/');
    await screen.findByRole('img', { name: 'sandboxnet synced' });
    const group = screen.getByRole('group', { name: 'Network' });
    const buttons = ['mainnet', 'sandboxnet', 'ghostnet'].map((n) => screen.getByRole('button', { name: n }));
    expect(buttons.map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    act(() => buttons[0]!.focus());
    fireEvent.keyDown(buttons[0]!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(buttons[1]);
    expect(buttons.map((b) => b.tabIndex)).toEqual([-1, 0, -1]);
    fireEvent.keyDown(buttons[1]!, { key: 'End' });
    expect(document.activeElement).toBe(buttons[2]);
    fireEvent.keyDown(buttons[2]!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(buttons[0]);
    fireEvent.keyDown(buttons[0]!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(buttons[2]);
    fireEvent.click(buttons[2]!);
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'true']);
    expect(group.contains(document.activeElement)).toBe(true);
  });

  it('shows every network unsynced and no error when /v1/head fails', async () => {
    heads = [Response.json({ message: 'database is down' }, { status: 500 })];
    renderApp('/');
    expect(await screen.findByRole('img', { name: 'sandboxnet unsynced' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/database is down/)).toBeNull();
  });

  it('polls /v1/head every 30 s and updates the dots', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    heads = [[head('sandboxnet', false, 0)], [head('sandboxnet', true, 3)]];
    renderApp('/');
    expect(await screen.findByRole('img', { name: 'sandboxnet unsynced' })).toBeTruthy();
    const headCalls = () => net.callsOf(headRoute).length;
    expect(headCalls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(headCalls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(headCalls()).toBe(2);
    expect(await screen.findByRole('img', { name: 'sandboxnet synced' })).toBeTruthy();
  });
});

describe('the network home opens on', () => {
  const pressed = () =>
    ['mainnet', 'sandboxnet', 'ghostnet'].filter(
      (n) => screen.getByRole('button', { name: n }).getAttribute('aria-pressed') === 'true',
    );
  const tableCalls = () => net.callsTo('GET /v1/stats/').map((c) => c.url);

  it('the first synced network when the default one is unreachable, in the table and the Networks link', async () => {
    heads = [[head('mainnet', false, 0), head('sandboxnet', true, 40)]];
    renderApp('/');
    expect(
      await screen.findByRole('table', { name: 'Recently called contracts on sandboxnet' }),
    ).toBeTruthy();
    expect(pressed()).toEqual(['sandboxnet']);
    expect(screen.getAllByRole('link', { name: 'Networks' })[0]?.getAttribute('href')).toBe('/sandboxnet');
    // the empty mainnet table was never asked for
    expect(tableCalls().some((u) => u.includes('/mainnet/'))).toBe(false);
  });

  it('the default network when it is synced', async () => {
    heads = [[head('mainnet', true, 9_000_000), head('sandboxnet', true, 40)]];
    renderApp('/');
    expect(await screen.findByRole('table', { name: 'Recently called contracts on mainnet' })).toBeTruthy();
    expect(pressed()).toEqual(['mainnet']);
  });

  it("the user's last choice, remembered across visits, also for the Networks link", async () => {
    heads = [[head('mainnet', false, 0), head('sandboxnet', true, 40)]];
    renderApp('/');
    fireEvent.click(await screen.findByRole('button', { name: 'ghostnet' }));
    expect(await screen.findByRole('table', { name: 'Recently called contracts on ghostnet' })).toBeTruthy();
    expect(localStorage.getItem('michelscope:network')).toBe('ghostnet');
    expect(screen.getAllByRole('link', { name: 'Networks' })[0]?.getAttribute('href')).toBe('/ghostnet');
    cleanup();
    renderApp('/');
    expect(await screen.findByRole('table', { name: 'Recently called contracts on ghostnet' })).toBeTruthy();
    expect(pressed()).toEqual(['ghostnet']);
  });
});
