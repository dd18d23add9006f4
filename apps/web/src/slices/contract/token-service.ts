/**
 * Whether the token-metadata service exists (workspace spec §2, tab visibility of Tokens): the GraphQL
 * service at /metadata/v1/graphql answers a `token_metadata` selection. A missing route (404), an error
 * answer or a network failure means there is no service and the Tokens tab is hidden. Asked once per page
 * load.
 */
import type { MetadataGraphqlResponse } from '@michelscope/api-types';
import { queryOptions } from '@tanstack/react-query';
import { runAction } from '../../api/resources';

const PROBE = 'query TokenService { token_metadata(limit: 0) { token_id } }';

/** True when a GraphQL answer has `data.token_metadata` as a list and no errors. */
export function answersTokenMetadata(answer: MetadataGraphqlResponse): boolean {
  if (answer.errors && answer.errors.length > 0) return false;
  return Array.isArray(answer.data?.token_metadata);
}

export function tokenServiceQuery() {
  return queryOptions({
    queryKey: ['token_metadata_service'] as const,
    queryFn: async ({ signal }): Promise<boolean> => {
      try {
        return answersTokenMetadata(
          await runAction('metadataGraphql', undefined, { query: PROBE }, { signal }),
        );
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
