import { describe, expect, it } from 'vitest';
import { NetworkRegistry, sortNetworks } from '../src/networks';

const net = (name: string) => ({ name, rpcUrl: 'http://n', publicRpcUrl: 'http://n', statsEnabled: false });

describe('network order', () => {
  it('puts mainnet first and the others by name descending', () => {
    const names = sortNetworks(['ghostnet', 'parisnet', 'mainnet', 'sandboxnet', 'quebecnet'].map(net)).map(
      (n) => n.name,
    );
    expect(names).toEqual(['mainnet', 'sandboxnet', 'quebecnet', 'parisnet', 'ghostnet']);
  });

  it('works without mainnet and does not reorder the input array', () => {
    const input = ['a', 'c', 'b'].map(net);
    expect(sortNetworks(input).map((n) => n.name)).toEqual(['c', 'b', 'a']);
    expect(input.map((n) => n.name)).toEqual(['a', 'c', 'b']);
  });

  it('refuses a network configured twice', () => {
    expect(() => new NetworkRegistry([net('mainnet'), net('mainnet')])).toThrow(/configured twice/);
  });
});
