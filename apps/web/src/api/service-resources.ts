/**
 * The registry's entries (./resources.ts) of the other services on this origin: search (suggestions,
 * pages, aliases, mime types), statistics (series and totals) and the metadata GraphQL service.
 */
import type {
  AliasSources,
  MetadataGraphqlRequest,
  MetadataGraphqlResponse,
  MimeTypeList,
  SearchRequest,
  SearchResponse,
  SeriesPoint,
  StatsSummary,
  SuggestRequest,
  SuggestResponse,
} from '@michelscope/api-types';
import { action, enc, resource, type At, type Mount } from './resource-builders';

/** The search service: 10 s, and its errors carry the status (discovery spec §9). */
const SEARCH: Mount = {
  base: '/search/v1',
  timeoutMs: 10_000,
  errorMessage: (response) =>
    `Search service error: ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
};
const STATS: Mount = { base: '/stats/v1', timeoutMs: 10_000 };
/** A series of the statistics service: a table, a function and the filters of its rows (`Status=1`…). */
export interface StatsSeries {
  network: string;
  table: string;
  /** `distinct`: the number of distinct values of `filters.field` (the BCD client's unique users). */
  fn: 'count' | 'sum' | 'distinct';
  filters: Readonly<Record<string, string>>;
}
const statsFilters = (p: StatsSeries) => new URLSearchParams({ network: p.network, ...p.filters }).toString();
/** The metadata GraphQL service: its request errors are `{"errors": [{"message"}]}`. */
const METADATA: Mount = {
  base: '/metadata/v1',
  errorMessage: (response, text) => {
    try {
      const body = JSON.parse(text) as { errors?: { message?: unknown }[] } | null;
      const message = body?.errors?.[0]?.message;
      if (typeof message === 'string' && message !== '') return message;
    } catch {
      // not JSON: the status
    }
    return `Metadata service error: ${response.status}`;
  },
};

/** The search, statistics and metadata services. */
export const SERVICE_RESOURCES = {
  /** Suggestions of the home search box. */
  suggest: action<void, SuggestRequest, SuggestResponse>(() => '/suggest', SEARCH),
  /** A page of the search service (the search page, the operations tab's filters, the big-map keys). */
  search: action<void, SearchRequest, SearchResponse>(() => '/search', SEARCH),
  /** The names of an account by source; 204 (none known): null. */
  accountAliases: resource<At, AliasSources | null>(
    (p) => `/account/${enc(p.network)}/${enc(p.address)}`,
    SEARCH,
  ),
  /** Mime types of token files (the Tokens tab's filter). */
  mimeTypes: resource<void, MimeTypeList>(() => '/mime_types', SEARCH),
  /** A series of the statistics service: points per timeframe, oldest first. */
  statsHistogram: resource<StatsSeries & { timeframe: string }, SeriesPoint[]>(
    (p) => `/histogram/${enc(p.table)}/${enc(p.fn)}/${enc(p.timeframe)}?${statsFilters(p)}`,
    STATS,
  ),
  /** The total of a series of the statistics service. */
  statsSummary: resource<StatsSeries, StatsSummary>(
    (p) => `/summary/${enc(p.table)}/${enc(p.fn)}?${statsFilters(p)}`,
    STATS,
  ),
  /** A query of the metadata GraphQL service (contract and token metadata, workspace spec §7). */
  metadataGraphql: action<void, MetadataGraphqlRequest, MetadataGraphqlResponse>(() => '/graphql', METADATA),
};
