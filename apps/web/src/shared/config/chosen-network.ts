/**
 * The network home and the header's Networks link open on: the one the user chose last (kept in local
 * storage), else the default network when it is synced, else the first synced network (an embedded config
 * lists mainnet first, which is often unreachable offline: its table would be empty).
 */
import { useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { headQuery } from '../../api/queries';
import type { ConfigResponse, Head } from '@michelscope/api-types';
import { browserStorage, type KeyValueStorage } from '../storage/local-storage';
import { defaultNetwork } from './network-defaults';

export const CHOSEN_NETWORK_KEY = 'michelscope:network';

type NetworksConfig = Pick<ConfigResponse, 'networks' | 'sandbox_mode'>;

/** How far a network is indexed: 2 synced, 1 behind but with blocks, 0 nothing (unreachable, not started). */
function rank(heads: readonly Head[], network: string): number {
  const head = heads.find((h) => h.network === network);
  if (!head) return 0;
  return head.synced ? 2 : head.level > 0 ? 1 : 0;
}

/**
 * The network to open: `chosen` when it is configured; else, with the heads known, the default network if no
 * other one is further indexed, else the first configured network that is furthest indexed (synced before
 * merely indexed); with the heads unknown (not answered yet or failed) the default network. null: none is
 * configured.
 */
export function startNetwork(
  config: NetworksConfig,
  heads: readonly Head[] | undefined,
  chosen: string | null,
): string | null {
  if (chosen !== null && config.networks.includes(chosen)) return chosen;
  const fallback = defaultNetwork(config);
  if (heads === undefined || fallback === null) return fallback;
  const best = Math.max(...config.networks.map((n) => rank(heads, n)));
  if (rank(heads, fallback) === best) return fallback;
  return config.networks.find((n) => rank(heads, n) === best) ?? fallback;
}

export function readChosenNetwork(storage: KeyValueStorage | null): string | null {
  try {
    const value = storage?.getItem(CHOSEN_NETWORK_KEY) ?? null;
    return value !== null && /^[a-z0-9_-]{1,64}$/i.test(value) ? value : null;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let version = 0;

/** The choice of this page when local storage cannot keep it. */
let memory: string | null = null;

/** Remembers the user's network choice (home toggle, the network page's list) and tells every reader. */
export function chooseNetwork(network: string, storage: KeyValueStorage | null = browserStorage()): void {
  memory = null;
  try {
    if (!storage) throw new Error('no local storage');
    storage.setItem(CHOSEN_NETWORK_KEY, network);
  } catch {
    // disabled storage: the choice holds for this page only
    memory = network;
  }
  version++;
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const getVersion = () => version;

/**
 * The network to open and whether it is settled: `pending` while /v1/head has not answered and the user has
 * chosen nothing (then `network` is the default one, which may still change).
 */
export function useStartNetwork(config: NetworksConfig): { network: string | null; pending: boolean } {
  useSyncExternalStore(subscribe, getVersion, getVersion);
  const chosen = readChosenNetwork(browserStorage()) ?? memory;
  // The header shares the home page's head poll without polling on every page itself.
  const heads = useQuery({ ...headQuery(), refetchInterval: false, staleTime: 30_000 });
  const settled = heads.data !== undefined || heads.isError;
  const known = chosen !== null && config.networks.includes(chosen);
  return { network: startNetwork(config, heads.data, chosen), pending: !known && !settled };
}
