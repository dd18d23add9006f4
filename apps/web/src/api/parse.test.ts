import { describe, expect, it } from 'vitest';
import { parseBigMapInfo, parseConfig, parseHeads } from './parse';

describe('parseConfig', () => {
  it('keeps the networks in server order and fills missing flags with false', () => {
    const config = parseConfig({
      networks: ['mainnet', 'sandboxnet', 'ghostnet'],
      rpc_endpoints: { mainnet: 'https://rpc.example/mainnet', sandboxnet: 42 },
      sandbox_mode: true,
    });
    expect(config).toEqual({
      networks: ['mainnet', 'sandboxnet', 'ghostnet'],
      rpc_endpoints: { mainnet: 'https://rpc.example/mainnet' },
      sentry_dsn: '',
      oauth_enabled: false,
      ga_enabled: false,
      sandbox_mode: true,
      mempool_enabled: false,
      network_info: [],
      ipfs_gateway: null,
    });
  });

  it('rejects an answer without a list of network names', () => {
    expect(() => parseConfig(null)).toThrow('Unexpected configuration from the API: not an object');
    expect(() => parseConfig({ networks: 'mainnet' })).toThrow('networks must be a list of names');
    expect(() => parseConfig({ networks: ['mainnet', 7] })).toThrow('networks must be a list of names');
  });

  it('drops duplicate network names', () => {
    expect(parseConfig({ networks: ['mainnet', 'mainnet', 'ghostnet'] }).networks).toEqual([
      'mainnet',
      'ghostnet',
    ]);
  });
});

describe('parseHeads', () => {
  it('keeps well-formed entries and treats anything but synced=true as unsynced', () => {
    const heads = parseHeads([
      { network: 'sandboxnet', level: 12, time: '2026-01-01T00:00:02Z', protocol: 'PsX', synced: true },
      { network: 'mainnet', level: 0, time: '0001-01-01T00:00:00Z', protocol: '', synced: 'yes' },
      { level: 5 },
      'garbage',
    ]);
    expect(heads.map((h) => [h.network, h.synced, h.level])).toEqual([
      ['sandboxnet', true, 12],
      ['mainnet', false, 0],
    ]);
  });

  it('rejects an answer that is not a list', () => {
    expect(() => parseHeads({ network: 'mainnet' })).toThrow('Unexpected head list from the API');
  });
});

describe('parseBigMapInfo', () => {
  it('requires network, address and ptr', () => {
    expect(parseBigMapInfo({ network: 'mainnet', address: 'KT1x', ptr: 511 })).toMatchObject({ ptr: 511 });
    expect(() => parseBigMapInfo({ network: 'mainnet', ptr: 511 })).toThrow(
      'network, address and ptr are required',
    );
  });
});
