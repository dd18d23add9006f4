/** Account and smart-rollup endpoints with their query factories. */
import { queryOptions } from '@tanstack/react-query';
import { getJson, type RequestOptions } from './client';
import { parseAccountInfo, parseSmartRollup } from './contract-parse';
import type { AccountInfo, SmartRollup } from './contract-types';

const enc = encodeURIComponent;

export function fetchAccountInfo(
  network: string,
  address: string,
  options?: RequestOptions,
): Promise<AccountInfo> {
  return getJson(`/account/${enc(network)}/${enc(address)}`, options).then(parseAccountInfo);
}

export function fetchSmartRollup(
  network: string,
  address: string,
  options?: RequestOptions,
): Promise<SmartRollup> {
  return getJson(`/smart_rollups/${enc(network)}/${enc(address)}`, options).then(parseSmartRollup);
}

export function accountInfoQuery(network: string, address: string) {
  return queryOptions({
    queryKey: ['account', network, address] as const,
    queryFn: ({ signal }) => fetchAccountInfo(network, address, { signal }),
    staleTime: 10_000,
  });
}

export function smartRollupQuery(network: string, address: string) {
  return queryOptions({
    queryKey: ['smart_rollup', network, address] as const,
    queryFn: ({ signal }) => fetchSmartRollup(network, address, { signal }),
    staleTime: 60_000,
  });
}
