/** Shapes of the search service (/search/v1, discovery spec §3 and §7). */

export type SearchItemType = 'account' | 'operation' | 'bigmapkey' | 'token';

/** A file format entry of a token (TZIP-21 `formats`). */
export interface FileFormat {
  uri: string;
  fileName: string;
  fileSize: number | null;
  mimeType: string;
}

/** The body of a search or suggest item: the fields the UI reads, each checked. */
export interface SearchBody {
  Network: string;
  Address: string;
  IsContract: boolean;
  Hash: string;
  Destination: string;
  Entrypoint: string;
  Type: string;
  Status: string;
  BigMapID: number | null;
  KeyHash: string;
  IsActive: boolean;
  TokenID: string;
  Name: string;
  Symbol: string;
  Minter: string;
  Creators: string[];
  Tags: string[];
  Formats: FileFormat[];
  ThumbnailURI: string;
  Description: string;
  Homepage: string;
  Interfaces: string[];
  Authors: string[];
  Timestamp: string;
  mempool: boolean;
  Counter: number | null;
  Level: number | null;
  /** An account's operation search: the group's Σ fee + Σ burned, flow and internal operations (mutez). */
  TotalCost: number | null;
  Flow: number | null;
  Internals: number | null;
}

export interface SearchItem {
  type: SearchItemType;
  value: string;
  body: SearchBody;
  /** Field name → highlighted fragments (the only markup kept is <em>, rendered as <mark>). */
  highlights: Record<string, string[]>;
  found_by: string;
}

export interface SearchResponse {
  items: SearchItem[];
  total: number;
  /** Milliseconds the search took. */
  took: number;
}

/** Token filters of the search page (tag inputs) plus the network chips and the tab's index. */
export interface SearchFilterSet {
  tags: string[];
  creators: string[];
  minters: string[];
  mime_types: string[];
  network: string[];
  index: string[];
}

/** `filters` of POST /v1/search: `tokens` when a token filter is set, else `search`. */
export type SearchRequestFilters = { search: SearchFilterSet } | { tokens: SearchFilterSet };

export interface SearchRequest {
  query: string;
  size: number;
  offset: number;
  disable_highlight?: boolean;
  filters?: SearchRequestFilters;
}

export interface SuggestRequest {
  query: string;
  size: number;
  filters: Record<string, unknown>;
}

/** GET /v1/account/{network}/{address}: names from each alias source. */
export interface AliasSources {
  TzKT?: { Name?: string };
  TZIP?: { Name?: string };
  Profiles?: { Name?: string };
  Domains?: { Name?: string };
}
