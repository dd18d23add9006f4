/**
 * The check of a share link's state against the API's own schemas. The web imports @michelscope/api-types as
 * types only (eslint.config.js), so it cannot import the TypeBox schemas; `npm run openapi` writes their JSON
 * beside the OpenAPI document (src/generated/shared-simulation.schema.json, kept current by `openapi:check`),
 * and this module compiles it once into a checker. The JSON is the subset TypeBox writes for these schemas;
 * a keyword outside it throws when the module loads (a schema change the checker does not understand fails
 * the unit tests, rather than being skipped). No dependency: the ajv the web could reach is the wrong major.
 */
import schemas from '../../../generated/shared-simulation.schema.json';

type Schema = Record<string, unknown>;
/** Checks a value at a path; throws ShareError with the first fault. */
type Check = (v: unknown, at: string) => void;

export class ShareError extends Error {}

const ANNOTATIONS = new Set(['title', 'description']);
const KEYWORDS = new Set([
  'type',
  'required',
  'properties',
  'additionalProperties',
  'patternProperties',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'const',
  'anyOf',
  'items',
  'maxItems',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const child = (at: string, key: string) => (at ? `${at}.${key}` : key);
const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** One schema (and its sub-schemas) compiled into a check. */
export function compile(schema: Schema): Check {
  for (const k of Object.keys(schema))
    if (!KEYWORDS.has(k) && !ANNOTATIONS.has(k)) throw new Error(`share schema: unsupported keyword '${k}'`);
  const checks: Check[] = [];
  const where = (at: string) => at || 'the simulation';
  const type = schema.type as string | undefined;
  if ('const' in schema) {
    const value = schema.const;
    checks.push((v, at) => {
      if (v !== value) throw new ShareError(`${where(at)} must be ${show(value)}`);
    });
  }
  if (schema.anyOf) {
    const branches = schema.anyOf as Schema[];
    if (branches.every((b) => 'const' in b)) {
      const values = branches.map((b) => b.const);
      checks.push((v, at) => {
        if (!values.includes(v))
          throw new ShareError(`${where(at)} must be one of ${values.map(show).join(', ')}`);
      });
    } else {
      const compiled = branches.map(compile);
      checks.push((v, at) => {
        let fault: unknown;
        for (const c of compiled)
          try {
            return c(v, at);
          } catch (e) {
            fault = e;
          }
        throw fault;
      });
    }
  }
  if (type === 'string') {
    const max = schema.maxLength as number | undefined;
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
    checks.push((v, at) => {
      if (typeof v !== 'string') throw new ShareError(`${where(at)} is not a string`);
      if (max !== undefined && v.length > max)
        throw new ShareError(`${where(at)} is longer than ${max} characters`);
      if (pattern && !pattern.test(v)) throw new ShareError(`${where(at)} is not valid`);
    });
  } else if (type === 'integer' || type === 'number') {
    const min = (schema.minimum as number | undefined) ?? -Infinity;
    const max = (schema.maximum as number | undefined) ?? Infinity;
    const whole = type === 'integer';
    checks.push((v, at) => {
      if (typeof v !== 'number' || (whole && !Number.isSafeInteger(v)) || v < min || v > max)
        throw new ShareError(
          `${where(at)} must be a ${whole ? 'whole ' : ''}number${Number.isFinite(min) ? ` from ${min}` : ''}${Number.isFinite(max) ? ` to ${max}` : ''}`,
        );
    });
  } else if (type === 'boolean') {
    checks.push((v, at) => {
      if (typeof v !== 'boolean') throw new ShareError(`${where(at)} is not true or false`);
    });
  } else if (type === 'array') {
    const max = (schema.maxItems as number | undefined) ?? Infinity;
    const item = schema.items ? compile(schema.items as Schema) : undefined;
    checks.push((v, at) => {
      if (!Array.isArray(v)) throw new ShareError(`${where(at)} is not a list`);
      if (v.length > max) throw new ShareError(`${where(at)} has more than ${max} items`);
      if (item) v.forEach((x, i) => item(x, `${where(at)}[${i}]`));
    });
  } else if (type === 'object') {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(
      ([k, s]) => [k, compile(s)] as const,
    );
    const known = new Set(properties.map(([k]) => k));
    const required = (schema.required ?? []) as string[];
    const closed = schema.additionalProperties === false;
    const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>).map(
      ([p, s]) => [new RegExp(p, 'u'), compile(s)] as const,
    );
    checks.push((v, at) => {
      if (!isObject(v)) throw new ShareError(`${where(at)} is not an object`);
      for (const k of required) if (!(k in v)) throw new ShareError(`${child(at, k)} is missing`);
      for (const k of Object.keys(v)) {
        if (closed && !known.has(k))
          throw new ShareError(`${where(at)} has an unknown field '${k.slice(0, 40)}'`);
        for (const [p, c] of patterns) if (p.test(k)) c(v[k], child(at, k));
      }
      for (const [k, c] of properties) if (k in v) c(v[k], child(at, k));
    });
  } else if (type !== undefined) throw new Error(`share schema: unsupported type '${type}'`);
  return (v, at) => {
    for (const c of checks) c(v, at);
  };
}

/** The API's bound on a state's JSON, in bytes (api-types SHARE_MAX_BYTES). */
export const SHARE_MAX_BYTES: number = schemas.maxBytes;

/** The kinds of shared state and their checks, compiled once. */
export const shareChecks = {
  call: compile(schemas.call),
  view: compile(schemas.view),
  deploy: compile(schemas.deploy),
};
