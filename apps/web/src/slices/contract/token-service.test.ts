import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, resourceRoute, type Payload } from '../../app/testing/mock-fetch';
import { explorerLink } from './ContractFrame';
import { tokenServiceQuery } from './token-service';

describe('token-metadata service probe', () => {
  afterEach(() => vi.unstubAllGlobals());
  const probe = async (answer: Payload<'metadataGraphql'>) => {
    const { calls } = mockFetch([resourceRoute('metadataGraphql', answer)]);
    const exists = await new QueryClient().fetchQuery(tokenServiceQuery());
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /metadata/v1/graphql']);
    expect(calls[0]?.body).toEqual({ query: expect.stringContaining('token_metadata') as unknown });
    return exists;
  };

  it('exists only when the GraphQL service answers a token_metadata list without errors', async () => {
    expect(await probe({ data: { token_metadata: [] } })).toBe(true);
    expect(await probe({ data: null, errors: [{ message: 'no such field' }] })).toBe(false);
    expect(await probe({ data: {} })).toBe(false);
    expect(await probe(Response.json({ errors: [{ message: 'not found' }] }, { status: 404 }))).toBe(false);
    expect(await probe(new Response('<html>', { status: 502 }))).toBe(false);
  });
});

describe('external explorer link of the contract frame', () => {
  const info = (explorer_url?: string) => ({
    network_info: [
      {
        name: 'sandboxnet',
        rpc_endpoint: '',
        stats_enabled: false,
        ...(explorer_url ? { explorer_url } : {}),
      },
    ],
  });
  const KT = 'KT1ArKHKS65LKTDFjyvBJhcXZRxDyZ2J5SCt';

  it("uses the network's configured https explorer", () => {
    expect(explorerLink(info('https://explorer.example/'), 'sandboxnet', KT)).toBe(
      `https://explorer.example/${KT}`,
    );
  });

  it('falls back to the known explorers, and to none', () => {
    expect(explorerLink(info(), 'sandboxnet', KT)).toBeNull();
    expect(explorerLink(info('javascript:alert(1)'), 'sandboxnet', KT)).toBeNull();
    expect(explorerLink({ network_info: [] }, 'mainnet', KT)).toBe(`https://tzkt.io/${KT}`);
  });
});
