import { describe, expect, it } from 'vitest';
import { ipfsUrl, tezosStorageContract, valueLinks } from './value-links';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const CID = 'QmNrhZHUaEqxhyLfqoq1mtHSipkWHeT31LNHb1QEbDHgnc';

describe('value inspector links', () => {
  it('offers Storage only for tezos-storage URIs with a valid contract', () => {
    expect(tezosStorageContract(`tezos-storage://${KT}/%7B%7D`)).toBe(KT);
    expect(tezosStorageContract(`tezos-storage://${KT}.NetXdQprcVkpaWU/contents`)).toBe(KT);
    expect(tezosStorageContract('tezos-storage:here')).toBeNull();
    expect(tezosStorageContract('tezos-storage://KT1short/x')).toBeNull();
    expect(valueLinks(`tezos-storage://${KT}/meta`, 'mainnet')).toEqual([
      { label: 'View Storage', href: `/mainnet/${KT}/storage`, external: false },
    ]);
  });

  it('offers IPFS for ipfs URIs and multihash strings, through the gateway', () => {
    expect(ipfsUrl(`ipfs://${CID}/meta.json`, 'https://gw.example/')).toBe(
      `https://gw.example/ipfs/${CID}/meta.json`,
    );
    expect(ipfsUrl(CID)).toBe(`https://ipfs.io/ipfs/${CID}`);
    expect(ipfsUrl('ipfs://not a cid')).toBeNull();
    expect(ipfsUrl('Qm123')).toBeNull();
    expect(valueLinks(CID, 'mainnet').map((l) => l.label)).toEqual(['View IPFS']);
  });

  it('offers View for addresses and nothing for plain text', () => {
    expect(valueLinks(KT, 'ghostnet')).toEqual([
      { label: 'View', href: `/ghostnet/${KT}/operations`, external: false },
    ]);
    expect(valueLinks('hello', 'mainnet')).toEqual([]);
    expect(valueLinks('javascript:alert(1)', 'mainnet')).toEqual([]);
  });
});
