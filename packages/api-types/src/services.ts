/**
 * Shapes of the search service (/search/v1) and the stats service (/stats/v1, /v1/stats/{network}…):
 * spec discovery §3, §7 and workspace §7.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Micheline } from './explorer';

const StrList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 50 });

/** A big-map pointer (-1: the single big map of a pre-Babylon contract). */
const BigMapPtr = Type.Integer({ minimum: -1, maximum: Number.MAX_SAFE_INTEGER });

export const SearchFilters = Type.Object(
  {
    networks: Type.Optional(StrList),
    network: Type.Optional(StrList),
    index: Type.Optional(
      Type.Array(Type.String({ maxLength: 32 }), {
        maxItems: 10,
        description:
          'contracts, operations, big_maps, tokens, global_constants, smart_rollups (or their singulars)',
      }),
    ),
    tokens: Type.Optional(
      Type.Object(
        {
          tags: Type.Optional(StrList),
          creators: Type.Optional(StrList),
          minters: Type.Optional(StrList),
          mime_types: Type.Optional(StrList),
          network: Type.Optional(StrList),
          index: Type.Optional(StrList),
        },
        { description: 'token filters (the Tokens tab), with the networks and index as `search` takes them' },
      ),
    ),
    big_maps: Type.Optional(
      Type.Object(
        {
          network: Type.Optional(Type.String({ maxLength: 64 })),
          big_map_id: Type.Optional(BigMapPtr),
          ptr: Type.Optional(BigMapPtr),
          is_active: Type.Optional(Type.Boolean()),
        },
        {
          description:
            'One big map (`big_map_id`, or `ptr`, on `network`): the search answers only its keys (`bigmapkey` ' +
            'items, newest first): every key for an empty query, else those whose hash or readable key matches; ' +
            '`is_active: true` leaves out removed keys.',
        },
      ),
    ),
    operations: Type.Optional(
      Type.Object({
        status: Type.Optional(StrList),
        entrypoints: Type.Optional(StrList),
        kind: Type.Optional(StrList),
      }),
    ),
    search: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    verified: Type.Optional(
      Type.Boolean({
        description:
          'true: only contracts whose script has a verified source (also read in `search`); with an empty query, ' +
          'every such contract, newest first',
      }),
    ),
  },
  { title: 'SearchFilters' },
);
export type SearchFilters = Static<typeof SearchFilters>;

export const SearchRequest = Type.Object(
  {
    query: Type.String({ maxLength: 100_000 }),
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    disable_highlight: Type.Optional(Type.Boolean()),
    filters: Type.Optional(SearchFilters),
  },
  { title: 'SearchRequest' },
);
export type SearchRequest = Static<typeof SearchRequest>;

/** Field name → highlighted fragments (HTML-escaped text, the matched words in `<em>`). */
const Highlights = Type.Optional(
  Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'field → fragments, HTML-escaped, the matched words in <em>',
  }),
);
const FoundBy = Type.Optional(
  Type.String({ description: 'the field that matched: Address, Name, Body, Hash, Entrypoint, KeyHash, Key' }),
);
const AliasSource = Type.Object({ Name: Type.String() });

/** An `account` item: an implicit account, a contract, a smart rollup or a global constant. */
export const AccountSearchBody = Type.Object(
  {
    Network: Type.String(),
    Address: Type.String({ description: 'the address (a global constant: its hash)' }),
    IsContract: Type.Optional(
      Type.Boolean({ description: 'true for a contract, false for an implicit account or a smart rollup' }),
    ),
    Hash: Type.Optional(Type.String({ description: 'a global constant: its hash' })),
    TzKT: Type.Optional(AliasSource),
    TZIP: Type.Optional(AliasSource),
    verified: Type.Optional(
      Type.Literal(true, {
        description:
          "a contract whose script has a verified source (its own, or a same-script contract's of any network); " +
          'absent otherwise',
      }),
    ),
  },
  {
    title: 'AccountSearchBody',
    description:
      'A contract carries its name as `TZIP: {Name}`: its TZIP-16 contract metadata name (never the name of one of ' +
      'its tokens); no `TzKT` (no TzKT alias list here); `verified: true` when its script has a verified source.',
  },
);
export type AccountSearchBody = Static<typeof AccountSearchBody>;

