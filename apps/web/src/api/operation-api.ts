/** Per-operation endpoints (/v1/operation/{network}/{id}/…) with their query factories. */
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './client';
import { parseMiguel, parseTicketUpdates } from './contract-parse';
import { parseErrorLocation } from './opg-parse';

const base = (network: string, id: number) => `/operation/${encodeURIComponent(network)}/${id}`;

/** Storage diff of an applied operation (null when it has none). */
export const operationDiffQuery = (network: string, id: number) =>
  queryOptions({
    queryKey: ['operation_diff', network, id] as const,
    queryFn: ({ signal }) => getJson(`${base(network, id)}/diff`, { signal }).then(parseMiguel),
    staleTime: Infinity,
  });

export const errorLocationQuery = (network: string, id: number) =>
  queryOptions({
    queryKey: ['operation_error_location', network, id] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, id)}/error_location`, { signal }).then(parseErrorLocation),
    staleTime: Infinity,
  });

export const operationTicketUpdatesQuery = (network: string, id: number) =>
  queryOptions({
    queryKey: ['operation_ticket_updates', network, id] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, id)}/ticket_updates`, { signal }).then(parseTicketUpdates),
    staleTime: Infinity,
  });
