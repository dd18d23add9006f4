/**
 * Query-option factories shared by route loaders and components (`useQuery(headQuery())`,
 * `queryClient.ensureQueryData(configQuery())`).
 */
import { queryOptions } from '@tanstack/react-query';
import {
  fetchBigMap,
  fetchConfig,
  fetchConstantContracts,
  fetchGlobalConstant,
  fetchGlobalConstants,
  fetchHeads,
  fetchNetworkConstants,
  fetchNetworkStates,
  fetchRecentlyCalled,
  noRpcEndpoint,
} from './resources';

/** Network sync state is polled every 30 s (discovery spec §4). */
export const HEAD_POLL_MS = 30_000;

export const queryKeys = {
  config: ['config'] as const,
  head: ['head'] as const,
  bigMap: (network: string, ptr: string) => ['bigmap', network, ptr] as const,
};

export function configQuery() {
  return queryOptions({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => fetchConfig({ signal }),
    staleTime: Infinity,
  });
}

export function headQuery() {
  return queryOptions({
    queryKey: queryKeys.head,
    queryFn: ({ signal }) => fetchHeads({ signal }),
    refetchInterval: HEAD_POLL_MS,
    // An unreachable network is normal (offline testnets): never show its failure to the user.
    meta: { silent: true },
  });
}

export function bigMapQuery(network: string, ptr: string) {
  return queryOptions({
    queryKey: queryKeys.bigMap(network, ptr),
    queryFn: ({ signal }) => fetchBigMap(network, ptr, { signal }),
    staleTime: 30_000,
  });
}

export function recentlyCalledQuery(network: string, size: number, offset: number) {
  return queryOptions({
    queryKey: ['recently_called', network, size, offset] as const,
    queryFn: ({ signal }) => fetchRecentlyCalled(network, { size, offset }, { signal }),
    staleTime: 10_000,
  });
}

export function networkStatesQuery() {
  return queryOptions({
    queryKey: ['stats'] as const,
    queryFn: ({ signal }) => fetchNetworkStates({ signal }),
    staleTime: 30_000,
  });
}

export function globalConstantsQuery(network: string, size: number, offset: number) {
  return queryOptions({
    queryKey: ['global_constants', network, size, offset] as const,
    queryFn: ({ signal }) => fetchGlobalConstants(network, { size, offset }, { signal }),
  });
}

export function globalConstantQuery(network: string, address: string) {
  return queryOptions({
    queryKey: ['global_constant', network, address] as const,
    queryFn: ({ signal }) => fetchGlobalConstant(network, address, { signal }),
    staleTime: Infinity,
  });
}

export function constantContractsQuery(network: string, address: string, size: number, offset: number) {
  return queryOptions({
    queryKey: ['global_constant_contracts', network, address, size, offset] as const,
    queryFn: ({ signal }) => fetchConstantContracts(network, address, { size, offset }, { signal }),
  });
}

/** `hasRpc`: the configuration lists an RPC endpoint for the network (else the spec's error, no request). */
export function networkConstantsQuery(network: string, hasRpc = true) {
  return queryOptions({
    queryKey: ['network_constants', network] as const,
    queryFn: ({ signal }) =>
      hasRpc ? fetchNetworkConstants(network, { signal }) : Promise.reject(noRpcEndpoint(network)),
    retry: false,
    staleTime: 60_000,
  });
}
