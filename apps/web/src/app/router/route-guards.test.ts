import { describe, expect, it } from 'vitest';
import { bigMapLookupTarget, pathSegments, resolveUnmatched } from './route-guards';

const NETWORKS = ['mainnet', 'ghostnet'];
const KT1 = 'KT1PWx2mnDueood7fEmfbBDKx1D9BAnnXitn';
const TZ3 = 'tz3WXYtyDUNL91qfiCJtVUX746QpNv5i5ve5';
const OPG = 'ontoZH3KLbMdNJU6HfGakKos1pcBLEQS55Ux3ZCapHWGpL4v17N';

describe('resolveUnmatched', () => {
  it.each([
    [`/${TZ3}`, `/mainnet/${TZ3}/operations`],
    [`/${KT1}`, `/mainnet/${KT1}/operations`],
    [`/${OPG}`, `/mainnet/opg/${OPG}/contents`],
    [`/ghostnet/${OPG}/contents`, `/ghostnet/opg/${OPG}/contents`],
    // an address that is not alone in the path is not "bare"
    [`/foo/${KT1}`, '/not_found'],
    [`/${KT1}/foo`, '/not_found'],
    // one character short, a character outside base58 (0), a wrong prefix
    [`/${KT1.slice(0, -1)}`, '/not_found'],
    [`/${KT1.slice(0, -1)}0`, '/not_found'],
    [`/KX${KT1.slice(2)}`, '/not_found'],
    ['/', '/not_found'],
  ])('%s -> %s', (path, to) => {
    expect(resolveUnmatched(path, NETWORKS)).toEqual({ kind: 'redirect', to });
  });

  it('asks for a big map lookup on old-style big map URLs of configured networks', () => {
    expect(resolveUnmatched('/mainnet/big_map/511', NETWORKS)).toEqual({
      kind: 'big_map_lookup',
      network: 'mainnet',
      ptr: '511',
      keyHash: null,
    });
    expect(resolveUnmatched('/rollupnet/big_map/511', NETWORKS)).toEqual({
      kind: 'redirect',
      to: '/not_found',
    });
    expect(resolveUnmatched('/mainnet/big_map/-1', NETWORKS)).toEqual({ kind: 'redirect', to: '/not_found' });
  });
});

describe('bigMapLookupTarget', () => {
  const requested = { network: 'mainnet', ptr: '511', keyHash: null };

  it("goes to the owning contract's storage big map page", () => {
    expect(bigMapLookupTarget({ network: 'mainnet', address: KT1, ptr: 511 }, requested, NETWORKS)).toBe(
      `/mainnet/${KT1}/storage/big_map/511/keys`,
    );
  });

  it('refuses owners that are not contracts or networks that are not configured', () => {
    expect(bigMapLookupTarget(null, requested, NETWORKS)).toBe('/not_found');
    expect(bigMapLookupTarget({ network: 'mainnet', address: TZ3 }, requested, NETWORKS)).toBe('/not_found');
    expect(bigMapLookupTarget({ network: 'mainnet', address: '../../x' }, requested, NETWORKS)).toBe(
      '/not_found',
    );
    expect(bigMapLookupTarget({ network: 'rollupnet', address: KT1 }, requested, NETWORKS)).toBe(
      '/not_found',
    );
  });
});

describe('pathSegments', () => {
  it('decodes segments and keeps malformed escapes as they are', () => {
    expect(pathSegments('/a%20b//c/')).toEqual(['a b', 'c']);
    expect(pathSegments('/%E0%A4%A')).toEqual(['%E0%A4%A']);
  });
});