/** An `operation` item: a group's top-level operation (or, on an account's search, its first matching one). */
export const OperationSearchBody = Type.Object(
  {
    Network: Type.String(),
    Hash: Type.String(),
    Counter: Type.Union([Type.Integer(), Type.Null()]),
    Level: Type.Integer(),
    '@timestamp': Type.String({ format: 'date-time' }),
    Status: Type.String({ description: 'applied, failed, backtracked, skipped' }),
    Entrypoint: Type.String(),
    Destination: Type.String(),
    Type: Type.String({ description: 'the operation kind' }),
    mempool: Type.Boolean({ description: 'always false: the search covers indexed operations' }),
    TotalCost: Type.Optional(
      Type.Integer({ description: "an account's search: the group's Σ fee + Σ burned (mutez)" }),
    ),
    Flow: Type.Optional(
      Type.Integer({ description: "an account's search: the group's flow for it (mutez)" }),
    ),
    Internals: Type.Optional(
      Type.Integer({ description: "an account's search: the group's internal operations" }),
    ),
  },
  { title: 'OperationSearchBody' },
);
export type OperationSearchBody = Static<typeof OperationSearchBody>;

/** A `bigmapkey` item: the current state of a big-map key. */
export const BigMapKeySearchBody = Type.Object(
  {
    Network: Type.String(),
    BigMapID: Type.Integer(),
    KeyHash: Type.String(),
    Key: Micheline,
    Name: Type.String({ description: 'the readable key (as `key_string` of GET /bigmap/…/keys)' }),
    Address: Type.String({ description: 'the contract of the big map' }),
    IsActive: Type.Boolean({ description: 'false: the key was removed' }),
    '@timestamp': Type.String({ format: 'date-time' }),
  },
  { title: 'BigMapKeySearchBody' },
);
export type BigMapKeySearchBody = Static<typeof BigMapKeySearchBody>;

/** A file of a token (TZIP-21 `formats`), as its resolved metadata gives it. */
export const TokenFileFormat = Type.Object(
  {
    uri: Type.String(),
    fileName: Type.Optional(Type.String()),
    fileSize: Type.Optional(Type.Integer({ minimum: 0 })),
    mimeType: Type.Optional(Type.String()),
  },
  { title: 'TokenFileFormat' },
);
export type TokenFileFormat = Static<typeof TokenFileFormat>;

/** A `token` item, with the fields of its resolved metadata (TZIP-12/21) that the search card shows. */
export const TokenSearchBody = Type.Object(
  {
    Network: Type.String(),
    Address: Type.String({ description: 'the token contract' }),
    TokenID: Type.String({ description: 'decimal' }),
    Name: Type.String(),
    Symbol: Type.Optional(Type.String()),
    Description: Type.Optional(Type.String()),
    Minter: Type.Optional(Type.String()),
    Creators: Type.Optional(Type.Array(Type.String())),
    Tags: Type.Optional(Type.Array(Type.String())),
    Formats: Type.Optional(Type.Array(TokenFileFormat)),
    ThumbnailURI: Type.Optional(Type.String()),
    Homepage: Type.Optional(
      Type.String({ description: 'as the metadata says it (untrusted: check the scheme)' }),
    ),
  },
  { title: 'TokenSearchBody' },
);
export type TokenSearchBody = Static<typeof TokenSearchBody>;

const item = <T extends string, B extends TSchema>(type: T, body: B) =>
  Type.Object(
    { type: Type.Literal(type), value: Type.String(), body, highlights: Highlights, found_by: FoundBy },
    { title: `${type[0]!.toUpperCase()}${type.slice(1)}SearchItem` },
  );

/** One search or suggestion hit; `body` depends on `type` (spec discovery §3). */
export const SearchItem = Type.Union(
  [
    item('account', AccountSearchBody),
    item('operation', OperationSearchBody),
    item('bigmapkey', BigMapKeySearchBody),
    item('token', TokenSearchBody),
  ],
  { title: 'SearchItem' },
);
export type SearchItem = Static<typeof SearchItem>;
export type SearchItemType = SearchItem['type'];

export const SearchResponse = Type.Object(
  {
    items: Type.Array(SearchItem),
    total: Type.Integer({ description: 'capped at 10000' }),
    took: Type.Integer({ description: 'milliseconds' }),
  },
  { title: 'SearchResponse' },
);
export type SearchResponse = Static<typeof SearchResponse>;

