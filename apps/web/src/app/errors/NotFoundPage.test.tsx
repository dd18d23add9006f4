// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { renderApp } from '../testing/render-app';
import { mockFetch, resourceRoute } from '../testing/mock-fetch';

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  // the shell asks for the heads (the header's sync state); nothing is indexed here
  mockFetch([resourceRoute('head', [])]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const robots = () => document.head.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null;

describe('/not_found', () => {
  it('is where an invalid address lands, with its exact texts, buttons and robots noindex', async () => {
    const { router } = renderApp('/mainnet/tz1notanaddress');
    expect(await screen.findByRole('heading', { name: 'Error 404. Page not found.' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/not_found');
    expect(screen.getByRole('link', { name: 'GO TO HOMEPAGE' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'ADVANCED SEARCH' }).getAttribute('href')).toBe('/search');
    expect(robots()).toBe('noindex');
  });

  it('removes robots noindex when the visitor leaves the page', async () => {
    const { router } = renderApp('/not_found', {
      screens: { deploy: async () => ({ Component: () => <h1>Deploy</h1> }) },
    });
    await screen.findByRole('heading', { name: 'Error 404. Page not found.' });
    expect(robots()).toBe('noindex');
    await act(() => router.navigate('/deploy'));
    await screen.findByRole('heading', { name: 'Deploy' });
    expect(robots()).toBeNull();
  });
});
