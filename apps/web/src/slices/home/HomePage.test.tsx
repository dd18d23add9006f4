// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { renderApp } from '../../app/testing/render-app';

const head = (network: string, synced: boolean, level: number) => ({
  network,
  synced,
  level,
  time: '2026-01-01T00:00:00Z',
  protocol: 'PsX',
});

let answers: (() => Response)[] = [];
const urlOf = (input: RequestInfo | URL): string => (input instanceof Request ? input.url : input.toString());

const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  if (urlOf(input).startsWith('/v1/stats/')) return Response.json([]);
  if (urlOf(input) !== '/v1/head') return new Response('{"message":"no"}', { status: 404 });
  const next = answers.length > 1 ? answers.shift() : answers[0];
  return next ? next() : new Response('[]');
});

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('home network toggle', () => {
  it('has one toggle per configured network named after it, each with a sync dot', async () => {
    answers = [() => Response.json([head('sandboxnet', true, 12), head('mainnet', false, 0)])];
    renderApp('/');
    // The first test also loads the app's modules: a longer wait on a busy machine.
    expect(await screen.findByRole('img', { name: 'sandboxnet synced' }, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'mainnet unsynced' })).toBeTruthy();
    // ghostnet is configured but absent from /v1/head: unsynced
    expect(screen.getByRole('img', { name: 'ghostnet unsynced' })).toBeTruthy();
    const buttons = ['mainnet', 'sandboxnet', 'ghostnet'].map((n) => screen.getByRole('button', { name: n }));
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false']);
    fireEvent.click(buttons[1] as HTMLElement);
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true', 'false']);
  });

  it('shows every network unsynced and no error when /v1/head fails', async () => {
    answers = [() => Response.json({ message: 'database is down' }, { status: 500 })];
    renderApp('/');
    expect(await screen.findByRole('img', { name: 'sandboxnet unsynced' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/database is down/)).toBeNull();
  });

  it('polls /v1/head every 30 s and updates the dots', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = [
      () => Response.json([head('sandboxnet', false, 0)]),
      () => Response.json([head('sandboxnet', true, 3)]),
    ];
    renderApp('/');
    expect(await screen.findByRole('img', { name: 'sandboxnet unsynced' })).toBeTruthy();
    const headCalls = () => fetchMock.mock.calls.filter(([url]) => urlOf(url) === '/v1/head').length;
    expect(headCalls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(headCalls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(headCalls()).toBe(2);
    expect(await screen.findByRole('img', { name: 'sandboxnet synced' })).toBeTruthy();
  });
});
