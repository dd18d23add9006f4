// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import type { ContractMetadataRow } from '@michelscope/api-types';
import { mockFetch } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';

/** The contract page with one metadata row (the fields the tab asks for; no error unless given). */
function routes(row: Omit<ContractMetadataRow, 'network' | 'contract' | 'error'> & { error?: string }) {
  return mockFetch(
    contractFrame('mainnet', KT, { metadata: [{ network: 'mainnet', contract: KT, error: null, ...row }] }),
  );
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('metadata tab', () => {
  it('shows the TZIP-16 fields, off-chain views, the JSON and the storage link of the source', async () => {
    routes({
      status: 3,
      link: `tezos-storage://${KT}/contents`,
      retry_count: 0,
      metadata: {
        name: 'OBJKTs',
        interfaces: ['TZIP-012'],
        views: [
          { name: 'get_balance', description: 'Balance', implementations: [{ michelsonStorageView: {} }] },
        ],
      },
    });
    renderApp(`/mainnet/${KT}/metadata`);
    const fields = await screen.findByRole('region', { name: 'Metadata' });
    expect(within(fields).getByText('OBJKTs')).toBeTruthy();
    expect(within(fields).getByRole('link', { name: 'View Storage' }).getAttribute('href')).toBe(
      `/mainnet/${KT}/storage`,
    );
    const views = screen.getByRole('table', { name: 'Off-chain views' });
    expect(within(views).getByText('get_balance')).toBeTruthy();
    expect(within(views).getByText('Michelson storage view')).toBeTruthy();
    expect(screen.getByLabelText('Metadata JSON').textContent).toContain('"name": "OBJKTs"');
    expect(screen.queryByText(/Resolving metadata error/)).toBeNull();
    // The tab is visible because metadata was loaded.
    expect(screen.getByRole('tab', { name: 'Metadata' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Raw JSON' }));
    expect((await screen.findByTestId('raw-json')).textContent).toContain('tezos-storage://');
  });

  it('shows the resolving error with the number of attempts', async () => {
    routes({
      status: 2,
      link: 'ipfs://QmNrhZHUaEqxhyLfqoq1mtHSipkWHeT31LNHb1QEbDHgnc',
      error: 'timeout',
      retry_count: 3,
      metadata: null,
    });
    renderApp(`/mainnet/${KT}/metadata`);
    expect(await screen.findByText('Resolving metadata error (after 3 attempts)')).toBeTruthy();
    expect(screen.getByText('timeout')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View IPFS' }).getAttribute('href')).toBe(
      'https://ipfs.io/ipfs/QmNrhZHUaEqxhyLfqoq1mtHSipkWHeT31LNHb1QEbDHgnc',
    );
  });
});
