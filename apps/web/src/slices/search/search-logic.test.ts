import { describe, expect, it } from 'vitest';
import type { OperationSearchBody, SearchResponse } from '@michelscope/api-types';
import type { ItemOf } from '../../api/search-items';
import {
  EMPTY_TOKEN_FILTERS,
  canApplyFilters,
  isComplete,
  operationStatus,
  requestFilters,
  totalLabel,
} from './search-logic';

const item = (body: Partial<OperationSearchBody> = {}): ItemOf<'operation'> => ({
  type: 'operation',
  value: 'o',
  body: {
    Network: 'mainnet',
    Hash: 'o',
    Counter: 1,
    Level: 1,
    '@timestamp': '2025-11-20T10:00:00Z',
    Status: '',
    Entrypoint: '',
    Destination: '',
    Type: 'transaction',
    mempool: false,
    ...body,
  },
});
const page = (n: number, total: number, body: Partial<OperationSearchBody> = {}): SearchResponse => ({
  items: Array.from({ length: n }, () => item(body)),
  total,
  took: 1,
});

describe('isComplete', () => {
  it('is complete after a short page, not after a full one', () => {
    expect(isComplete(page(10, 35), 10)).toBe(false);
    expect(isComplete(page(5, 35), 35)).toBe(true);
    expect(isComplete(page(0, 0), 0)).toBe(true);
  });
  it('is complete with a single mempool item', () => {
    const single = { items: [item({ mempool: true })], total: 1, took: 1 };
    expect(isComplete(single, 1)).toBe(true);
  });
});

describe('totalLabel', () => {
  it("shows 'more than 10000' at the cap", () => {
    expect(totalLabel(10000)).toBe('more than 10000');
    expect(totalLabel(9999)).toBe('9999');
  });
});

describe('requestFilters', () => {
  it('sends search filters with the tab index and the networks', () => {
    expect(requestFilters('big_maps', ['mainnet'], EMPTY_TOKEN_FILTERS)).toEqual({
      search: {
        tags: [],
        creators: [],
        minters: [],
        mime_types: [],
        network: ['mainnet'],
        index: ['big-maps'],
      },
    });
    expect(requestFilters('everywhere', ['mainnet', 'ghostnet'], EMPTY_TOKEN_FILTERS)).toMatchObject({
      search: { index: ['accounts', 'operations', 'big-maps', 'tokens'] },
    });
  });
  it('sends token filters under `tokens` once one is set', () => {
    expect(requestFilters('tokens', ['mainnet'], { ...EMPTY_TOKEN_FILTERS, tags: ['art'] })).toEqual({
      tokens: {
        tags: ['art'],
        creators: [],
        minters: [],
        mime_types: [],
        network: ['mainnet'],
        index: ['tokens'],
      },
    });
  });
});

describe('canApplyFilters', () => {
  const art = { ...EMPTY_TOKEN_FILTERS, tags: ['art'] };
  it('is disabled until the filters change', () => {
    expect(canApplyFilters(EMPTY_TOKEN_FILTERS, EMPTY_TOKEN_FILTERS, 'hic')).toBe(false);
    expect(canApplyFilters(art, EMPTY_TOKEN_FILTERS, '')).toBe(true);
    expect(canApplyFilters(art, art, 'hic')).toBe(false);
  });
  it('is disabled again when filters and search are both empty', () => {
    expect(canApplyFilters(EMPTY_TOKEN_FILTERS, art, '')).toBe(false);
    expect(canApplyFilters(EMPTY_TOKEN_FILTERS, art, 'hic')).toBe(true);
  });
});

describe('operationStatus', () => {
  it('shows applied, mempool or failed', () => {
    expect(operationStatus(item({ Status: 'applied' }))).toBe('applied');
    expect(operationStatus(item({ Status: '', mempool: true }))).toBe('mempool');
    expect(operationStatus(item({ Status: 'failed' }))).toBe('failed');
  });

  it('shows other results as failed, and a pending mempool operation as mempool', () => {
    for (const status of ['backtracked', 'skipped', 'refused', 'branch_refused', 'lost'])
      expect(operationStatus(item({ Status: status }))).toBe('failed');
    expect(operationStatus(item({ Status: 'pending', mempool: true }))).toBe('mempool');
    expect(operationStatus(item({ Status: 'applied', mempool: true }))).toBe('applied');
    expect(operationStatus(item({ Status: '' }))).toBe('applied');
  });
});