export const SuggestRequest = Type.Object(
  {
    query: Type.String({ maxLength: 100_000 }),
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    filters: Type.Optional(SearchFilters),
  },
  { title: 'SuggestRequest' },
);
export type SuggestRequest = Static<typeof SuggestRequest>;

export const SuggestResponse = Type.Object({ items: Type.Array(SearchItem) }, { title: 'SuggestResponse' });
export type SuggestResponse = Static<typeof SuggestResponse>;

/** `GET /search/v1/account/{network}/{address}`: the names of an account by source (204 when none). */
export const AliasSources = Type.Object(
  {
    TzKT: Type.Optional(AliasSource),
    TZIP: Type.Optional(AliasSource),
    Profiles: Type.Optional(AliasSource),
    Domains: Type.Optional(AliasSource),
  },
  {
    title: 'AliasSources',
    description:
      'Sources in priority order: `TzKT` (a TzKT alias), `TZIP` (the TZIP-16 contract metadata name), `Profiles`, ' +
      '`Domains`; this server sets `TZIP` alone (a token name is never the contract alias; the reference client ' +
      'reads the others).',
  },
);
export type AliasSources = Static<typeof AliasSources>;

/** `GET /search/v1/mime_types`. */
export const MimeTypeList = Type.Array(Type.Object({ name: Type.String() }), { title: 'MimeTypeList' });
export type MimeTypeList = Static<typeof MimeTypeList>;

export const AccountAlias = Type.Object(
  { network: Type.String(), address: Type.String(), alias: Type.String() },
  { title: 'AccountAlias' },
);
export type AccountAlias = Static<typeof AccountAlias>;

/** A chart point: `ts` in unix seconds (start of the bucket). */
export const SeriesPoint = Type.Object(
  { ts: Type.Integer(), value: Type.String() },
  { title: 'SeriesPoint' },
);
export type SeriesPoint = Static<typeof SeriesPoint>;

/**
 * `GET /stats/v1/summary/{table}/{function}`: a count or a sum, as a bare JSON decimal string (`"294"`): the BCD
 * client reads the body itself as the number (`parseInt(response, 10)`), exact for sums past 2^53.
 */
export const StatsSummary = Type.String({
  title: 'StatsSummary',
  pattern: '^-?\\d+$',
  description: 'the total as a decimal string, the whole body',
});
export type StatsSummary = Static<typeof StatsSummary>;

export const NetworkStats = Type.Object(
  {
    contracts_count: Type.Integer(),
    operations_count: Type.Integer(),
    contract_calls: Type.Integer(),
    unique_contracts: Type.Integer(),
    fa_count: Type.Integer(),
    protocols: Type.Array(
      Type.Object({
        hash: Type.String(),
        start_level: Type.Integer(),
        end_level: Type.Optional(Type.Integer()),
        alias: Type.String(),
      }),
    ),
  },
  { title: 'NetworkStats' },
);
export type NetworkStats = Static<typeof NetworkStats>;

export const TokenMetadata = Type.Object(
  {
    contract: Type.String(),
    network: Type.String(),
    level: Type.Optional(Type.Integer()),
    timestamp: Type.Optional(Type.String()),
    token_id: Type.Integer(),
    symbol: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    decimals: Type.Optional(Type.Integer()),
    description: Type.Optional(Type.String()),
    artifact_uri: Type.Optional(Type.String()),
    display_uri: Type.Optional(Type.String()),
    thumbnail_uri: Type.Optional(Type.String()),
    external_uri: Type.Optional(Type.String()),
    minter: Type.Optional(Type.String()),
    is_transferable: Type.Optional(Type.Boolean()),
    is_boolean_amount: Type.Optional(Type.Boolean()),
    should_prefer_symbol: Type.Optional(Type.Boolean()),
    creators: Type.Optional(Type.Array(Type.String())),
    tags: Type.Optional(Type.Array(Type.String())),
    formats: Type.Optional(Type.Unknown()),
    token_info: Type.Optional(Type.Unknown()),
  },
  { title: 'TokenMetadata' },
);
export type TokenMetadata = Static<typeof TokenMetadata>;
