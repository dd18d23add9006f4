import { Block, ConfigResponse, ErrorBody, Head } from '@michelscope/api-types';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

/** The api-types schemas registered once per app, so the OpenAPI document lists them as components. */
const SHARED = { ErrorBody, ConfigResponse, Head, Block } as const;
type SharedId = keyof typeof SHARED;

export function addSharedSchemas(app: FastifyInstance): void {
  for (const [id, schema] of Object.entries(SHARED)) app.addSchema({ ...schema, $id: id });
}

/** A `$ref` to a shared schema that keeps its static type for the TypeBox type provider. */
export function ref<Id extends SharedId>(
  id: Id,
): ReturnType<typeof Type.Unsafe<Static<(typeof SHARED)[Id]>>> {
  return Type.Unsafe<Static<(typeof SHARED)[Id]>>(Type.Ref(id));
}

/** Name components after their schema id instead of `def-N`. */
export function componentName(
  json: Record<string, unknown>,
  _baseUri: unknown,
  _fragment: unknown,
  i: number,
): string {
  return typeof json.$id === 'string' ? json.$id : `def-${i}`;
}
