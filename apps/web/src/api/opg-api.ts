/** Operation-group endpoints (/v1/opg, /v1/implicit) with their query factories. */
import { queryOptions } from '@tanstack/react-query';
import { getJson, type RequestOptions } from './client';
import { parseOperations } from './opg-parse';
import type { Operation } from './opg-types';

const enc = encodeURIComponent;

export interface OpgAnswer {
  /** The server's JSON as received (Raw JSON viewer). */
  raw: unknown;
  operations: Operation[];
}

/** All operations of a group, ordered as the server sends them; 204 and [] are both "nothing found". */
export async function fetchOpg(network: string, hash: string, options?: RequestOptions): Promise<OpgAnswer> {
  const raw = await getJson(`/opg/${enc(network)}/${enc(hash)}?with_storage_diff=true`, options);
  return { raw: raw ?? [], operations: parseOperations(raw) };
}

/** The top-level content and its internal operations; implicit operations (no hash) by block level. */
export function fetchOpgContent(
  network: string,
  hash: string,
  counter: number,
  options?: RequestOptions,
): Promise<Operation[]> {
  const path =
    hash === '' ? `/implicit/${enc(network)}/${counter}` : `/opg/${enc(network)}/${enc(hash)}/${counter}`;
  return getJson(path, options).then(parseOperations);
}

export const opgQuery = (network: string, hash: string) =>
  queryOptions({
    queryKey: ['opg', network, hash] as const,
    queryFn: ({ signal }) => fetchOpg(network, hash, { signal }),
    staleTime: 30_000,
  });

export const opgContentQuery = (network: string, hash: string, counter: number) =>
  queryOptions({
    queryKey: ['opg_content', network, hash, counter] as const,
    queryFn: ({ signal }) => fetchOpgContent(network, hash, counter, { signal }),
    staleTime: 30_000,
  });
