import { describe, expect, it } from 'vitest';
import type {
  AccountSearchBody,
  BigMapKeySearchBody,
  OperationSearchBody,
  SearchItem,
  TokenSearchBody,
} from '@michelscope/api-types';
import { enterPath, historyPath, normalizeQuery, resolveEnterPath, suggestionPath } from './search-box-logic';

const KT = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const OP = 'ooz6h1jcE4qP9ZhUq9ygqXDqvcWHJbRW9wYjKr2LXGzeLFhzZsh';

const account = (body: AccountSearchBody, value = ''): SearchItem => ({ type: 'account', value, body });
const operation = (body: Pick<OperationSearchBody, 'Network' | 'Hash'>): SearchItem => ({
  type: 'operation',
  value: '',
  body: {
    Counter: 1,
    Level: 1,
    '@timestamp': '2025-11-20T10:00:00Z',
    Status: 'applied',
    Entrypoint: '',
    Destination: '',
    Type: 'transaction',
    mempool: false,
    ...body,
  },
});
const bigMapKey = (
  body: Pick<BigMapKeySearchBody, 'Network' | 'Address' | 'BigMapID' | 'KeyHash'>,
): SearchItem => ({
  type: 'bigmapkey',
  value: '',
  body: { Key: { string: 'k' }, Name: 'k', IsActive: true, '@timestamp': '2025-11-20T10:00:00Z', ...body },
});
const token = (body: TokenSearchBody): SearchItem => ({ type: 'token', value: '', body });

const ctx = {
  suggestions: [],
  sandboxMode: false,
  networks: ['mainnet', 'sandboxnet', 'ghostnet'],
};

describe('normalizeQuery', () => {
  it('trims and cuts to 255 characters', () => {
    expect(normalizeQuery('  tzBTC  ')).toBe('tzBTC');
    expect(normalizeQuery(`  ${'a'.repeat(300)}`)).toHaveLength(255);
  });
});

describe('enterPath', () => {
  it('opens a contract address on the network of the matching suggestion, the search page when none', () => {
    const suggestions = [account({ Network: 'ghostnet', Address: KT, IsContract: true }, KT)];
    expect(enterPath(` ${KT} `, { ...ctx, suggestions })).toBe(`/ghostnet/${KT}/operations`);
    // known nowhere (or on a network not configured here): not a 404 on the first network
    expect(enterPath(KT, ctx)).toBe(`/search?text=${KT}`);
    const elsewhere = [account({ Network: 'parisnet', Address: KT, IsContract: true }, KT)];
    expect(enterPath(KT, { ...ctx, suggestions: [...elsewhere, ...suggestions] })).toBe(
      `/ghostnet/${KT}/operations`,
    );
  });

  it('opens an operation hash as an operation group', () => {
    const suggestions = [operation({ Network: 'sandboxnet', Hash: OP })];
    expect(enterPath(OP, { ...ctx, suggestions })).toBe(`/sandboxnet/opg/${OP}/contents`);
    expect(enterPath(OP, ctx)).toBe(`/search?text=${OP}`);
  });

  it('asks the suggestions of an address the suggestions at hand do not place, and only then', async () => {
    const asked: string[] = [];
    const suggest = (answer: SearchItem[]) => (query: string) => {
      asked.push(query);
      return Promise.resolve(answer);
    };
    const onSandbox = [account({ Network: 'sandboxnet', Address: KT, IsContract: true }, KT)];
    expect(await resolveEnterPath(` ${KT}`, ctx, suggest(onSandbox))).toBe(`/sandboxnet/${KT}/operations`);
    expect(asked).toEqual([KT]);
    expect(await resolveEnterPath(KT, ctx, suggest([]))).toBe(`/search?text=${KT}`);
    expect(await resolveEnterPath(KT, ctx, () => Promise.reject(new Error('down')))).toBe(
      `/search?text=${KT}`,
    );
    // placed already, sandbox mode, or other text: no request
    asked.length = 0;
    expect(await resolveEnterPath(KT, { ...ctx, suggestions: onSandbox }, suggest([]))).toBe(
      `/sandboxnet/${KT}/operations`,
    );
    expect(await resolveEnterPath(OP, { ...ctx, sandboxMode: true }, suggest([]))).toBe(
      `/sandboxnet/opg/${OP}/contents`,
    );
    expect(await resolveEnterPath('hic et nunc', ctx, suggest([]))).toBe('/search?text=hic+et+nunc');
    expect(asked).toEqual([]);
  });

  it('goes to sandboxnet directly in sandbox mode', () => {
    const suggestions = [account({ Network: 'ghostnet', Address: KT }, KT)];
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
    expect(suggestionPath(account({ Network: 'mainnet', Address: KT }))).toBe(`/mainnet/${KT}/operations`);
    expect(suggestionPath(operation({ Network: 'mainnet', Hash: OP }))).toBe(`/mainnet/opg/${OP}/contents`);
    expect(
      suggestionPath(
        bigMapKey({
          Network: 'mainnet',
          Address: KT,
          BigMapID: 31,
          KeyHash: 'exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC',
        }),
      ),
    ).toBe(`/mainnet/${KT}/storage/big_map/31/exprtZBwZUeYYYfUs9B9Rg2ywHezVHnCCnmF9WsDQVrs582dSK63dC`);
    expect(suggestionPath(token({ Network: 'mainnet', Address: KT, TokenID: '152', Name: '' }))).toBe(
      `/mainnet/${KT}/tokens?search=152`,
    );
  });
  it('refuses fields that would make a foreign or broken link', () => {
    expect(suggestionPath(account({ Network: '//evil.example', Address: KT }))).toBeNull();
    expect(suggestionPath(account({ Network: 'mainnet', Address: 'javascript:alert(1)' }))).toBeNull();
  });
});

describe('historyPath', () => {
  it('follows only same-site paths', () => {
    expect(historyPath(`/mainnet/${KT}/operations`, KT)).toBe(`/mainnet/${KT}/operations`);
    expect(historyPath('//evil.example', 'x y')).toBe('/search?text=x+y');
    expect(historyPath(undefined, 'tzBTC')).toBe('/search?text=tzBTC');
  });
});
