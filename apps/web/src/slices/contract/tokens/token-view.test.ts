import { describe, expect, it } from 'vitest';
import { normaliseTokenSearch, tokenState, tokenThumbnail, tokenTitle } from './token-view';

describe('token view helpers', () => {
  it('trims and cuts the search to 255 characters', () => {
    expect(normaliseTokenSearch('  tez  ')).toBe('tez');
    expect(normaliseTokenSearch('x'.repeat(300))).toHaveLength(255);
    expect(normaliseTokenSearch('   ')).toBe('');
  });

  it('titles a token by name, symbol or id', () => {
    expect(tokenTitle({ name: 'Kolibri', symbol: 'kUSD' }, '0')).toBe('Kolibri');
    expect(tokenTitle({ symbol: 'kUSD' }, '0')).toBe('kUSD');
    expect(tokenTitle({ name: 42 }, '7')).toBe('Token 7');
    expect(tokenTitle(null, '7')).toBe('Token 7');
  });

  it('picks the thumbnail, then the display and artifact URIs', () => {
    expect(tokenThumbnail({ artifactUri: 'ipfs://a', displayUri: 'ipfs://d' })).toBe('ipfs://d');
    expect(tokenThumbnail({ thumbnailUri: 'ipfs://t', displayUri: 'ipfs://d' })).toBe('ipfs://t');
    expect(tokenThumbnail({})).toBeNull();
  });

  it('maps statuses: 1 in progress, 2 error, else applied', () => {
    expect([tokenState(1), tokenState(2), tokenState(3), tokenState(0)]).toEqual([
      'pending',
      'error',
      'applied',
      'applied',
    ]);
  });
});
