// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { useNotify } from '../../features/notifications/useNotify';
import { renderApp } from '../testing/render-app';
import { mockFetch, resourceRoute } from '../testing/mock-fetch';

/** A fixed screen at /deploy, so these shell tests do not depend on the real deploy page. */
const DEPLOY_STUB = { deploy: async () => ({ Component: () => <h1>Deploy</h1> }) };

const scrollTo = vi.fn();

beforeEach(() => {
  vi.stubGlobal('scrollTo', scrollTo);
  // the shell asks for the heads (the header's sync state); nothing is indexed here
  mockFetch([resourceRoute('head', [])]);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('shell', () => {
  it('shows the brand and the main navigation; Networks opens the first configured network', async () => {
    renderApp('/deploy', { screens: DEPLOY_STUB });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Search', '/search'],
      ['Networks', '/mainnet'],
      ['Deploy', '/deploy'],
    ]);
    expect(screen.getByRole('link', { name: 'Michelscope' }).getAttribute('href')).toBe('/');
    for (const name of ['GitHub', 'X (Twitter)', 'Telegram', 'Email']) {
      expect(screen.getByRole('link', { name }).getAttribute('href')).toMatch(/^(https:|mailto:)/);
    }
  });

  it('shows the error state for a failing screen and hides it once the visitor navigates away', async () => {
    const boom = async () => ({
      Component: () => {
        throw new Error('storage exploded');
      },
    });
    // React and React Router log the thrown error; keep the test output readable.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { router } = renderApp('/deploy', { screens: { deploy: boom } });
    expect(await screen.findByRole('heading', { name: "This wasn't planned" })).toBeTruthy();
    expect(screen.getByText('storage exploded')).toBeTruthy();
    // The header stays usable around the error.
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Search' }),
    );
    expect(await screen.findByRole('heading', { name: 'Search' })).toBeTruthy();
    expect(screen.queryByText("This wasn't planned")).toBeNull();
    expect(router.state.location.pathname).toBe('/search');
  });

  it('scrolls to the top when the page changes', async () => {
    const { router } = renderApp('/deploy', { screens: DEPLOY_STUB });
    await screen.findByRole('heading', { name: 'Deploy' });
    scrollTo.mockClear();
    await act(() => router.navigate('/search'));
    await screen.findByRole('heading', { name: 'Search' });
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0 });
  });

  it('switches the theme and saves the choice as dark=false/true', async () => {
    const data: Record<string, string> = {};
    const storage = {
      getItem: (k: string) => data[k] ?? null,
      setItem: (k: string, v: string) => void (data[k] = v),
    };
    renderApp('/deploy', { storage, screens: DEPLOY_STUB });
    const toggle = await screen.findByRole('button', { name: 'Dark theme' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(data.dark).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(data.dark).toBe('false');
  });

  it('offers the links in a menu for small screens', async () => {
    renderApp('/deploy', { screens: DEPLOY_STUB });
    const button = await screen.findByRole('button', { name: 'Open menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Networks' }).getAttribute('href')).toBe('/mainnet');
    expect(within(menu).getByRole('menuitem', { name: 'GitHub' })).toBeTruthy();
  });

  it('hides a shown error snackbar when the visitor navigates', async () => {
    function FailingScreen() {
      const notify = useNotify();
      useEffect(() => notify.error('Request failed with status code 500'), [notify]);
      return <h1>Failing</h1>;
    }
    const { router } = renderApp('/deploy', {
      screens: { deploy: async () => ({ Component: FailingScreen }) },
    });
    expect(await screen.findByText('Request failed with status code 500')).toBeTruthy();
    await act(() => router.navigate('/search'));
    await screen.findByRole('heading', { name: 'Search' });
    await waitFor(() => expect(screen.queryByText('Request failed with status code 500')).toBeNull());
  });
});
