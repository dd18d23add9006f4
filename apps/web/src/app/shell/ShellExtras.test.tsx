// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CopyButton } from '../../shared/clipboard/CopyButton';
import { NO_FAVOURITES_TEXT } from '../../features/bookmarks/favourites-text';
import { renderApp } from '../testing/render-app';
import { mockFetch, resourceRoute } from '../testing/mock-fetch';

/** A fixed screen at /deploy, so these shell tests do not depend on the real deploy page. */
const DEPLOY_STUB = { deploy: async () => ({ Component: () => <h1>Deploy</h1> }) };

const scrollTo = vi.fn();

beforeEach(() => {
  vi.stubGlobal('scrollTo', scrollTo);
  // the shell asks for the heads (the header's sync state); nothing is indexed here
  mockFetch([resourceRoute('head', [])]);
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const copyScreen = (text: string) => async () => ({
  Component: () => <CopyButton text={text} label="Copy address" />,
});

describe('clipboard messages', () => {
  it("shows 'Copied to the clipboard!' after a copy", async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/deploy', { screens: { deploy: copyScreen('KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn') } });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Copied to the clipboard!')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn');
  });

  it("shows 'Failed to save to the clipboard!' when the browser refuses", async () => {
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    renderApp('/deploy', { screens: { deploy: copyScreen('x') } });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Failed to save to the clipboard!')).toBeTruthy();
  });
});

describe('favourites', () => {
  it('shows the empty text when nothing is bookmarked', async () => {
    renderApp('/deploy', { screens: DEPLOY_STUB });
    fireEvent.click(await screen.findByRole('button', { name: 'Favourites' }));
    expect(await screen.findByText(NO_FAVOURITES_TEXT)).toBeTruthy();
    expect(NO_FAVOURITES_TEXT).toBe(
      "You don't have favorite accounts yet. Add them by clicking on ⭐️ on the account page or on the Interact tab.",
    );
  });

  it('lists bookmarked accounts with links to their pages', async () => {
    localStorage.setItem(
      'bookmarks',
      JSON.stringify({
        mainnet_KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn: {
          network: 'mainnet',
          address: 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn',
          alias: 'tzBTC',
        },
      }),
    );
    renderApp('/deploy', { screens: DEPLOY_STUB });
    fireEvent.click(await screen.findByRole('button', { name: 'Favourites' }));
    const menu = await screen.findByRole('menu');
    const item = within(menu).getByRole('menuitem', { name: /tzBTC/ });
    expect(item.getAttribute('href')).toBe('/mainnet/KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn/operations');
  });
});

describe('scroll to top', () => {
  it('appears after scrolling down and brings the page back up', async () => {
    renderApp('/deploy', { screens: DEPLOY_STUB });
    await screen.findByRole('heading', { name: 'Deploy' });
    expect(screen.queryByRole('button', { name: 'Scroll to top' })).toBeNull();
    Object.defineProperty(window, 'scrollY', { value: 1200, configurable: true });
    // The shell's scroll listener is attached by an effect, which React may run after the heading shows: a
    // scroll sent before it is not heard (the button then never came, in a loaded CI run). So the scroll is
    // sent again until the button shows; its chunk (MUI Fab, Zoom) loads on the first one heard.
    const button = await waitFor(() => {
      fireEvent.scroll(window);
      return screen.getByRole('button', { name: 'Scroll to top' });
    });
    scrollTo.mockClear();
    fireEvent.click(button);
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'smooth' });
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
  });
});
