import { describe, expect, it, vi } from 'vitest';
import { fetchRawJson, rawJsonPath } from './raw-json-source';

describe('raw JSON documents of the node', () => {
  it('reads the network constants at the head, or at a given level', () => {
    expect(rawJsonPath('mainnet', { type: 'constants' })).toBe(
      '/rpc/mainnet/chains/main/blocks/head/context/constants',
    );
    expect(rawJsonPath('mainnet', { type: 'constants', level: 5_000_000 })).toBe(
      '/rpc/mainnet/chains/main/blocks/5000000/context/constants',
    );
  });

  it("refuses a type it does not know with 'Unsupported type {type}'", async () => {
    expect(() => rawJsonPath('mainnet', { type: 'mempool' })).toThrow('Unsupported type mempool');
    const fetchFn = vi.fn<typeof fetch>();
    await expect(fetchRawJson('mainnet', { type: 'bakers' }, true, { fetchFn })).rejects.toThrow(
      'Unsupported type bakers',
    );
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('says "Don\'t have an RPC endpoint for the {network}" without asking anything', async () => {
    const fetchFn = vi.fn<typeof fetch>();
    await expect(fetchRawJson('dailynet', { type: 'constants' }, false, { fetchFn })).rejects.toThrow(
      "Don't have an RPC endpoint for the dailynet",
    );
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('returns the JSON the node answers', async () => {
    const fetchFn = vi.fn<typeof fetch>(async () => Response.json({ cost_per_byte: '250' }));
    expect(await fetchRawJson('sandboxnet', { type: 'constants' }, true, { fetchFn })).toEqual({
      cost_per_byte: '250',
    });
    expect(fetchFn.mock.calls[0]?.[0] as string).toBe(
      '/rpc/sandboxnet/chains/main/blocks/head/context/constants',
    );
  });
});
