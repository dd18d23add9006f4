/**
 * Shapes of the metadata GraphQL service (/metadata/v1/graphql; workspace spec §7): the request, the rows of
 * its two tables (`contract_metadata`, `token_metadata`) and the GraphQL-over-HTTP answer. A row holds the
 * fields the query selects (under their aliases, if any): the schemas list every field, as the web's queries
 * select them all.
 */
import { Type, type Static, type TObject } from '@sinclair/typebox';

/** The body of POST /metadata/v1/graphql (GET takes the same fields as query parameters). */
export const MetadataGraphqlRequest = Type.Object(
  {
    query: Type.String({ minLength: 1, description: 'a GraphQL query document (no mutations)' }),
    variables: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
        description: 'variable values (GET: as a JSON text)',
      }),
    ),
    operationName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { title: 'MetadataGraphqlRequest' },
);
export type MetadataGraphqlRequest = Static<typeof MetadataGraphqlRequest>;

const rowFields = {
  network: Type.String(),
  contract: Type.String(),
  status: Type.Integer({ description: 'resolution: 1 pending, 2 failed, 3 resolved' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why the resolution failed' }),
  link: Type.Union([Type.String(), Type.Null()], {
    description: 'where the metadata comes from (ipfs://, tezos-storage:, https://)',
  }),
  metadata: Type.Unknown({ description: 'the resolved metadata JSON (null: none yet)' }),
  retry_count: Type.Integer(),
};

/** A row of `contract_metadata`: the TZIP-16 metadata of a contract. */
export const ContractMetadataRow = Type.Object(rowFields, { title: 'ContractMetadataRow' });
export type ContractMetadataRow = Static<typeof ContractMetadataRow>;

/** A row of `token_metadata`: the TZIP-21 metadata of one token. */
export const TokenMetadataRow = Type.Object(
  { ...rowFields, token_id: Type.String({ description: 'numeric, as a decimal string (ids exceed 2^53)' }) },
  { title: 'TokenMetadataRow' },
);
export type TokenMetadataRow = Static<typeof TokenMetadataRow>;

/** One error of a GraphQL answer; `path` locates a field error. */
export const GraphqlError = Type.Object(
  {
    message: Type.String(),
    path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))),
  },
  { title: 'GraphqlError' },
);
export type GraphqlError = Static<typeof GraphqlError>;

/**
 * A row as a GraphQL query answers it: the fields the query selects (any of the row's, none required). Its
 * static type stays the whole row's: the web selects the fields it reads.
 */
const selected = <T extends TObject>(row: T) =>
  Type.Unsafe<Static<T>>(
    Type.Partial(row, {
      title: `${String(row.title)} (selected fields)`,
      description: 'the fields the query selects',
    }),
  );

/**
 * The answer of /metadata/v1/graphql: `data` (absent when the request or document is invalid, null when a
 * root field failed) and `errors` (absent when none).
 */
export const MetadataGraphqlResponse = Type.Object(
  {
    data: Type.Optional(
      Type.Union([
        Type.Object(
          {
            contract_metadata: Type.Optional(Type.Array(selected(ContractMetadataRow))),
            token_metadata: Type.Optional(Type.Array(selected(TokenMetadataRow))),
          },
          { additionalProperties: true, description: 'each root field (or alias) with its rows' },
        ),
        Type.Null(),
      ]),
    ),
    errors: Type.Optional(Type.Array(GraphqlError)),
  },
  { title: 'MetadataGraphqlResponse' },
);
export type MetadataGraphqlResponse = Static<typeof MetadataGraphqlResponse>;

/** A request error (400, 404, 405): errors only. */
export const MetadataGraphqlErrors = Type.Object(
  { errors: Type.Array(GraphqlError) },
  { title: 'MetadataGraphqlErrors' },
);
export type MetadataGraphqlErrors = Static<typeof MetadataGraphqlErrors>;
