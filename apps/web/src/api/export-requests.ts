/**
 * The streamed exports (issue 21): each table's `…/export` URL with the filters the list shows, and the
 * opening of its stream. Left outside the resource registry: an export is read as it arrives, not as JSON.
 */
import { API_BASE, openStream } from './client';
import { contract, enc, type At } from './resource-builders';

/** The format of an export: CSV or JSON. */
export type ExportFormat = 'csv' | 'json';

/** A streamed export (issue 21): its URL (with the list's filters), and the body of a POST (the search). */
export interface ExportRequest {
  url: string;
  body?: unknown;
}

/** Opens the streamed answer of an export (its URL and body from EXPORTS), to read as it arrives. */
export const openExport = (request: ExportRequest, signal: AbortSignal) =>
  openStream(request.url, { body: request.body, signal });

const query = (format: ExportFormat, extra: Record<string, string | number | boolean | null | undefined>) => {
  const q = new URLSearchParams({ format });
  for (const [k, v] of Object.entries(extra))
    if (v !== null && v !== undefined && v !== '' && v !== false) q.set(k, String(v));
  return q.toString();
};

/**
 * Every table's export, by name: the `…/export` route next to the list, with the filters the list shows
 * (the columns of each are the api-types `…ExportRow` schemas).
 */
export const EXPORTS = {
  /** The operations tab with its filters and search text. */
  operations: (
    p: At & {
      statuses: readonly string[];
      entrypoints: readonly string[];
      range: { gte: number; lt: number } | null;
      search: string;
    },
    format: ExportFormat,
  ): ExportRequest => ({
    url:
      `${API_BASE}${contract(p)}/operations/export?` +
      query(format, {
        status: p.statuses.join(','),
        entrypoint: p.entrypoints.join(','),
        from: p.range ? Math.max(0, Math.floor(p.range.gte)) : null,
        to: p.range ? Math.max(0, Math.floor(p.range.lt)) : null,
        search: p.search.trim(),
      }),
  }),
  /** The keys list of a big map with its search and 'Only active'. */
  bigMapKeys: (
    p: { network: string; ptr: number; search: string; activeOnly: boolean },
    format: ExportFormat,
  ): ExportRequest => ({
    url:
      `${API_BASE}/bigmap/${enc(p.network)}/${p.ptr}/keys/export?` +
      query(format, { search: p.search, active_only: p.activeOnly }),
  }),
  bigMapKeyHistory: (
    p: { network: string; ptr: number; keyHash: string },
    format: ExportFormat,
  ): ExportRequest => ({
    url: `${API_BASE}/bigmap/${enc(p.network)}/${p.ptr}/keys/${enc(p.keyHash)}/export?${query(format, {})}`,
  }),
  events: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/events/export?${query(format, {})}`,
  }),
  accountTicketUpdates: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}/account/${enc(p.network)}/${enc(p.address)}/ticket_updates/export?${query(format, {})}`,
  }),
  /** The ticket updates of one operation (its card on the operation group page). */
  operationTicketUpdates: (p: { network: string; id: number }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}/operation/${enc(p.network)}/${p.id}/ticket_updates/export?${query(format, {})}`,
  }),
  /** The tokens tab with its search. */
  tokens: (p: At & { search: string }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/tokens/export?${query(format, { search: p.search })}`,
  }),
  tokenHolders: (p: At & { tokenId: string }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/tokens/holders/export?${query(format, { token_id: p.tokenId })}`,
  }),
  sameContracts: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/same/export?${query(format, {})}`,
  }),
  migrations: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/migrations/export?${query(format, {})}`,
  }),
  recentlyCalled: (p: { network: string }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}/stats/${enc(p.network)}/recently_called_contracts/export?${query(format, {})}`,
  }),
  /** The search page's query and filters (POST, as the search itself). */
  search: (p: { query: string; filters: unknown }, format: ExportFormat): ExportRequest => ({
    url: `/search/v1/search/export?${query(format, {})}`,
    body: { query: p.query, filters: p.filters },
  }),
};
