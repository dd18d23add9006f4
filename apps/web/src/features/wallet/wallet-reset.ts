/**
 * "The wallet connection is reset when the form opens" (workspace spec, Forms and fill types). The reference
 * form (Schema.vue `created()` → `resetBeaconActiveAccount()`) blanks the wallet SDK's active account and
 * peer, so the first wallet action of a newly opened form connects afresh. Here: the connected wallet of the
 * tab is dropped, and octez.connect's active account is forgotten, in its client and in its storage.
 */
import { useEffect } from 'react';
import { disconnectOctezConnect } from './octez-connect';
import { setWallet } from './wallet-store';

/** The wallet SDK's storage keys of the active account (octez.connect keeps Beacon's names). */
export const ACTIVE_ACCOUNT_KEYS = ['beacon:active-peer', 'beacon:active-account'] as const;

export function resetWalletConnection(
  storage: Pick<Storage, 'removeItem'> | undefined = safeLocalStorage(),
): void {
  for (const key of ACTIVE_ACCOUNT_KEYS) {
    try {
      storage?.removeItem(key);
    } catch {
      // storage disabled: nothing kept there
    }
  }
  void disconnectOctezConnect().catch(() => undefined);
  setWallet(null);
}

function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** Resets the wallet connection once, when the calling form opens (mounts). */
export function useWalletResetOnOpen(): void {
  useEffect(() => {
    resetWalletConnection();
  }, []);
}
