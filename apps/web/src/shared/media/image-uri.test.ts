import { describe, expect, it } from 'vitest';
import { imageUrl } from './image-uri';

describe('imageUrl', () => {
  it('maps ipfs URIs to the gateway', () => {
    expect(
      imageUrl('ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/thumb.png', 'https://gw.example/'),
    ).toBe('https://gw.example/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/thumb.png');
    expect(imageUrl('ipfs://bafyabc')).toBe('https://ipfs.io/ipfs/bafyabc');
  });
  it('takes the server gateway form ({gateway}/{cid}) as well', () => {
    expect(imageUrl('ipfs://bafyabc', 'https://gw.example/ipfs')).toBe('https://gw.example/ipfs/bafyabc');
    expect(imageUrl('ipfs://bafyabc', 'https://gw.example/ipfs/')).toBe('https://gw.example/ipfs/bafyabc');
  });
  it('keeps https and refuses every other scheme', () => {
    expect(imageUrl('https://example.org/a.png')).toBe('https://example.org/a.png');
    for (const uri of [
      'http://example.org/a.png',
      'javascript:alert(1)',
      'data:image/svg+xml,<svg/>',
      '',
      'ipfs://',
    ]) {
      expect(imageUrl(uri)).toBeNull();
    }
  });
});
