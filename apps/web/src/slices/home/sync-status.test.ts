import { describe, expect, it } from 'vitest';
import type { Head } from '@michelscope/api-types';
import { syncDotLabel, syncStatusByNetwork } from './sync-status';

const head = (network: string, synced: boolean): Head => ({
  network,
  synced,
  level: 10,
  time: '2026-01-01T00:00:00Z',
  protocol: 'PsQuebecnLByd3JwTiGadoG4nGWi3HYiLXUjkibeFV8dCFeVMUg',
});

const NETWORKS = ['mainnet', 'sandboxnet', 'ghostnet'];

describe('syncStatusByNetwork', () => {
  it('marks each configured network from its head entry and keeps the configured order', () => {
    const status = syncStatusByNetwork(NETWORKS, [head('ghostnet', false), head('sandboxnet', true)], false);
    expect([...status.entries()]).toEqual([
      ['mainnet', 'unsynced'],
      ['sandboxnet', 'synced'],
      ['ghostnet', 'unsynced'],
    ]);
  });

  it('ignores heads of networks that are not configured', () => {
    const status = syncStatusByNetwork(['mainnet'], [head('rollupnet', true)], false);
    expect([...status.keys()]).toEqual(['mainnet']);
    expect(status.get('mainnet')).toBe('unsynced');
  });

  it('is loading before the first answer, and unsynced (not an error) when the request failed', () => {
    expect(syncStatusByNetwork(NETWORKS, undefined, false).get('sandboxnet')).toBe('loading');
    expect(syncStatusByNetwork(NETWORKS, undefined, true).get('sandboxnet')).toBe('unsynced');
  });
});

describe('syncDotLabel', () => {
  it('names the network and its state', () => {
    expect(syncDotLabel('sandboxnet', 'synced')).toBe('sandboxnet synced');
    expect(syncDotLabel('mainnet', 'unsynced')).toBe('mainnet unsynced');
    expect(syncDotLabel('mainnet', 'loading')).toBe('mainnet sync status loading');
  });
});
