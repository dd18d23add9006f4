// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { getWallet, setWallet } from './wallet-store';
import { resetWalletConnection, useWalletResetOnOpen } from './wallet-reset';
import type { ConnectedWallet } from './wallet-ops';

const WALLET: ConnectedWallet = {
  kind: 'sandbox',
  network: 'sandboxnet',
  address: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
  label: 'bootstrap1',
  send: vi.fn(),
  originate: vi.fn(),
};

function Form() {
  useWalletResetOnOpen();
  return <p>form</p>;
}

afterEach(() => {
  cleanup();
  act(() => setWallet(null));
  localStorage.clear();
});

describe('wallet connection reset when a form opens', () => {
  it('forgets the connected wallet and the SDK active account, and keeps the known accounts', () => {
    setWallet(WALLET);
    localStorage.setItem('beacon:active-account', 'acc-1');
    localStorage.setItem('beacon:active-peer', 'peer-1');
    localStorage.setItem('beacon:accounts', '[{"accountIdentifier":"acc-1"}]');
    render(<Form />);
    expect(getWallet()).toBeNull();
    expect(localStorage.getItem('beacon:active-account')).toBeNull();
    expect(localStorage.getItem('beacon:active-peer')).toBeNull();
    // the last used wallet stays known, as in the reference
    expect(localStorage.getItem('beacon:accounts')).toBe('[{"accountIdentifier":"acc-1"}]');
  });

  it('resets once per opening: a wallet connected while the form is open stays', () => {
    const view = render(<Form />);
    act(() => setWallet(WALLET));
    view.rerender(<Form />);
    expect(getWallet()).toBe(WALLET);
    view.unmount();
    render(<Form />);
    expect(getWallet()).toBeNull();
  });

  it('works without a usable storage', () => {
    setWallet(WALLET);
    resetWalletConnection({
      removeItem: () => {
        throw new Error('denied');
      },
    });
    expect(getWallet()).toBeNull();
  });
});
