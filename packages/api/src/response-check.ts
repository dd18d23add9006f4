/**
 * The tests' check that every answer is what its route declares (issue 35): an `onSend` hook that parses each
 * JSON answer with a 2xx or 4xx status and checks it against the route's response schema for that status
 * (compiled TypeBox checkers, one per route and status). Fastify serialises an object through the schema, but
 * JSON text a route sends as it is (the debugger's, built in its workers) is not: here it is parsed and
 * checked too. A mismatch throws: the request answers 500 naming the route, the status and the first failing
 * path, so the test that made it fails. Non-JSON answers (CSV, HTML, event streams) and empty ones are skipped.
 */
import * as types from '@michelscope/api-types';
import * as TypeBox from '@sinclair/typebox';
import { TypeGuard, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';
import { SchemaCheck } from './validated-json';

/** An answer that does not match its route's response schema. */
export class ResponseSchemaError extends HttpError {
  constructor(message: string) {
    super(500, message);
    this.name = 'ResponseSchemaError';
  }
}

/** The schema a response entry declares for JSON: the schema itself, or its `content['application/json']`. */
function jsonSchemaOf(entry: unknown): TSchema | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const content = (entry as { content?: Record<string, { schema?: unknown } | undefined> }).content;
  if (content && typeof content === 'object') {
    const json = Object.entries(content).find(([type]) => type.includes('json'))?.[1];
    return json?.schema as TSchema | undefined;
  }
  return entry as TSchema;
}

/** The route's response entry for `status`: `200`, else `2xx`, else `default`. */
function entryFor(response: Record<string, unknown>, status: number): unknown {
  return response[String(status)] ?? response[`${String(status)[0]}xx`] ?? response.default;
}

/**
 * The shared schemas `schema` refers to (`$ref: 'ErrorBody'`…, schemas.ts's `ref`): the api-types schema of
 * that name with its `$id` (Fastify's `getSchemas()` has them as JSON clones, which TypeBox cannot compile).
 */
function sharedSchemas(schema: unknown, found = new Map<string, TSchema>()): TSchema[] {
  if (Array.isArray(schema)) for (const s of schema) sharedSchemas(s, found);
  else if (schema && typeof schema === 'object') {
    const id = (schema as { $ref?: unknown }).$ref;
    const named = typeof id === 'string' ? (types as Record<string, unknown>)[id] : undefined;
    if (typeof id === 'string' && !found.has(id) && named && TypeGuard.IsSchema(named)) {
      found.set(id, { ...named, $id: id });
      sharedSchemas(named, found);
    }
    for (const v of Object.values(schema)) sharedSchemas(v, found);
  }
  return [...found.values()];
}

/**
 * `schema` as this TypeBox's (0.34) types, which its compiler needs. Routes that take `Type` from
 * @fastify/type-provider-typebox build their outer schemas with TypeBox 1.x (`Type.Array(ref('Head'))`):
 * the same JSON Schema without 0.34's kind, rebuilt here from its keywords around the 0.34 schemas inside.
 */
function asTypeBox(schema: unknown): TSchema {
  if (TypeGuard.IsSchema(schema)) return schema;
  if (!schema || typeof schema !== 'object') throw new Error(`not a schema: ${String(schema)}`);
  const {
    type,
    items,
    properties,
    required,
    anyOf,
    $ref,
    const: literal,
    ...options
  } = schema as Record<string, unknown>;
  if (typeof $ref === 'string') return TypeBox.Type.Ref($ref, options);
  if (Array.isArray(anyOf)) return TypeBox.Type.Union(anyOf.map(asTypeBox), options);
  if (literal !== undefined) return TypeBox.Type.Literal(literal as string | number | boolean, options);
  switch (type) {
    case 'array':
      return TypeBox.Type.Array(asTypeBox(items), options);
    case 'object': {
      const need = new Set(Array.isArray(required) ? (required as string[]) : []);
      const props: Record<string, TSchema> = {};
      for (const [k, v] of Object.entries((properties ?? {}) as Record<string, unknown>))
        props[k] = need.has(k) ? asTypeBox(v) : TypeBox.Type.Optional(asTypeBox(v));
      return TypeBox.Type.Object(props, options);
    }
    case 'string':
      return TypeBox.Type.String(options);
    case 'integer':
      return TypeBox.Type.Integer(options);
    case 'number':
      return TypeBox.Type.Number(options);
    case 'boolean':
      return TypeBox.Type.Boolean(options);
    case 'null':
      return TypeBox.Type.Null(options);
    case undefined:
      return TypeBox.Type.Unknown(options);
  }
  throw new Error(`a schema of type ${JSON.stringify(type)} is not supported here`);
}

const routeOf = (request: FastifyRequest) => `${request.method} ${request.routeOptions.url ?? request.url}`;

function isJson(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}

/**
 * Adds the check to `app` (before the routes are registered: hooks reach the scopes registered after them).
 * Used by `buildApi` with `validateResponses` (on under Vitest).
 */
export function checkResponses(app: FastifyInstance): void {
  // per route and status: the compiled checker, or null when nothing is declared
  const checkers = new Map<string, Map<number, SchemaCheck<TSchema> | null>>();
  const checkerFor = (request: FastifyRequest, status: number): SchemaCheck<TSchema> | null => {
    const route = routeOf(request);
    const response = (request.routeOptions.schema as { response?: Record<string, unknown> } | undefined)
      ?.response;
    if (!response) return null;
    let byStatus = checkers.get(route);
    if (!byStatus) checkers.set(route, (byStatus = new Map()));
    let checker = byStatus.get(status);
    if (checker === undefined) {
      const entry = jsonSchemaOf(entryFor(response, status));
      const declared = entry && asTypeBox(entry);
      try {
        checker = declared ? new SchemaCheck(declared, sharedSchemas(declared)) : null;
      } catch (e) {
        throw new ResponseSchemaError(
          `${route}: its response schema for ${status} does not compile: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      byStatus.set(status, checker);
    }
    return checker;
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    if (!((status >= 200 && status < 300) || (status >= 400 && status < 500))) return payload;
    if (!isJson(reply)) return payload;
    const text =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    // a stream (or nothing: 204, 304) is not checked
    if (text === undefined || text === '') return payload;
    const checker = checkerFor(request, status);
    if (!checker) return payload;
    const checked = checker.checkText(text);
    if ('error' in checked) {
      throw new ResponseSchemaError(
        `response schema mismatch: ${routeOf(request)} answered ${status} with a body that does not match its schema at ${checked.error}`,
      );
    }
    return payload;
  });
}
