import { expect, it } from 'vitest';
import {
  contractScriptHash,
  getVerification,
  latestVerified,
  storeVerification,
  verificationsOf,
  verifiedScriptHashes,
} from '../src/verified';
import { describeDb } from '../src/testing';

// PGlite and PostgreSQL: db/verified's writes are idempotent and its reads find rows by script hash.
describeDb('verified sources', { backends: 'both' }, ({ db }) => {
  const row = (id: string, status: 'verified' | 'failed', network = 'sandboxnet') => ({
    id,
    script_hash: 'hash1',
    network,
    address: 'KT1x',
    status,
    compiler: 'archetype',
    version: '1.5.3',
    options: {},
    main: 'a.arl',
    files: [{ name: 'a.arl', size: 1, sha256: 'ab' }],
    contents: ['x'],
    source_map: status === 'verified' ? [{ path: 'code.args[0]', line: 3 }] : null,
    difference: status === 'failed' ? { section: 'code', message: 'differs' } : null,
    compiled: status === 'failed' ? '{ parameter unit }' : null,
  });

  it('stores once per id and script hash; the first row is kept', async () => {
    const first = await storeVerification(db(), row('id1', 'failed'));
    expect(first).toMatchObject({
      id: 'id1',
      status: 'failed',
      contents: ['x'],
      compiled: '{ parameter unit }',
    });
    expect(first.difference).toEqual({ section: 'code', message: 'differs' });
    expect(first.created_at).toBeInstanceOf(Date);
    const again = await storeVerification(db(), { ...row('id1', 'failed'), network: 'ghostnet' });
    expect(again.network).toBe('sandboxnet');
    expect(await getVerification(db(), 'id1', 'other')).toBeUndefined();
  });

  it('finds the latest verified row of a script hash and lists every attempt', async () => {
    expect(await latestVerified(db(), 'hash1')).toBeUndefined();
    await storeVerification(db(), row('id2', 'verified', 'ghostnet'));
    const v = await latestVerified(db(), 'hash1');
    expect(v).toMatchObject({
      id: 'id2',
      network: 'ghostnet',
      source_map: [{ path: 'code.args[0]', line: 3 }],
    });
    const list = await verificationsOf(db(), 'hash1');
    expect(list.map((r) => r.id).sort()).toEqual(['id1', 'id2']);
    expect(list[0]).not.toHaveProperty('contents');
    expect(await verifiedScriptHashes(db(), ['hash1', 'hash2'])).toEqual(new Set(['hash1']));
    expect(await contractScriptHash(db(), 'sandboxnet', 'KT1none')).toBeUndefined();
  });
});
