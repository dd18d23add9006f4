/**
 * The search service (/search/v1) and the statistics service (/stats/v1): same origin, 10 s timeout.
 * A non-2xx answer of the search service is an error carrying the status code and status text.
 */
import { requestJson, type RequestOptions } from './client';
import { aliasFromSources, parseMimeTypes, parseSearchResponse, parseSuggestResponse } from './search-parse';
import type { SearchItem, SearchRequest, SearchResponse } from './search-types';
import { parseChartPoints, parseSummary, type ChartPoint, type StatsSeriesSpec } from './stats-types';

export const SEARCH_BASE = '/search/v1';
export const STATS_BASE = '/stats/v1';
export const SERVICE_TIMEOUT_MS = 10_000;
/** Suggestions and search pages hold 10 items (discovery spec §9). */
export const SUGGEST_SIZE = 10;
export const SEARCH_PAGE_SIZE = 10;

const enc = encodeURIComponent;

const statusError = (response: Response): string =>
  `Search service error: ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;

const searchOptions = (options: RequestOptions) => ({
  timeoutMs: SERVICE_TIMEOUT_MS,
  ...options,
  errorMessage: statusError,
});

export async function suggest(query: string, options: RequestOptions = {}): Promise<SearchItem[]> {
  const { body } = await requestJson(`${SEARCH_BASE}/suggest`, {
    ...searchOptions(options),
    method: 'POST',
    body: { query, size: SUGGEST_SIZE, filters: {} },
  });
  return parseSuggestResponse(body);
}

export async function search(request: SearchRequest, options: RequestOptions = {}): Promise<SearchResponse> {
  const { body } = await requestJson(`${SEARCH_BASE}/search`, {
    ...searchOptions(options),
    method: 'POST',
    body: request,
  });
  return parseSearchResponse(body);
}

/** The alias of an account, or null (204: the service knows no name). */
export async function fetchAlias(
  network: string,
  address: string,
  options: RequestOptions = {},
): Promise<string | null> {
  const { status, body } = await requestJson(
    `${SEARCH_BASE}/account/${enc(network)}/${enc(address)}`,
    searchOptions(options),
  );
  return status === 204 ? null : aliasFromSources(body);
}

export async function fetchMimeTypes(options: RequestOptions = {}): Promise<string[]> {
  const { body } = await requestJson(`${SEARCH_BASE}/mime_types`, searchOptions(options));
  return parseMimeTypes(body);
}

function statsQuery(network: string, spec: StatsSeriesSpec): string {
  const params = new URLSearchParams({ network, ...spec.filters });
  return params.toString();
}

/** GET /stats/v1/histogram/{table}/{function}/{timeframe}?network=…&filters: points {ts, value}. */
export async function fetchHistogram(
  network: string,
  spec: StatsSeriesSpec,
  timeframe: string,
  options: RequestOptions = {},
): Promise<ChartPoint[]> {
  const url = `${STATS_BASE}/histogram/${enc(spec.table)}/${enc(spec.fn)}/${enc(timeframe)}?${statsQuery(network, spec)}`;
  const { body } = await requestJson(url, { timeoutMs: SERVICE_TIMEOUT_MS, ...options });
  return parseChartPoints(body);
}

/** GET /stats/v1/summary/{table}/{function}?network=…&filters: one number. */
export async function fetchSummary(
  network: string,
  spec: StatsSeriesSpec,
  options: RequestOptions = {},
): Promise<number> {
  const url = `${STATS_BASE}/summary/${enc(spec.table)}/${enc(spec.fn)}?${statsQuery(network, spec)}`;
  const { body } = await requestJson(url, { timeoutMs: SERVICE_TIMEOUT_MS, ...options });
  return parseSummary(body);
}
