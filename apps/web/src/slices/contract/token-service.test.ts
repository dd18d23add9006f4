import { describe, expect, it } from 'vitest';
import { explorerLink } from './ContractFrame';
import { answersTokenMetadata } from './token-service';

describe('token-metadata service probe', () => {
  it('exists only when the GraphQL service answers a token_metadata list without errors', () => {
    expect(answersTokenMetadata({ data: { token_metadata: [] } })).toBe(true);
    expect(answersTokenMetadata({ data: { token_metadata: null } })).toBe(false);
    expect(answersTokenMetadata({ errors: [{ message: 'no such field' }], data: null })).toBe(false);
    expect(answersTokenMetadata({ message: 'Route POST:/metadata/v1/graphql not found' })).toBe(false);
    expect(answersTokenMetadata(null)).toBe(false);
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
