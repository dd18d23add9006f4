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

  it('links Networks to sandboxnet in sandbox mode, else to the first network', () => {
    const networks = ['mainnet', 'sandboxnet'];
    expect(headerNavLinks({ networks, sandbox_mode: true })).toEqual([
      { label: 'Search', to: '/search' },
      { label: 'Networks', to: '/sandboxnet' },
      { label: 'Deploy', to: '/deploy' },
    ]);
    expect(headerNavLinks({ networks, sandbox_mode: false })[1]).toEqual({
      label: 'Networks',
      to: '/mainnet',
    });
  });
});
