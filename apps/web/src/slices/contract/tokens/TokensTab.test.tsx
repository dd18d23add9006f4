// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../../app/testing/render-app';
import type { MetadataGraphqlRequest, TokenMetadataRow } from '@michelscope/api-types';
import { mockFetch } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const CID = 'QmNrhZHUaEqxhyLfqoq1mtHSipkWHeT31LNHb1QEbDHgnc';

const token = (id: number, extra: Partial<TokenMetadataRow> = {}): TokenMetadataRow => ({
  network: 'mainnet',
  contract: KT,
  token_id: String(id),
  link: `ipfs://${CID}`,
  status: 3,
  retry_count: 0,
  error: '',
  metadata: { name: `Piece #${id}`, thumbnailUri: `ipfs://${CID}` },
  ...extra,
});

function routes(contract: NonNullable<Parameters<typeof contractFrame>[2]>['contract'] = {}) {
  return mockFetch(
    contractFrame('mainnet', KT, {
      contract,
      graphql: (call) => {
        const body = call.body as MetadataGraphqlRequest;
        const variables = body.variables as
          { offset?: number; name?: string; after?: string } | null | undefined;
        // the probe of the token-metadata service: it exists (else the Tokens tab is neither shown nor open)
        if (body.query.includes('TokenService')) return { data: { token_metadata: [] } };
        if (!variables) return { data: {} };
        if (body.query.includes('GetContractMetadata')) return { data: { contract_metadata: [] } };
        if (body.query.includes('FindTokenMetadata')) {
          return variables.name === '%nothing%'
            ? { data: { token_metadata: [] } }
            : {
                data: {
                  token_metadata: [
                    token(7, { status: 2, retry_count: 2, error: 'not found', metadata: null }),
                  ],
                },
              };
        }
        // a next page is read after the last token id shown (keyset), not by offset
        const offset = body.query.includes('GetTokenMetadataAfter')
          ? Number(variables.after) + 1
          : (variables.offset ?? 0);
        const n = offset === 0 ? 20 : 3;
        return { data: { token_metadata: Array.from({ length: n }, (_, i) => token(offset + i)) } };
      },
    }),
  );
}

beforeEach(() => vi.stubGlobal('scrollTo', vi.fn()));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('tokens tab', () => {
  it('lists 20 tokens, loads more, and expands a panel with link, JSON and thumbnail', async () => {
    const mock = routes();
    renderApp(`/mainnet/${KT}/tokens`);
    await screen.findByText('Piece #0');
    expect(screen.getAllByText(/^Piece #/)).toHaveLength(20);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByText(/^Piece #/)).toHaveLength(23));
    expect(screen.getByText('Piece #22')).toBeTruthy();
    const more = mock.calls
      .map((c) => c.body as MetadataGraphqlRequest)
      .find((b) => b?.query?.includes('After'));
    expect(more?.variables).toMatchObject({ after: '19' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(screen.getByText('Piece #1'));
    const json = await screen.findByLabelText('Metadata of token 1');
    expect(json.textContent).toContain('"name": "Piece #1"');
    const region = json.closest('.MuiAccordion-root') as HTMLElement;
    expect(within(region).getByRole('link', { name: 'View IPFS' }).getAttribute('href')).toBe(
      `https://ipfs.io/ipfs/${CID}`,
    );
    expect(within(region).getByRole('img', { name: 'Piece #1' }).getAttribute('src')).toBe(
      `https://ipfs.io/ipfs/${CID}`,
    );
  });

  it('searches after the debounce, mirrors it in ?search= and shows resolving errors and empty results', async () => {
    const mock = routes();
    const { router } = renderApp(`/mainnet/${KT}/tokens`);
    const box = await screen.findByPlaceholderText('Start typing token name');
    fireEvent.change(box, { target: { value: '  7 ' } });
    await waitFor(() => expect(router.state.location.search).toBe('?search=7'));
    fireEvent.click(await screen.findByText('Token 7'));
    expect(await screen.findByText(/Resolving token metadata error \(after 2 attempts\)/)).toBeTruthy();
    expect(mock.calls.some((c) => (JSON.stringify(c.body) ?? '').includes('FindTokenMetadata'))).toBe(true);

    fireEvent.change(box, { target: { value: 'nothing' } });
    expect(await screen.findByText('Nothing found')).toBeTruthy();
  });

  it('a contract whose history is being backfilled: a note by the holders’ export says those before a level may be missing', async () => {
    routes({ partial: true, indexed_from: 4321, history: { state: 'running', done: 10, total: 400 } });
    renderApp(`/mainnet/${KT}/tokens`);
    fireEvent.click(await screen.findByText('Piece #1'));
    const json = await screen.findByLabelText('Metadata of token 1');
    const region = json.closest('.MuiAccordion-root') as HTMLElement;
    // an accessible note (a status) by the holders' export, as the contract page's
    const note = within(region)
      .getAllByRole('status')
      .find((e) => e.textContent?.includes('History before level 4,321 is not indexed yet'));
    expect(note?.textContent).toContain('holders are read from the keys of the contract’s ledger');
    expect(within(region).getByRole('button', { name: /holders of token 1/i })).toBeTruthy();
  });

  it('a contract indexed whole: no note by the holders', async () => {
    routes();
    renderApp(`/mainnet/${KT}/tokens`);
    fireEvent.click(await screen.findByText('Piece #1'));
    const json = await screen.findByLabelText('Metadata of token 1');
    const region = json.closest('.MuiAccordion-root') as HTMLElement;
    expect(within(region).queryByText(/History before level/)).toBeNull();
  });
});
