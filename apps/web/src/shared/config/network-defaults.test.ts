import { describe, expect, it } from 'vitest';
import { defaultNetwork } from './network-defaults';

describe('defaultNetwork', () => {
  it('is the first configured network, keeping the server order', () => {
    expect(defaultNetwork({ networks: ['mainnet', 'sandboxnet', 'ghostnet'], sandbox_mode: false })).toBe(
      'mainnet',
    );
    expect(defaultNetwork({ networks: ['sandboxnet', 'ghostnet'], sandbox_mode: false })).toBe('sandboxnet');
  });

  it('is sandboxnet in sandbox mode when sandboxnet is configured', () => {
    expect(defaultNetwork({ networks: ['mainnet', 'sandboxnet'], sandbox_mode: true })).toBe('sandboxnet');
    expect(defaultNetwork({ networks: ['mainnet', 'ghostnet'], sandbox_mode: true })).toBe('mainnet');
  });

  it('is null when no network is configured', () => {
    expect(defaultNetwork({ networks: [], sandbox_mode: false })).toBeNull();
  });
});
