/** Per-operation endpoints (/v1/operation/{network}/{id}/…) with their query factories. */
import { queryOptions } from '@tanstack/react-query';
import { resourceQuery } from './resources';

/** Storage diff of an applied operation (null when it has none). */
export const operationDiffQuery = (network: string, id: number) =>
  queryOptions({ ...resourceQuery('operationDiff', { network, id }), staleTime: Infinity });

export const errorLocationQuery = (network: string, id: number) =>
  queryOptions({ ...resourceQuery('errorLocation', { network, id }), staleTime: Infinity });

export const operationTicketUpdatesQuery = (network: string, id: number) =>
  queryOptions({ ...resourceQuery('operationTicketUpdates', { network, id }), staleTime: Infinity });
