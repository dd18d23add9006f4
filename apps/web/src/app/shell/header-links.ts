import { networkPath } from '../router/route-guards';

export interface NavLink {
  label: string;
  to: string;
}

/** The header's navigation: Search, Networks (the page of the network to open, see chosen-network) and Deploy. */
export function headerNavLinks(network: string | null): NavLink[] {
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
