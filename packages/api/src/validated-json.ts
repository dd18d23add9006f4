/**
 * Answers sent as JSON text built elsewhere (the debug workers build a recording's megabytes of JSON off the
 * API's thread, issue 35): `ValidatedJson<T>` is JSON text that was checked against the TypeBox schema of `T`
 * before it was written. Only `SchemaCheck.stringify` makes one, so a route that sends such a text with
 * `sendValidatedJson` shows in its types that the text was checked against the schema its reply declares.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { FormatRegistry } from '@sinclair/typebox';

declare const checkedAgainst: unique symbol;
/** JSON text of a value that matched the schema of `T` (see `SchemaCheck.stringify`). */
export type ValidatedJson<T> = string & { readonly [checkedAgainst]: T };

/** RFC 3339 date-time, as the OpenAPI document's `format: date-time` means (TypeBox has no formats built in). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
if (!FormatRegistry.Has('date-time'))
  FormatRegistry.Set('date-time', (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)));

/** A schema's compiled checker (compile once, check many): the first error names its path. */
export class SchemaCheck<S extends TSchema> {
  private readonly compiled: TypeCheck<S>;
  constructor(
    readonly schema: S,
    references: TSchema[] = [],
  ) {
    this.compiled = TypeCompiler.Compile(schema, references);
  }

  /** Undefined when `value` matches, else the first error: `/path/to/field: message`. */
  firstError(value: unknown): string | undefined {
    if (this.compiled.Check(value)) return undefined;
    const e = this.compiled.Errors(value).First();
    if (!e) return 'does not match';
    return `${e.path || '/'}: ${e.message}`;
  }

  /** `value` as JSON text when it matches the schema, else the first error. */
  stringify(value: Static<S>): { json: ValidatedJson<Static<S>> } | { error: string } {
    const error = this.firstError(value);
    if (error !== undefined) return { error };
    return { json: JSON.stringify(value) as ValidatedJson<Static<S>> };
  }

  /** JSON text written elsewhere, parsed and checked: the same text when it matches, else the first error. */
  checkText(json: string): { json: ValidatedJson<Static<S>> } | { error: string } {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (e) {
      return { error: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
    const error = this.firstError(value);
    return error !== undefined ? { error } : { json: json as ValidatedJson<Static<S>> };
  }
}

/** A reply whose declared body type accepts `T` (the route's response schema's type). */
interface JsonReply<T, R> {
  type(contentType: string): { send(payload: T): R };
}

/**
 * Sends checked JSON text as it is (no second serialisation on this thread): a reply declared to answer `T`
 * only takes a `ValidatedJson<T>`.
 */
export function sendValidatedJson<T, R>(reply: JsonReply<NoInfer<T>, R>, json: ValidatedJson<T>): R {
  // the text is the JSON of a value of type T (checked by SchemaCheck.stringify): Fastify sends a string as it is
  return reply.type('application/json; charset=utf-8').send(json as unknown as T);
}
