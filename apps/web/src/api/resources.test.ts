import { describe, expect, it } from 'vitest';
import { actionQuery, RESOURCES, resourceKey, resourceMethod, resourcePath, resourceUrl } from './resources';
import { ACCOUNT_RESOURCES } from './account-resources';
import { BIG_MAP_RESOURCES } from './bigmap-resources';
import { CONTRACT_RESOURCES } from './contract-resources';
import { NETWORK_RESOURCES } from './network-resources';
import { NODE_RESOURCES } from './node-resources';
import { OPERATION_RESOURCES } from './operation-resources';
import { SERVICE_RESOURCES } from './service-resources';
import { VERIFY_RESOURCES } from './verify-resources';
import { WATCH_RESOURCES } from './watch-resources';
import { WORKSPACE_RESOURCES } from './workspace-resources';

describe('the resource registry', () => {
  it('builds each URL from the params, escaped', () => {
    expect(resourcePath('config')).toBe('/config');
    expect(resourcePath('globalConstant', { network: 'mainnet', address: 'expr/1?' })).toBe(
      '/global_constants/mainnet/expr%2F1%3F',
    );
    expect(resourcePath('recentlyCalled', { network: 'ghostnet', size: 3, offset: 6 })).toBe(
      '/stats/ghostnet/recently_called_contracts?size=3&offset=6',
    );
  });

  it("asks the code and the storage at the URLs the server preloads (no query for 'latest')", () => {
    const at = { network: 'mainnet', address: 'KT1x' };
    expect(resourcePath('code', { ...at, protocol: null })).toBe('/contract/mainnet/KT1x/code');
    expect(resourcePath('code', { ...at, protocol: 'PtJakart' })).toBe(
      '/contract/mainnet/KT1x/code?protocol=PtJakart',
    );
    expect(resourcePath('storage', { ...at, level: null })).toBe('/contract/mainnet/KT1x/storage');
    expect(resourcePath('storageRaw', { ...at, level: 0 })).toBe(
      '/contract/mainnet/KT1x/storage/raw?level=0',
    );
    expect(resourcePath('storageRich', { ...at, level: 12 })).toBe(
      '/contract/mainnet/KT1x/storage/rich?level=12',
    );
  });

  it('gives two resources with the same params two keys (the name comes first)', () => {
    const params = { network: 'mainnet', address: 'exprA' };
    expect(resourceKey('globalConstant', params)).toEqual(['globalConstant', params]);
    const keys = Object.keys(RESOURCES).map((name) => JSON.stringify(resourceKey(name as 'config')[0]));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("keeps every domain's entries: no name is in two domains (the later one would replace the other)", () => {
    const domains = [
      NETWORK_RESOURCES,
      ACCOUNT_RESOURCES,
      CONTRACT_RESOURCES,
      BIG_MAP_RESOURCES,
      OPERATION_RESOURCES,
      WORKSPACE_RESOURCES,
      NODE_RESOURCES,
      SERVICE_RESOURCES,
      WATCH_RESOURCES,
      VERIFY_RESOURCES,
    ];
    const names = domains.flatMap((d) => Object.keys(d));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(RESOURCES).sort()).toEqual(names.sort());
  });

  it('mounts each resource under its service and asks actions with POST', () => {
    expect(resourceUrl('config')).toBe('/v1/config');
    expect(resourceMethod('config')).toBe('GET');
    expect(resourceUrl('debug', { network: 'mainnet', address: 'KT1x' })).toBe(
      '/v1/contract/mainnet/KT1x/entrypoints/debug',
    );
    expect(resourceMethod('debug')).toBe('POST');
    // an action's key holds its body: two debug requests are two queries
    const at = { network: 'mainnet', address: 'KT1x' };
    expect(actionQuery('debug', at, { name: 'a' }).queryKey).not.toEqual(
      actionQuery('debug', at, { name: 'b' }).queryKey,
    );
  });
});
