import { describe, expect, it } from 'vitest';
import type { SearchItem } from '../../api/search-types';
import { parseSearchBody } from '../../api/search-parse';
import { enterPath, historyPath, normalizeQuery, suggestionPath } from './search-box-logic';

const KT = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const OP = 'ooz6h1jcE4qP9ZhUq9ygqXDqvcWHJbRW9wYjKr2LXGzeLFhzZsh';

const item = (type: SearchItem['type'], body: Record<string, unknown>, value = ''): SearchItem => ({
  type,
  value,
  body: parseSearchBody(body),
  highlights: {},
  found_by: '',
});

const ctx = {
  suggestions: [],
  sandboxMode: false,
  networks: ['mainnet', 'sandboxnet', 'ghostnet'],
  defaultNetwork: 'mainnet',
};

describe('normalizeQuery', () => {
  it('trims and cuts to 255 characters', () => {
    expect(normalizeQuery('  tzBTC  ')).toBe('tzBTC');
    expect(normalizeQuery(`  ${'a'.repeat(300)}`)).toHaveLength(255);
  });
});

describe('enterPath', () => {
  it('opens a contract address on the network of the matching suggestion', () => {
    const suggestions = [item('account', { Network: 'ghostnet', Address: KT, IsContract: true }, KT)];
    expect(enterPath(` ${KT} `, { ...ctx, suggestions })).toBe(`/ghostnet/${KT}/operations`);
    expect(enterPath(KT, ctx)).toBe(`/mainnet/${KT}/operations`);
  });

  it('opens an operation hash as an operation group', () => {
    expect(enterPath(OP, ctx)).toBe(`/mainnet/opg/${OP}/contents`);
  });

  it('goes to sandboxnet directly in sandbox mode', () => {
    const suggestions = [item('account', { Network: 'ghostnet', Address: KT }, KT)];
    expect(enterPath(KT, { ...ctx, suggestions, sandboxMode: true })).toBe(`/sandboxnet/${KT}/operations`);
    expect(enterPath(OP, { ...ctx, sandboxMode: true })).toBe(`/sandboxnet/opg/${OP}/contents`);
  });

  it('opens the search page for other text longer than 2 characters, and nothing otherwise', () => {
    expect(enterPath('tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb', ctx)).toBe(
      '/search?text=tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb',
    );
    expect(enterPath('hic et nunc', ctx)).toBe('/search?text=hic+et+nunc');
    expect(enterPath('  ab ', ctx)).toBeNull();
  });
});

describe('suggestionPath', () => {
  it('links each kind of result to its page', () => {
    expect(suggestionPath(item('account', { Network: 'mainnet', Address: KT }))).toBe(
      `/mainnet/${KT}/operations`,
    );
    expect(suggestionPath(item('operation', { Network: 'mainnet', Hash: OP }))).toBe(
      `/mainnet/opg/${OP}/contents`,
    );
    expect(
      suggestionPath(
        item('bigmapkey', {
          Network: 'mainnet',
          Address: KT,
          BigMapID: 31,
          KeyHash: 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC',
        }),
      ),
    ).toBe(`/mainnet/${KT}/storage/big_map/31/exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC`);
    expect(suggestionPath(item('token', { Network: 'mainnet', Address: KT, TokenID: 152 }))).toBe(
      `/mainnet/${KT}/tokens?search=152`,
    );
  });
  it('refuses fields that would make a foreign or broken link', () => {
    expect(suggestionPath(item('account', { Network: '//evil.example', Address: KT }))).toBeNull();
    expect(
      suggestionPath(item('account', { Network: 'mainnet', Address: 'javascript:alert(1)' })),
    ).toBeNull();
  });
});

describe('historyPath', () => {
  it('follows only same-site paths', () => {
    expect(historyPath(`/mainnet/${KT}/operations`, KT)).toBe(`/mainnet/${KT}/operations`);
    expect(historyPath('//evil.example', 'x y')).toBe('/search?text=x+y');
    expect(historyPath(undefined, 'tzBTC')).toBe('/search?text=tzBTC');
  });
});
