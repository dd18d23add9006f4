import { useQuery } from '@tanstack/react-query';
import { fetchAlias } from '../../api/services';
import { browserStorage } from '../../shared/storage/local-storage';
import { getCachedAlias, setCachedAlias } from './alias-cache';

/**
 * The alias of an account: `known` when the API gave one, else the local cache, else the search service
 * (silently: a missing alias is not an error). Null when there is none.
 */
export function useAlias(network: string, address: string, known?: string | null): string | null {
  const enabled = !known && network !== '' && address !== '';
  const query = useQuery({
    queryKey: ['alias', network, address],
    enabled,
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
  if (known) return known;
  return query.data ? query.data : null;
}
