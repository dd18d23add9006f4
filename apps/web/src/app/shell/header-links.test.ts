import { describe, expect, it } from 'vitest';
import { headerNavLinks, showsHeaderSearch } from './header-links';

describe('header', () => {
  it('has its own search box everywhere but on home and the search page', () => {
    expect(showsHeaderSearch('/')).toBe(false);
    expect(showsHeaderSearch('/search')).toBe(false);
    expect(showsHeaderSearch('/mainnet/recently_called')).toBe(true);
    expect(
      showsHeaderSearch('/constant/mainnet/exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC'),
    ).toBe(true);
    expect(showsHeaderSearch('/not_found')).toBe(true);
  });

  it('links Networks to the network to open, and leaves it out when none is configured', () => {
    expect(headerNavLinks('sandboxnet')).toEqual([
      { label: 'Search', to: '/search' },
      { label: 'Networks', to: '/sandboxnet' },
      { label: 'Deploy', to: '/deploy' },
    ]);
    expect(headerNavLinks(null).map((l) => l.label)).toEqual(['Search', 'Deploy']);
  });
});
