import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { Block, ConfigResponse, ErrorBody, Head } from '../src/index';

describe('api-types schemas', () => {
  it('accept the reference Head and reject one without synced', () => {
    const head = {
      network: 'mainnet',
      level: 5_000_000,
      time: '2024-05-01T12:00:00Z',
      protocol: 'PtParis',
      synced: true,
    };
    expect(Value.Check(Head, head)).toBe(true);
    const { synced: _synced, ...withoutSynced } = head;
    expect(Value.Check(Head, withoutSynced)).toBe(false);
    expect(Value.Check(Head, { ...head, level: 1.5 })).toBe(false);
  });

  it('accept a Block with or without stats, but not with partial stats', () => {
    const block = {
      network: 'mainnet',
      hash: 'BL',
      level: 1,
      predecessor: 'BK',
      chain_id: 'NetXdQprcVkpaWU',
      timestamp: '2024-05-01T12:00:00Z',
      protocol: 'PtParis',
      cost_per_byte: 250,
      hard_gas_limit_per_operation: 1_040_000,
      hard_storage_limit_per_operation: 60_000,
      time_between_blocks: 8,
    };
    expect(Value.Check(Block, block)).toBe(true);
    expect(Value.Check(Block, { ...block, stats: { contracts_count: 1 } })).toBe(false);
  });

  it('require mempool_enabled in ConfigResponse and message in ErrorBody', () => {
    const config = {
      networks: ['mainnet'],
      rpc_endpoints: { mainnet: 'https://rpc' },
      sentry_dsn: '',
      oauth_enabled: false,
      ga_enabled: false,
      sandbox_mode: false,
      mempool_enabled: true,
      ipfs_gateway: 'https://ipfs.io/ipfs',
      network_info: [{ name: 'mainnet', rpc_endpoint: 'https://rpc', stats_enabled: true }],
    };
    expect(Value.Check(ConfigResponse, config)).toBe(true);
    const { mempool_enabled: _m, ...withoutMempool } = config;
    expect(Value.Check(ConfigResponse, withoutMempool)).toBe(false);
    expect(Value.Check(ErrorBody, { message: 'not found' })).toBe(true);
    expect(Value.Check(ErrorBody, {})).toBe(false);
  });
});
