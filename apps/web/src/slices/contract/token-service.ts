/**
 * Whether the token-metadata service exists (workspace spec §2, tab visibility of Tokens): the GraphQL
 * service at /metadata/v1/graphql answers a `token_metadata` selection. A missing route (404), an error
 * answer or a network failure means there is no service and the Tokens tab is hidden. Asked once per page
 * load.
 */
import { queryOptions } from '@tanstack/react-query';
import { requestJson } from '../../api/client';
import { METADATA_GRAPHQL_URL } from '../../api/contract-metadata-api';

const PROBE = 'query TokenService { token_metadata(limit: 0) { token_id } }';

/** True when a GraphQL answer has `data.token_metadata` as a list and no errors. */
export function answersTokenMetadata(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) return false;
  if (data === null || typeof data !== 'object') return false;
  return Array.isArray((data as { token_metadata?: unknown }).token_metadata);
}

export function tokenServiceQuery() {
  return queryOptions({
    queryKey: ['token_metadata_service'] as const,
    queryFn: async ({ signal }): Promise<boolean> => {
      try {
        const { body } = await requestJson(METADATA_GRAPHQL_URL, {
          method: 'POST',
          body: { query: PROBE },
          signal,
        });
        return answersTokenMetadata(body);
      } catch (e) {
        if (e instanceof DOMException && e.name === 'AbortError') throw e;
        return false;
      }
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
}
