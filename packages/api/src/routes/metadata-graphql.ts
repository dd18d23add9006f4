import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  execute,
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
} from 'graphql';
import {
  MetadataGraphqlErrors,
  MetadataGraphqlRequest,
  MetadataGraphqlResponse,
} from '@michelscope/api-types';
import type { ApiContext } from '../context';
import {
  documentDepth,
  MAX_DEPTH,
  MAX_QUERY_LENGTH,
  MAX_ROOT_FIELDS,
  metadataSchema,
  MetadataQueryError,
} from '../services/metadata-graphql';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const BODY_LIMIT = 256 * 1024;

type Params = { query?: unknown; variables?: unknown; operationName?: unknown };

/** A request error answered as `{"errors":[{"message"}]}` (GraphQL over HTTP). */
class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(reply: FastifyReply, request: FastifyRequest, status: number, body: unknown) {
  const accept = request.headers.accept ?? '';
  const type = accept.includes(GRAPHQL_RESPONSE) ? GRAPHQL_RESPONSE : 'application/json';
  // sent as JSON text: a row holds the fields the query selects, under its aliases, which the documented
  // response schema (every field of a row) would otherwise drop or require
  return reply.code(status).type(`${type}; charset=utf-8`).send(JSON.stringify(body));
}

const errorsBody = (messages: string[]) => ({ errors: messages.map((message) => ({ message })) });

/**
 * POST and GET /metadata/v1/graphql. Malformed requests (no query, bad variables, invalid JSON) → 400. Documents
 * that do not parse or validate → 200 with `errors` for `application/json`, 400 when the client accepts
 * `application/graphql-response+json`. Field errors → 200 with `data` and `errors`.
 */
export const metadataGraphqlRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  const schema = metadataSchema(ctx.readDb);

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const status = error instanceof RequestError ? error.status : ((error as FastifyError).statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, 'graphql request failed');
      return send(reply, request, 500, errorsBody(['internal server error']));
    }
    return send(reply, request, status, errorsBody([error.message || 'bad request']));
  });
  app.setNotFoundHandler((request, reply) => send(reply, request, 404, errorsBody(['not found'])));

  const handle = async (
    params: Params,
    method: 'GET' | 'POST',
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const { query, operationName } = params;
    let variables = params.variables;
    if (typeof query !== 'string' || query.trim() === '')
      throw new RequestError(400, 'a "query" string is required');
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
      throw new RequestError(400, '"operationName" must be a string');
    if (method === 'GET' && typeof variables === 'string') {
      try {
        variables = JSON.parse(variables) as unknown;
      } catch {
        throw new RequestError(400, '"variables" must be a JSON object');
      }
    }
    if (
      variables !== undefined &&
      variables !== null &&
      (typeof variables !== 'object' || Array.isArray(variables))
    )
      throw new RequestError(400, '"variables" must be an object');

    const documentError = (errors: readonly GraphQLError[] | string[]) => {
      const accept = request.headers.accept ?? '';
      const messages = errors.map((e) => (typeof e === 'string' ? e : e.message));
      return send(reply, request, accept.includes(GRAPHQL_RESPONSE) ? 400 : 200, errorsBody(messages));
    };
    if (query.length > MAX_QUERY_LENGTH)
      return documentError([`query longer than ${MAX_QUERY_LENGTH} characters`]);
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: 4000 });
    } catch (e) {
      return documentError([e instanceof GraphQLError ? e.message : 'syntax error']);
    }
    if (documentDepth(document) > MAX_DEPTH) return documentError([`query nested deeper than ${MAX_DEPTH}`]);
    const errors = validate(schema, document, undefined, { maxErrors: 10 }).filter((e) => !hasuraLenient(e));
    if (errors.length > 0) return documentError(errors);
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    const operation =
      operations.length === 1 && !operationName
        ? operations[0]
        : operations.find((d) => d.name?.value === operationName);
    if (operation && operation.operation !== OperationTypeNode.QUERY) {
      if (method === 'GET') throw new RequestError(405, 'only queries are allowed with GET');
      return documentError(['only queries are supported']);
    }
    if (operation && operation.selectionSet.selections.length > MAX_ROOT_FIELDS)
      return documentError([`more than ${MAX_ROOT_FIELDS} root fields`]);

    const result: ExecutionResult = await execute({
      schema,
      document,
      variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
      operationName: typeof operationName === 'string' ? operationName : undefined,
    });
    const body: Record<string, unknown> = {};
    if (result.errors?.length) {
      body.errors = result.errors.map((e) => {
        const known = !e.originalError || e.originalError instanceof MetadataQueryError;
        if (!known) request.log.error({ err: e.originalError }, 'graphql field failed');
        return { message: known ? e.message : 'internal error', ...(e.path ? { path: e.path } : {}) };
      });
    }
    if (result.data !== undefined) body.data = result.data;
    // no data at all: variables that do not coerce, or no operation to run (a request error)
    const status =
      result.data === undefined && request.headers.accept?.includes(GRAPHQL_RESPONSE) ? 400 : 200;
    return send(reply, request, status, body);
  };

  const summary = 'Metadata GraphQL (token_metadata, contract_metadata)';
  const description =
    'GraphQL over HTTP (Hasura-compatible queries of the BCD frontend and DipDup). A row holds the fields the ' +
    'query selects, under their aliases. Malformed requests answer 400 `{"errors"}`; a document that does not ' +
    'parse or validate answers 200 with `errors` (400 when the client accepts ' +
    '`application/graphql-response+json`).';
  const response = {
    200: MetadataGraphqlResponse,
    400: MetadataGraphqlErrors,
    404: MetadataGraphqlErrors,
    405: MetadataGraphqlErrors,
  };
  app.post(
    '/graphql',
    {
      bodyLimit: BODY_LIMIT,
      schema: { summary, description, tags: ['metadata'], body: MetadataGraphqlRequest, response },
      // the body is documented, and checked by `handle` (its GraphQL errors, without type coercion)
      validatorCompiler: () => () => true,
    },
    (request, reply) => handle((request.body ?? {}) as Params, 'POST', request, reply),
  );
  app.get('/graphql', { schema: { summary, description, tags: ['metadata'], response } }, (request, reply) =>
    handle(request.query as Params, 'GET', request, reply),
  );
};

/**
 * Hasura accepts a list variable of `[numeric]` or `[String]` (nullable items) where `_in`/`_nin` expect
 * `[String!]`: the BCD frontend's FindTokenMetadata declares `$token_id: [numeric]`, a DipDup variant `[String]`.
 * Those position errors are dropped; the values arrive as strings (numeric parses to a decimal string).
 */
const LENIENT_LIST =
  /^Variable "\$\w+" of type "\[(numeric|String)!?\]!?" used in position expecting type "\[String!\]"\.$/;
function hasuraLenient(e: GraphQLError): boolean {
  return LENIENT_LIST.test(e.message);
}
