/** Account and smart-rollup queries, built on the resource registry. */
import { queryOptions } from '@tanstack/react-query';
import { resourceQuery } from './resources';

export const accountInfoQuery = (network: string, address: string) =>
  queryOptions({ ...resourceQuery('account', { network, address }), staleTime: 10_000 });

export const smartRollupQuery = (network: string, address: string) =>
  queryOptions({ ...resourceQuery('smartRollup', { network, address }), staleTime: 60_000 });
