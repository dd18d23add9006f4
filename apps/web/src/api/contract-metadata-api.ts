/**
 * Token and contract metadata (GraphQL service at /metadata/v1/graphql; workspace spec §7): queries
 * GetContractMetadata, GetTokenMetadata and FindTokenMetadata. A failed GraphQL call throws.
 */
import { queryOptions } from '@tanstack/react-query';
import { ApiError, requestJson, type RequestOptions } from './client';
import { isObject, type Json } from './parse';
import { num, optStr, str } from './json-fields';

export const METADATA_GRAPHQL_URL = '/metadata/v1/graphql';
/** Tokens tab page size (workspace spec §9). */
export const TOKENS_PAGE_SIZE = 20;

/** Resolution status: 1 pending, 2 failed, anything else resolved. */
export interface MetadataEntry {
  network: string;
  contract: string;
  metadata: unknown;
  link: string;
  status: number;
  error: string;
  retry_count: number;
}

export interface TokenMetadataEntry extends MetadataEntry {
  token_id: string;
}

const FIELDS = 'network contract error link metadata status retry_count';

const CONTRACT_QUERY = `query GetContractMetadata($network: String!, $contract: String!) {
  contract_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}}, limit: 1) { ${FIELDS} }
}`;

const TOKENS_QUERY = `query GetTokenMetadata($network: String!, $contract: String!, $limit: Int!, $offset: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}}, order_by: {token_id: asc}, limit: $limit, offset: $offset) { token_id ${FIELDS} }
}`;

/** Tokens whose name or symbol contains the text (not the whole metadata JSON, whose images match anything). */
const FIND_TOKENS_QUERY = `query FindTokenMetadata($network: String!, $contract: String!, $name: String!, $limit: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, _or: [{name: {_ilike: $name}}, {symbol: {_ilike: $name}}]}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;

/** A number also finds the token with that id (`?search={tokenId}` from a search card). */
const FIND_TOKENS_BY_ID_QUERY = `query FindTokenMetadataById($network: String!, $contract: String!, $name: String!, $id: String!, $limit: Int!) {
  token_metadata(where: {network: {_eq: $network}, contract: {_eq: $contract}, _or: [{token_id: {_eq: $id}}, {name: {_ilike: $name}}, {symbol: {_ilike: $name}}]}, order_by: {token_id: asc}, limit: $limit) { token_id ${FIELDS} }
}`;

async function graphql(
  query: string,
  variables: Record<string, unknown>,
  field: string,
  options?: RequestOptions,
): Promise<Json[]> {
  const { body } = await requestJson(METADATA_GRAPHQL_URL, {
    ...options,
    method: 'POST',
    body: { query, variables },
  });
  if (!isObject(body)) throw new ApiError('Unexpected answer from the metadata service', 0);
  if (Array.isArray(body.errors) && body.errors.length > 0) {
    const first: unknown = body.errors[0];
    throw new ApiError(
      isObject(first) && typeof first.message === 'string' ? first.message : 'Metadata service error',
      0,
    );
  }
  const rows = isObject(body.data) ? body.data[field] : undefined;
  return Array.isArray(rows) ? rows.filter(isObject) : [];
}

function entry(o: Json): MetadataEntry {
  return {
    network: str(o, 'network'),
    contract: str(o, 'contract'),
    metadata: o.metadata ?? null,
    link: str(o, 'link'),
    status: num(o, 'status'),
    error: str(o, 'error'),
    retry_count: num(o, 'retry_count'),
  };
}

export function contractMetadataQuery(network: string, address: string) {
  return queryOptions({
    queryKey: ['contract_metadata', network, address] as const,
    queryFn: async ({ signal }) => {
      const rows = await graphql(CONTRACT_QUERY, { network, contract: address }, 'contract_metadata', {
        signal,
      });
      return rows[0] ? entry(rows[0]) : null;
    },
    staleTime: 60_000,
    retry: false,
    // Without metadata the tab is simply hidden.
    meta: { silent: true },
  });
}

const tokenEntry = (o: Json): TokenMetadataEntry => ({
  ...entry(o),
  token_id: optStr(o, 'token_id') ?? (typeof o.token_id === 'number' ? String(o.token_id) : ''),
});

/** A page of token metadata; with `search` (1..255 characters, trimmed) a name or token id lookup. */
export function tokensQuery(network: string, address: string, offset: number, search: string) {
  return queryOptions({
    queryKey: ['token_metadata', network, address, offset, search] as const,
    queryFn: async ({ signal }) => {
      const rows =
        search === ''
          ? await graphql(
              TOKENS_QUERY,
              { network, contract: address, limit: TOKENS_PAGE_SIZE, offset },
              'token_metadata',
              { signal },
            )
          : await graphql(
              /^\d{1,78}$/.test(search) ? FIND_TOKENS_BY_ID_QUERY : FIND_TOKENS_QUERY,
              { network, contract: address, name: `%${search}%`, id: search, limit: TOKENS_PAGE_SIZE },
              'token_metadata',
              { signal },
            );
      return rows.map(tokenEntry);
    },
  });
}
