import { useCallback, useRef, useState, type ReactNode } from 'react';
import { ConnectWalletDialog } from './ConnectWalletDialog';
import { WrongNetworkDialog } from './WrongNetworkDialog';
import { setWallet, useConnectedWallet } from './wallet-store';
import { WalletAbortedError, type ConnectedWallet } from './wallet-ops';

interface Pending {
  resolve: (w: ConnectedWallet) => void;
  reject: (e: Error) => void;
}

export interface WalletSession {
  wallet: ConnectedWallet | null;
  /** The wallet to sign with for `network`: connects first, asks on a network mismatch. Rejects with
   * WalletAbortedError when the user closes a dialog. */
  requestWallet: () => Promise<ConnectedWallet>;
  /** Opens the connect dialog (the menu's "Change wallet"). */
  changeWallet: () => void;
  logout: () => void;
  /** The dialogs: render them once in the page. */
  dialogs: ReactNode;
}

/** Wallet connection for the pages that sign (interact, deploy, fork) on `network`. */
export function useWallet(network: string): WalletSession {
  const wallet = useConnectedWallet();
  const [dialog, setDialog] = useState<'connect' | 'change' | 'wrong' | null>(null);
  const pending = useRef<Pending | null>(null);

  const settle = (w: ConnectedWallet | Error) => {
    const p = pending.current;
    pending.current = null;
    setDialog(null);
    if (!p) return;
    if (w instanceof Error) p.reject(w);
    else p.resolve(w);
  };

  const requestWallet = useCallback((): Promise<ConnectedWallet> => {
    if (wallet && wallet.network === network) return Promise.resolve(wallet);
    pending.current?.reject(new WalletAbortedError('superseded'));
    return new Promise<ConnectedWallet>((resolve, reject) => {
      pending.current = { resolve, reject };
      setDialog(wallet ? 'wrong' : 'connect');
    });
  }, [wallet, network]);

  const dialogs = (
    <>
      <ConnectWalletDialog
        open={dialog === 'connect' || dialog === 'change'}
        fresh={dialog === 'change'}
        network={network}
        onConnected={(w) => {
          setWallet(w);
          settle(w);
        }}
        onClose={() => settle(new WalletAbortedError('closed'))}
      />
      <WrongNetworkDialog
        open={dialog === 'wrong'}
        onContinue={() => (wallet ? settle(wallet) : settle(new WalletAbortedError('no wallet')))}
        onChangeWallet={() => setDialog('change')}
        onClose={() => settle(new WalletAbortedError('closed'))}
      />
    </>
  );

  return {
    wallet,
    requestWallet,
    changeWallet: () => setDialog('change'),
    logout: () => {
      void wallet?.disconnect?.();
      setWallet(null);
    },
    dialogs,
  };
}
