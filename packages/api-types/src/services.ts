/**
 * Shapes of the search service (/search/v1) and the stats service (/stats/v1, /v1/stats/{network}…):
 * spec discovery §3, §7 and workspace §7.
 */
import { Type, type Static } from '@sinclair/typebox';

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
      Type.Object({
        tags: Type.Optional(StrList),
        creators: Type.Optional(StrList),
        minters: Type.Optional(StrList),
        mime_types: Type.Optional(StrList),
      }),
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

export const SearchItem = Type.Object(
  {
    type: Type.String({ description: 'account, operation, bigmapkey, token' }),
    value: Type.String(),
    body: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Network, Address, IsContract, Hash, KeyHash, TokenID, Name, … (spec discovery §3). A contract `account` ' +
        'carries its names as `TzKT: {Name}` (contract metadata) and `TZIP: {Name}` (token metadata); a ' +
        '`bigmapkey` its readable key as `Name`.',
    }),
    highlights: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
    found_by: Type.Optional(Type.String()),
  },
  { title: 'SearchItem' },
);
export type SearchItem = Static<typeof SearchItem>;

export const SearchResponse = Type.Object(
  {
    items: Type.Array(SearchItem),
    total: Type.Integer({ description: 'capped at 10000' }),
    took: Type.Integer({ description: 'milliseconds' }),
  },
  { title: 'SearchResponse' },
);
export type SearchResponse = Static<typeof SearchResponse>;

export const SuggestResponse = Type.Object({ items: Type.Array(SearchItem) }, { title: 'SuggestResponse' });
export type SuggestResponse = Static<typeof SuggestResponse>;

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
