/** The connected wallet, shared by every page of the tab (one per browser tab, not persisted). */
import { useSyncExternalStore } from 'react';
import type { ConnectedWallet } from './wallet-ops';

let current: ConnectedWallet | null = null;
const listeners = new Set<() => void>();

export function getWallet(): ConnectedWallet | null {
  return current;
}

export function setWallet(wallet: ConnectedWallet | null): void {
  current = wallet;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnectedWallet(): ConnectedWallet | null {
  return useSyncExternalStore(subscribe, getWallet, getWallet);
}
