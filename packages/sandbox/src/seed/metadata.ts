// TZIP-16 contract metadata and TZIP-21 token metadata of the demo tokens, as Micheline values.
import type { Expr } from '@michelscope/interpreter';

export function bytesOf(text: string): Expr {
  return { bytes: Buffer.from(text, 'utf8').toString('hex') };
}

/** `{Elt "" "tezos-storage:content"; Elt "content" <json>}`: TZIP-16 metadata kept in storage. */
export function contractMetadata(json: object): Expr {
  return [
    { prim: 'Elt', args: [{ string: '' }, bytesOf('tezos-storage:content')] },
    { prim: 'Elt', args: [{ string: 'content' }, bytesOf(JSON.stringify(json))] },
  ];
}

export const FA12_METADATA = {
  name: 'Michelscope Demo Token',
  description: 'An FA1.2 token of the sandboxnet demo seed.',
  version: '1.0.0',
  license: { name: 'MIT' },
  interfaces: ['TZIP-007', 'TZIP-016'],
  homepage: 'https://example.com/michelscope',
  // TZIP-16 `errors`: what the token's FAILWITH values mean (shown by the debugger's 'Why did it fail')
  errors: [
    {
      error: { string: 'NotAdmin' },
      expansion: { string: 'Only the token admin may mint.' },
      languages: ['en'],
    },
    {
      error: { string: 'NotEnoughBalance' },
      expansion: { string: 'The sender holds fewer tokens than the transfer moves.' },
      languages: ['en'],
    },
    {
      error: { string: 'NotEnoughAllowance' },
      expansion: { string: 'The spender may not move that many of the owner’s tokens.' },
      languages: ['en'],
    },
  ],
};

/** FA2 metadata with an off-chain view (michelsonStorageView) over the ledger. */
export const FA2_METADATA = {
  name: 'Michelscope Demo Collection',
  description: 'An FA2 multi-asset contract of the sandboxnet demo seed: one fungible token and three NFTs.',
  version: '1.0.0',
  license: { name: 'MIT' },
  interfaces: ['TZIP-012', 'TZIP-016', 'TZIP-021'],
  views: [
    {
      name: 'get_balance',
      description: 'Balance of an owner for a token id.',
      pure: true,
      implementations: [
        {
          michelsonStorageView: {
            parameter: { prim: 'pair', args: [{ prim: 'address' }, { prim: 'nat' }] },
            returnType: { prim: 'nat' },
            code: [
              { prim: 'UNPAIR' },
              { prim: 'SWAP' },
              { prim: 'CAR' },
              { prim: 'SWAP' },
              { prim: 'GET' },
              { prim: 'IF_NONE', args: [[{ prim: 'PUSH', args: [{ prim: 'nat' }, { int: '0' }] }], []] },
            ],
          },
        },
      ],
    },
  ],
};

/** A small SVG as a data URI, so thumbnails render offline. */
function svg(color: string, label: string): string {
  const body = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="${color}"/><text x="32" y="38" font-size="14" text-anchor="middle" fill="white">${label}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(body).toString('base64')}`;
}

function tokenInfo(fields: Record<string, string>): Expr {
  return Object.keys(fields)
    .sort()
    .map((k) => ({ prim: 'Elt', args: [{ string: k }, bytesOf(fields[k]!)] }));
}

/** Creator and minter named in the demo NFTs' metadata (the first bootstrap account). */
export const NFT_CREATOR = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';

export const FA2_TOKENS: Array<{ id: number; info: Record<string, string> }> = [
  { id: 0, info: { name: 'Demo Coin', symbol: 'DMC', decimals: '6', thumbnailUri: svg('#1565c0', 'DMC') } },
  ...['Aurora', 'Basalt', 'Cobalt'].map((name, i) => ({
    id: i + 1,
    info: {
      name: `${name} #${i + 1}`,
      symbol: 'MSNFT',
      decimals: '0',
      artifactUri: svg(['#6a1b9a', '#2e7d32', '#ef6c00'][i]!, name),
      displayUri: svg(['#6a1b9a', '#2e7d32', '#ef6c00'][i]!, name),
      thumbnailUri: svg(['#6a1b9a', '#2e7d32', '#ef6c00'][i]!, name.slice(0, 3)),
      isBooleanAmount: 'true',
      // JSON-encoded (TZIP-21) so the search service's token filters have tags, creators, minter, mime types
      tags: JSON.stringify(['demo', i === 0 ? 'aurora' : 'mineral']),
      creators: JSON.stringify([NFT_CREATOR]),
      minter: NFT_CREATOR,
      formats: JSON.stringify([
        { uri: 'ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', mimeType: 'image/svg+xml' },
      ]),
    },
  })),
];

export function tokenMetadataMap(): Expr {
  return FA2_TOKENS.map((t) => ({
    prim: 'Elt',
    args: [{ int: String(t.id) }, { prim: 'Pair', args: [{ int: String(t.id) }, tokenInfo(t.info)] }],
  }));
}
