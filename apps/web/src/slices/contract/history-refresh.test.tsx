// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { readsAddress, useHistoryRefresh } from './useContractPage';

afterEach(cleanup);

const NET = 'remotenet';
const FA = 'KT1Jf9Yknp3i8R6W6xZXVnGNfGRewVL3mhEW';
const OTHER = 'KT196WN9WoVRixARXHADfHWfaCGyruaW3CXA';

describe('a contract page while its history is backfilled (issue 32)', () => {
  it('reads its operations, counts and big maps again as levels are read and once done; not the others', () => {
    const client = new QueryClient();
    const keys = {
      opg: ['opgList', { network: NET, address: FA }],
      account: ['account', { network: NET, address: FA }],
      keys: ['bigMapKeys', { network: NET, ptr: 3 }],
      other: ['opgList', { network: NET, address: OTHER }],
      otherNet: ['opgList', { network: 'sandboxnet', address: FA }],
      contract: ['contract', { network: NET, address: FA }],
    } as const;
    for (const key of Object.values(keys)) client.setQueryData(key, []);
    const stale = () =>
      Object.fromEntries(
        Object.entries(keys).map(([name, key]) => [name, client.getQueryState(key)?.isInvalidated]),
      );
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { rerender } = renderHook(
      ({ history }: { history: { state: string; done: number } }) =>
        useHistoryRefresh(NET, FA, { partial: true, history }),
      { wrapper, initialProps: { history: { state: 'running', done: 10 } } },
    );
    // the first answer: nothing read before it
    expect(stale()).toMatchObject({ opg: false, account: false, keys: false });
    rerender({ history: { state: 'running', done: 10 } });
    expect(stale().opg).toBe(false);
    rerender({ history: { state: 'running', done: 78 } });
    expect(stale()).toEqual({
      opg: true,
      account: true,
      keys: true,
      other: false,
      otherNet: false,
      contract: false,
    });
  });

  it('reads them again when the contract is no longer partial, though no progress was ever given (a short history backfilled between two reads); not when the page moves to another contract', () => {
    const client = new QueryClient();
    const opg = ['opgList', { network: NET, address: FA }] as const;
    const otherOpg = ['opgList', { network: NET, address: OTHER }] as const;
    client.setQueryData(opg, []);
    client.setQueryData(otherOpg, []);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    type C = { partial?: boolean; history?: { state: string; done: number } } | undefined;
    const { rerender } = renderHook(
      ({ address, contract }: { address: string; contract: C }) => useHistoryRefresh(NET, address, contract),
      { wrapper, initialProps: { address: FA, contract: undefined as C } },
    );
    rerender({ address: FA, contract: { partial: true } });
    rerender({ address: FA, contract: { partial: true } });
    expect(client.getQueryState(opg)?.isInvalidated).toBe(false);
    // the next read: the backfill ran and ended in between
    rerender({ address: FA, contract: { partial: false } });
    expect(client.getQueryState(opg)?.isInvalidated).toBe(true);
    // another contract, complete from its first answer: nothing of it is read again
    rerender({ address: OTHER, contract: undefined });
    rerender({ address: OTHER, contract: { partial: false } });
    expect(client.getQueryState(otherOpg)?.isInvalidated).toBe(false);
  });

  it('readsAddress: the queries of the address on the network, and the network’s big maps', () => {
    expect(readsAddress({ queryKey: ['storageHistory', { network: NET, address: FA }] }, NET, FA)).toBe(true);
    expect(readsAddress({ queryKey: ['bigMapCount', { network: NET, ptr: 1 }] }, NET, FA)).toBe(true);
    expect(readsAddress({ queryKey: ['contract', { network: NET, address: FA }] }, NET, FA)).toBe(false);
    expect(readsAddress({ queryKey: ['head'] }, NET, FA)).toBe(false);
    // keyed by position: the contract's TZIP-16 metadata and its alias (its name in the title)
    expect(readsAddress({ queryKey: ['contract_metadata', NET, FA] }, NET, FA)).toBe(true);
    expect(readsAddress({ queryKey: ['alias', NET, FA] }, NET, FA)).toBe(true);
    expect(readsAddress({ queryKey: ['alias', NET, OTHER] }, NET, FA)).toBe(false);
    expect(readsAddress({ queryKey: ['alias', 'sandboxnet', FA] }, NET, FA)).toBe(false);
  });
});
