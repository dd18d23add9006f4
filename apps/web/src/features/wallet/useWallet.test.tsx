// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { NotificationsProvider } from '../notifications/NotificationsProvider';
import { useWallet, type WalletSession } from './useWallet';
import { WalletMenu } from './WalletMenu';
import { getWallet, setWallet } from './wallet-store';
import { WalletAbortedError, type ConnectedWallet } from './wallet-ops';

const GHOSTNET_WALLET: ConnectedWallet = {
  kind: 'beacon',
  network: 'ghostnet',
  address: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
  label: 'octez.connect',
  send: vi.fn(),
  originate: vi.fn(),
  disconnect: vi.fn(() => Promise.resolve()),
};

let session: WalletSession;
function Page({ network }: { network: string }) {
  session = useWallet(network);
  return (
    <>
      <WalletMenu session={session} />
      {session.dialogs}
    </>
  );
}
const renderPage = (network: string) =>
  render(
    <NotificationsProvider>
      <Page network={network} />
    </NotificationsProvider>,
  );

afterEach(() => {
  cleanup();
  act(() => setWallet(null));
});

describe('wallet session', () => {
  it("warns when the wallet's network differs: 'Continue anyway' signs with it", async () => {
    act(() => setWallet(GHOSTNET_WALLET));
    renderPage('mainnet');
    let wallet: Promise<ConnectedWallet> | undefined;
    act(() => {
      wallet = session.requestWallet();
    });
    const dialog = await screen.findByRole('dialog', { name: 'Wrong network' });
    expect(
      within(dialog).getByText('The networks of the active wallet and the current contract do not match.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue anyway' }));
    await expect(wallet).resolves.toBe(GHOSTNET_WALLET);
  });

  it("'Change wallet' opens the wallet choice; closing aborts silently", async () => {
    act(() => setWallet(GHOSTNET_WALLET));
    renderPage('mainnet');
    let wallet: Promise<ConnectedWallet> | undefined;
    act(() => {
      wallet = session.requestWallet();
    });
    const warning = await screen.findByRole('dialog', { name: 'Wrong network' });
    fireEvent.click(within(warning).getByRole('button', { name: 'Change wallet' }));
    const connect = await screen.findByRole('dialog', { name: 'Connect a wallet' });
    expect(within(connect).getByRole('button', { name: 'Connect with octez.connect' })).toBeTruthy();
    fireEvent.click(within(connect).getByRole('button', { name: 'Cancel' }));
    await expect(wallet).rejects.toBeInstanceOf(WalletAbortedError);
  });

  it('offers copy address, change wallet and log out in the menu', async () => {
    act(() => setWallet(GHOSTNET_WALLET));
    renderPage('ghostnet');
    fireEvent.click(screen.getByRole('button', { name: `Wallet ${GHOSTNET_WALLET.address}` }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Copy address', 'Change wallet', 'Log out']);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    expect(getWallet()).toBeNull();
    expect(GHOSTNET_WALLET.disconnect).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: /^Wallet / })).toBeNull();
  });
});
