/**
 * Operation search of the operations tab through the search service (POST /search/v1/search, 10 s):
 * the text plus the account, status, entrypoint and date filters; pages of 20 (workspace spec §9).
 */
import type { RequestOptions } from './client';
import type { OpgRow } from './opg-types';
import { runAction } from './resources';

export const OPERATION_SEARCH_PAGE_SIZE = 20;

export interface OperationSearch {
  network: string;
  address: string;
  text: string;
  /** Already reduced to searchable statuses ([] = any). */
  statuses: string[];
  entrypoints: string[];
  range: { gte: number; lt: number } | null;
}

export async function searchOperations(
  request: OperationSearch,
  offset: number,
  options: RequestOptions = {},
): Promise<OpgRow[]> {
  const filters: Record<string, unknown> = {
    network: [request.network],
    index: ['operations'],
    address: [request.address],
  };
  if (request.statuses.length) filters.status = request.statuses;
  if (request.entrypoints.length) filters.entrypoint = request.entrypoints;
  if (request.range) {
    filters.timestamp = {
      gte: new Date(request.range.gte).toISOString(),
      lt: new Date(request.range.lt).toISOString(),
    };
  }
  const { items } = await runAction(
    'search',
    undefined,
    { query: request.text, size: OPERATION_SEARCH_PAGE_SIZE, offset, filters: { search: filters } },
    options,
  );
  // the rows of the list from the operation items (the account's search sends the group's figures)
  return items
    .flatMap((item) => (item.type === 'operation' ? [item] : []))
    .map((item) => ({
      last_id: 0,
      content_index: 0,
      counter: item.body.Counter ?? 0,
      level: item.body.Level,
      total_cost: item.body.TotalCost ?? 0,
      flow: item.body.Flow ?? 0,
      internals: item.body.Internals ?? 0,
      hash: item.body.Hash || item.value,
      entrypoint: item.body.Entrypoint,
      timestamp: item.body['@timestamp'],
      status: item.body.Status || 'applied',
      kind: item.body.Type || 'transaction',
      mempool: item.body.mempool,
    }));
}
