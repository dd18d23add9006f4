import { describe, expect, it } from 'vitest';
import type { Head } from '@michelscope/api-types';
import { CHOSEN_NETWORK_KEY, chooseNetwork, readChosenNetwork, startNetwork } from './chosen-network';

const config = { networks: ['mainnet', 'sandboxnet', 'ghostnet'], sandbox_mode: false };
const head = (network: string, level: number, synced: boolean): Head => ({
  network,
  level,
  synced,
  time: '2026-01-01T00:00:00Z',
  protocol: '',
});

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('the network home and the Networks link open on', () => {
  it('is the default network when it is synced', () => {
    const heads = [head('mainnet', 9_000_000, true), head('sandboxnet', 40, true)];
    expect(startNetwork(config, heads, null)).toBe('mainnet');
  });

  it('is the first synced network when the default one is unreachable (level 0, not synced)', () => {
    const heads = [head('mainnet', 0, false), head('sandboxnet', 40, true), head('ghostnet', 0, false)];
    expect(startNetwork(config, heads, null)).toBe('sandboxnet');
    // a network absent from /v1/head counts as not indexed
    expect(startNetwork(config, [head('ghostnet', 12, true)], null)).toBe('ghostnet');
  });

  it('prefers an indexed network to an empty one when none is synced, and keeps the default on a tie', () => {
    expect(startNetwork(config, [head('mainnet', 0, false), head('sandboxnet', 40, false)], null)).toBe(
      'sandboxnet',
    );
    expect(startNetwork(config, [head('mainnet', 0, false), head('sandboxnet', 0, false)], null)).toBe(
      'mainnet',
    );
    expect(startNetwork(config, [head('mainnet', 5, false), head('sandboxnet', 40, false)], null)).toBe(
      'mainnet',
    );
  });

  it('is the default network while /v1/head is unknown, and in sandbox mode sandboxnet', () => {
    expect(startNetwork(config, undefined, null)).toBe('mainnet');
    expect(startNetwork({ ...config, sandbox_mode: true }, [], null)).toBe('sandboxnet');
    expect(startNetwork({ networks: [], sandbox_mode: false }, [], null)).toBeNull();
  });

  it('is the remembered choice when it is still configured, whatever is synced', () => {
    const heads = [head('mainnet', 9_000_000, true), head('ghostnet', 0, false)];
    expect(startNetwork(config, heads, 'ghostnet')).toBe('ghostnet');
    expect(startNetwork(config, heads, 'oldnet')).toBe('mainnet');
  });

  it('remembers the choice in local storage and reads back only network names', () => {
    const storage = memoryStorage();
    expect(readChosenNetwork(storage)).toBeNull();
    chooseNetwork('ghostnet', storage);
    expect(storage.getItem(CHOSEN_NETWORK_KEY)).toBe('ghostnet');
    expect(readChosenNetwork(storage)).toBe('ghostnet');
    storage.setItem(CHOSEN_NETWORK_KEY, '<script>');
    expect(readChosenNetwork(storage)).toBeNull();
  });
});
