/**
 * Token and contract metadata (GraphQL service at /metadata/v1/graphql; workspace spec §7): queries
 * GetContractMetadata, GetTokenMetadata and FindTokenMetadata. A failed GraphQL call throws.
 */
import type {
  ContractMetadataRow,
  MetadataGraphqlRequest,
  MetadataGraphqlResponse,
  TokenMetadataRow,
} from '@michelscope/api-types';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, type RequestOptions } from './client';
import { runAction } from './resources';

/** Tokens tab page size (workspace spec §9). */
export const TOKENS_PAGE_SIZE = 20;

/** A contract's metadata; resolution status: 1 pending, 2 failed, anything else resolved. */
export type MetadataEntry = ContractMetadataRow;
export type TokenMetadataEntry = TokenMetadataRow;

const FIELDS = 'network contract error link metadata status retry_count';

const CONTRACT_QUERY = `query GetContractMetadata($network: String!, $contract: String!) {
  contract_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}}, limit: 1) { ${FIELDS} }
}`;

const TOKENS_QUERY = `query GetTokenMetadata($network: String!, $contract: String!, $limit: Int!, $offset: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}}, order_by: {token_id: asc}, limit: $limit, offset: $offset) { token_id ${FIELDS} }
}`;

/** The page after a token id (keyset: the same cost at any depth of a contract with 100,000 tokens). */
const TOKENS_AFTER_QUERY = `query GetTokenMetadataAfter($network: String!, $contract: String!, $limit: Int!, $after: String!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, token_id: {_gt: $after}}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;

/** Tokens whose name or symbol contains the text (not the whole metadata JSON, whose images match anything). */
const FIND_TOKENS_QUERY = `query FindTokenMetadata($network: String!, $contract: String!, $name: String!, $limit: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, _or: [{name: {_ilike: $name}}, {symbol: {_ilike: $name}}]}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;

/** A number also finds the token with that id (`?search={tokenId}` from a search card). */
const FIND_TOKENS_BY_ID_QUERY = `query FindTokenMetadataById($network: String!, $contract: String!, $name: String!, $id: String!, $limit: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, _or: [{token_id: {_eq: $id}}, {name: {_ilike: $name}}, {symbol: {_ilike: $name}}]}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;

/** Runs a query of the metadata service; an answer with errors throws its first message. */
async function graphql(
  body: MetadataGraphqlRequest,
  options?: RequestOptions,
): Promise<NonNullable<MetadataGraphqlResponse['data']>> {
  const answer = await runAction('metadataGraphql', undefined, body, options);
  const first = answer.errors?.[0];
  if (first) throw new ApiError(first.message || 'Metadata service error', 0);
  return answer.data ?? {};
}

export function contractMetadataQuery(network: string, address: string) {
  return queryOptions({
    queryKey: ['contract_metadata', network, address] as const,
    queryFn: async ({ signal }): Promise<MetadataEntry | null> => {
      const data = await graphql(
        { query: CONTRACT_QUERY, variables: { network, contract: address } },
        { signal },
      );
      return data.contract_metadata?.[0] ?? null;
    },
    staleTime: 60_000,
    retry: false,
    // Without metadata the tab is simply hidden.
    meta: { silent: true },
  });
}

/**
 * A page of token metadata; with `search` (1..255 characters, trimmed) a name or token id lookup. `after`
 * (without a search): the last token id of the page before, read by keyset instead of `offset`.
 */
export function tokensQuery(
  network: string,
  address: string,
  offset: number,
  search: string,
  after?: string,
) {
  return queryOptions({
    queryKey: ['token_metadata', network, address, offset, search, after ?? null] as const,
    queryFn: async ({ signal }): Promise<TokenMetadataEntry[]> => {
      const data = await graphql(
        search === '' && after !== undefined
          ? {
              query: TOKENS_AFTER_QUERY,
              variables: { network, contract: address, limit: TOKENS_PAGE_SIZE, after },
            }
          : search === ''
            ? {
                query: TOKENS_QUERY,
                variables: { network, contract: address, limit: TOKENS_PAGE_SIZE, offset },
              }
            : {
                query: /^\d{1,78}$/.test(search) ? FIND_TOKENS_BY_ID_QUERY : FIND_TOKENS_QUERY,
                variables: {
                  network,
                  contract: address,
                  name: `%${search}%`,
                  id: search,
                  limit: TOKENS_PAGE_SIZE,
                },
              },
        { signal },
      );
      return data.token_metadata ?? [];
    },
  });
}
