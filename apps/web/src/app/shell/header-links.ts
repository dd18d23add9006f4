import type { ConfigResponse } from '../../api/types';
import { networkPath } from '../router/route-guards';
import { defaultNetwork } from '../../shared/config/network-defaults';

export interface NavLink {
  label: string;
  to: string;
}

/** The header's navigation: Search, Networks (the default network's page) and Deploy. */
export function headerNavLinks(config: Pick<ConfigResponse, 'networks' | 'sandbox_mode'>): NavLink[] {
  const network = defaultNetwork(config);
  return [
    { label: 'Search', to: '/search' },
    ...(network === null ? [] : [{ label: 'Networks', to: networkPath(network) }]),
    { label: 'Deploy', to: '/deploy' },
  ];
}

/** Home and the search page have their own search box; every other page has one in the header. */
export function showsHeaderSearch(pathname: string): boolean {
  return pathname !== '/' && pathname !== '/search';
}
