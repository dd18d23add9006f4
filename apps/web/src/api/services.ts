/**
 * The search service (/search/v1) and the statistics service (/stats/v1): query factories over the registry
 * (./resources.ts) and the typed selectors that turn their answers into what the pages show.
 */
import { queryOptions } from '@tanstack/react-query';
import type {
  AliasSources,
  MimeTypeList,
  SearchItem,
  SeriesPoint,
  StatsSummary,
  SuggestResponse,
} from '@michelscope/api-types';
import { actionQuery, fetchResource, resourceQuery } from './resources';
import type { StatsSeries } from './service-resources';
import type { RequestOptions } from './client';

/** Suggestions and search pages hold 10 items (discovery spec §9). */
export const SUGGEST_SIZE = 10;
export const SEARCH_PAGE_SIZE = 10;

export const suggestItems = (answer: SuggestResponse): SearchItem[] => answer.items;

/** Suggestions for the home search box's text. */
export const suggestQuery = (query: string) =>
  queryOptions({
    ...actionQuery('suggest', undefined, { query, size: SUGGEST_SIZE, filters: {} }),
    select: suggestItems,
  });

/** The account alias: first present of the indexer name, token-metadata name, profile name, domain name. */
export function aliasName(sources: AliasSources | null): string | null {
  for (const source of [sources?.TzKT, sources?.TZIP, sources?.Profiles, sources?.Domains]) {
    if (source && source.Name.trim() !== '') return source.Name;
  }
  return null;
}

/** The alias of an account, or null (204: the service knows no name). */
export async function fetchAlias(
  network: string,
  address: string,
  options: RequestOptions = {},
): Promise<string | null> {
  return aliasName(await fetchResource('accountAliases', { network, address }, options));
}

/** The mime types' names, each once. */
export const mimeTypeNames = (list: MimeTypeList): string[] => [...new Set(list.map((m) => m.name))];

export const mimeTypesQuery = () => queryOptions({ ...resourceQuery('mimeTypes'), select: mimeTypeNames });

/** One point of a chart: bucket start (unix seconds) and its value as a number. */
export interface ChartPoint {
  ts: number;
  value: number;
}

/** The service's points (decimal strings) as numbers, in time order. */
export const chartPoints = (points: readonly SeriesPoint[] | null): ChartPoint[] =>
  (points ?? []).map((p) => ({ ts: p.ts, value: Number(p.value) })).sort((a, b) => a.ts - b.ts);

/** A histogram of the statistics service, as chart points. */
export const histogramQuery = (series: StatsSeries, timeframe: string) =>
  queryOptions({ ...resourceQuery('statsHistogram', { ...series, timeframe }), select: chartPoints });

/**
 * The total (the service's bare decimal string, `"294"`) as a number; null when it does not read as one (never
 * NaN: NaN ≠ NaN would re-render forever).
 */
export function summaryValue(summary: StatsSummary | null): number | null {
  if (typeof summary !== 'string' || !/^-?\d+(\.\d+)?$/.test(summary.trim())) return null;
  const value = Number(summary);
  return Number.isFinite(value) ? value : null;
}

/** The total of a series of the statistics service, as a number. */
export const summaryQuery = (series: StatsSeries) =>
  queryOptions({ ...resourceQuery('statsSummary', series), select: summaryValue });
