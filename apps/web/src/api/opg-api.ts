/** Operation-group queries (/v1/opg, /v1/implicit), built on the resource registry. */
import { queryOptions } from '@tanstack/react-query';
import { resourceQuery } from './resources';

/** All operations of a group, in the server's order (an unknown hash gives []). */
export const opgQuery = (network: string, hash: string) =>
  queryOptions({ ...resourceQuery('opg', { network, hash }), staleTime: 30_000 });

/** The top-level content and its internal operations; implicit operations (no hash) by block level. */
export const opgContentQuery = (network: string, hash: string, counter: number) =>
  queryOptions({ ...resourceQuery('opgContent', { network, hash, counter }), staleTime: 30_000 });

/** A group's flow graph (issue 37): asked for only when the Flow view opens. */
export const opgFlowQuery = (network: string, hash: string) =>
  queryOptions({ ...resourceQuery('opgFlow', { network, hash }), staleTime: 60_000 });
