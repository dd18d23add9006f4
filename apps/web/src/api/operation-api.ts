/** Per-operation endpoints (/v1/operation/{network}/{id}/…) with their query factories. */
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './client';
import { parseTicketUpdates } from './contract-parse';
import { resourceQuery } from './resources';

const base = (network: string, id: number) => `/operation/${encodeURIComponent(network)}/${id}`;

/** Storage diff of an applied operation (null when it has none). */
export const operationDiffQuery = (network: string, id: number) =>
  queryOptions({ ...resourceQuery('operationDiff', { network, id }), staleTime: Infinity });

export const errorLocationQuery = (network: string, id: number) =>
  queryOptions({ ...resourceQuery('errorLocation', { network, id }), staleTime: Infinity });

export const operationTicketUpdatesQuery = (network: string, id: number) =>
  queryOptions({
    queryKey: ['operation_ticket_updates', network, id] as const,
    queryFn: ({ signal }) =>
      getJson(`${base(network, id)}/ticket_updates`, { signal }).then(parseTicketUpdates),
    staleTime: Infinity,
  });
