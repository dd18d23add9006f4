import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAlias } from '../../api/services';
import { browserStorage } from '../../shared/storage/local-storage';
import { getCachedAlias, setCachedAlias } from './alias-cache';

/** The alias query of an address ('' when there is none), shared with the contract routes' loaders. */
export function aliasQuery(network: string, address: string) {
  return queryOptions({
    queryKey: ['alias', network, address],
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
    queryFn: async ({ signal }) => {
      const storage = browserStorage();
      const cached = getCachedAlias(storage, network, address);
      if (cached !== undefined) return cached;
      const alias = await fetchAlias(network, address, { signal });
      if (alias) setCachedAlias(storage, network, address, alias);
      return alias ?? '';
    },
  });
}

/**
 * The alias of an account: `known` when the API gave one, else the local cache, else the search service
 * (silently: a missing alias is not an error). Null when there is none.
 */
export function useAlias(network: string, address: string, known?: string | null): string | null {
  const enabled = !known && network !== '' && address !== '';
  const query = useQuery({ ...aliasQuery(network, address), enabled });
  if (known) return known;
  return query.data ? query.data : null;
}
