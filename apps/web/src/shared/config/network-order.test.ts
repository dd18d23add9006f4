import { describe, expect, it } from 'vitest';
import { hasStats, sortNetworks } from './network-order';

describe('sortNetworks', () => {
  it('puts mainnet first, then the others by name descending', () => {
    expect(sortNetworks(['ghostnet', 'sandboxnet', 'mainnet', 'oxfordnet', 'dailynet'], (n) => n)).toEqual([
      'mainnet',
      'sandboxnet',
      'oxfordnet',
      'ghostnet',
      'dailynet',
    ]);
  });
});

describe('hasStats', () => {
  it("follows the server's network_info, else the spec's four networks", () => {
    const info = [
      { name: 'sandboxnet', rpc_endpoint: '', stats_enabled: true },
      { name: 'mainnet', rpc_endpoint: '', stats_enabled: false },
    ];
    expect(hasStats({ network_info: info }, 'sandboxnet')).toBe(true);
    expect(hasStats({ network_info: info }, 'mainnet')).toBe(false);
    expect(hasStats({ network_info: [] }, 'ghostnet')).toBe(true);
    expect(hasStats({ network_info: [] }, 'sandboxnet')).toBe(false);
  });
});
