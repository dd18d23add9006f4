/**
 * The API's compatibility rule, checked by `npm run openapi:check` against docs/openapi.baseline.json (see
 * docs/ARCHITECTURE.md, "Versions of the API and the client"). Within a major version (`info.version`) a change
 * may add routes, methods, optional parameters, optional request fields, response fields and response codes;
 * it may not remove or rename a route, a method, a parameter, a request or response field, a success response or
 * its media type, change a type (except widening what a request accepts or narrowing what a response gives), make
 * a parameter or request field required, or make a response field optional.
 *
 * The baseline is the document reduced to what this comparison reads (`contractOf`): descriptions, summaries and
 * examples are left out, component `$ref`s resolved.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
type Schema = Obj;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const KEEP_OUT = new Set([
  'description',
  'summary',
  'example',
  'examples',
  'tags',
  'externalDocs',
  'operationId',
]);

/** Keys whose value maps names to schemas or objects. */
const NAMED = new Set(['properties', 'patternProperties', 'responses', 'content', 'headers']);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The major version of an `info.version` ('1', '2.3.0' → 2). */
export function majorOf(version: unknown): number {
  const major = Number.parseInt(
    (typeof version === 'string' || typeof version === 'number' ? String(version) : '0').split('.')[0] ?? '0',
    10,
  );
  return Number.isFinite(major) ? major : 0;
}

/** The document with its `#/components/schemas/…` references replaced by their schemas, and without prose. */
export function contractOf(document: unknown): Obj {
  const doc = isObj(document) ? document : {};
  const components = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  // `names`: the value is a map of names (properties, paths, media types), whose keys are never prose
  const strip = (value: Json, seen: string[], names = false): Json => {
    if (Array.isArray(value)) return value.map((v) => strip(v, seen));
    if (!isObj(value)) return value;
    const ref = value.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      const target = components[name];
      if (target === undefined || seen.includes(name)) return { $ref: ref };
      return strip(target, [...seen, name]);
    }
    const out: Obj = {};
    for (const [k, v] of Object.entries(value))
      if (names || !KEEP_OUT.has(k)) out[k] = strip(v, seen, !names && NAMED.has(k));
    return out;
  };
  const info = isObj(doc.info) ? doc.info : {};
  return {
    info: { version: info.version ?? null },
    paths: strip(isObj(doc.paths) ? doc.paths : {}, [], true),
  };
}

type Direction = 'request' | 'response';

/** The JSON types a schema admits (`nullable` included), or undefined when it does not say. */
function typesOf(schema: Schema): Set<string> | undefined {
  const t = schema.type;
  const types = typeof t === 'string' ? [t] : Array.isArray(t) ? t.map(String) : undefined;
  if (!types) return undefined;
  const set = new Set(types);
  if (schema.nullable === true) set.add('null');
  if (set.has('number')) set.add('integer');
  return set;
}

const show = (s: Set<string>) => [...s].filter((t) => !(t === 'integer' && s.has('number'))).join(' | ');

function compareSchema(
  before: Json | undefined,
  after: Json | undefined,
  where: string,
  direction: Direction,
  out: string[],
  depth = 0,
): void {
  if (!isObj(before) || !isObj(after) || depth > 40) return;
  const [bt, at] = [typesOf(before), typesOf(after)];
  if (bt && at) {
    // a request may accept more types than before; a response may give fewer, never more
    const [wider, narrower] = direction === 'request' ? [at, bt] : [bt, at];
    const lost = [...narrower].filter((t) => !wider.has(t));
    if (lost.length > 0) {
      out.push(`${where}: type changed from ${show(bt)} to ${show(at)}`);
      return;
    }
  } else if (bt && !at && direction === 'response' && !('anyOf' in after) && !('oneOf' in after)) {
    out.push(`${where}: type changed from ${show(bt)} to any`);
  }
  // enums: a request must still accept every value it accepted; a response may gain values (clients must
  // tolerate unknown ones) but a request's narrowing is breaking
  if (direction === 'request' && Array.isArray(before.enum)) {
    const now = Array.isArray(after.enum) ? after.enum.map((v) => JSON.stringify(v)) : undefined;
    if (now) {
      const dropped = before.enum.filter((v) => !now.includes(JSON.stringify(v)));
      if (dropped.length > 0)
        out.push(`${where}: no longer accepts ${dropped.map((v) => JSON.stringify(v)).join(', ')}`);
    }
  }
  // object fields
  const bp = isObj(before.properties) ? before.properties : undefined;
  const ap = isObj(after.properties) ? after.properties : {};
  const breq = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const areq = new Set(Array.isArray(after.required) ? after.required.map(String) : []);
  if (bp) {
    for (const [name, schema] of Object.entries(bp)) {
      if (!(name in ap)) {
        const open = after.additionalProperties !== undefined && after.additionalProperties !== false;
        if (!(direction === 'request' && open)) out.push(`${where}.${name}: removed`);
        continue;
      }
      if (direction === 'response' && breq.has(name) && !areq.has(name))
        out.push(`${where}.${name}: no longer always present (made optional)`);
      if (direction === 'request' && !breq.has(name) && areq.has(name))
        out.push(`${where}.${name}: made required`);
      compareSchema(schema, ap[name], `${where}.${name}`, direction, out, depth + 1);
    }
  }
  if (direction === 'request')
    for (const name of areq)
      if (!(bp && name in bp) && !breq.has(name)) out.push(`${where}.${name}: new required field`);
  // arrays and records
  compareSchema(before.items, after.items, `${where}[]`, direction, out, depth + 1);
  if (isObj(before.additionalProperties))
    compareSchema(
      before.additionalProperties,
      after.additionalProperties,
      `${where}{}`,
      direction,
      out,
      depth + 1,
    );
  // unions: alternatives matched by title, else by position
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const b = before[key];
    const a = after[key];
    if (!Array.isArray(b) || !Array.isArray(a)) continue;
    b.forEach((alt, i) => {
      const title = isObj(alt) ? alt.title : undefined;
      const match =
        typeof title === 'string'
          ? a.find((x) => isObj(x) && x.title === title)
          : a.length === b.length
            ? a[i]
            : undefined;
      if (match === undefined) {
        if (direction === 'request' || key === 'allOf')
          out.push(`${where}: alternative ${typeof title === 'string' ? title : i} removed`);
        return;
      }
      compareSchema(
        alt,
        match,
        `${where}(${typeof title === 'string' ? title : i})`,
        direction,
        out,
        depth + 1,
      );
    });
  }
}

const parameters = (op: Obj): Map<string, Obj> =>
  new Map(
    (Array.isArray(op.parameters) ? op.parameters : [])
      .filter(isObj)
      .map((p) => [`${JSON.stringify(p.in)} parameter ${JSON.stringify(p.name)}`.replaceAll('"', ''), p]),
  );

function compareOperation(before: Obj, after: Obj, route: string, out: string[]): void {
  const bparams = parameters(before);
  const aparams = parameters(after);
  for (const [key, p] of bparams) {
    const now = aparams.get(key);
    if (!now) {
      out.push(`${route}: ${key} removed`);
      continue;
    }
    if (p.required !== true && now.required === true) out.push(`${route}: ${key} made required`);
    compareSchema(p.schema, now.schema, `${route}: ${key}`, 'request', out);
  }
  for (const [key, p] of aparams)
    if (!bparams.has(key) && p.required === true) out.push(`${route}: new required ${key}`);

  const bbody = isObj(before.requestBody) ? before.requestBody : undefined;
  const abody = isObj(after.requestBody) ? after.requestBody : undefined;
  if (abody?.required === true && bbody?.required !== true) out.push(`${route}: request body made required`);
  if (bbody && isObj(bbody.content)) {
    const acontent = abody && isObj(abody.content) ? abody.content : {};
    for (const [type, media] of Object.entries(bbody.content)) {
      const now = acontent[type];
      if (!isObj(now)) {
        out.push(`${route}: request body ${type} no longer accepted`);
        continue;
      }
      if (isObj(media)) compareSchema(media.schema, now.schema, `${route}: request body`, 'request', out);
    }
  }

  const bres = isObj(before.responses) ? before.responses : {};
  const ares = isObj(after.responses) ? after.responses : {};
  for (const [code, response] of Object.entries(bres)) {
    if (!/^2/.test(code) || !isObj(response)) continue;
    const now = ares[code];
    if (!isObj(now)) {
      out.push(`${route}: response ${code} removed`);
      continue;
    }
    const bc = isObj(response.content) ? response.content : {};
    const ac = isObj(now.content) ? now.content : {};
    for (const [type, media] of Object.entries(bc)) {
      const m = ac[type];
      if (!isObj(m)) {
        out.push(`${route}: response ${code} ${type} removed`);
        continue;
      }
      if (isObj(media)) compareSchema(media.schema, m.schema, `${route}: response ${code}`, 'response', out);
    }
  }
}

/** Every breaking change from `baseline` to `current` (both OpenAPI documents, or contracts of them). */
export function breakingChanges(baseline: unknown, current: unknown): string[] {
  const before = contractOf(baseline).paths as Obj;
  const after = contractOf(current).paths as Obj;
  const out: string[] = [];
  for (const [route, item] of Object.entries(before)) {
    if (!isObj(item)) continue;
    const now = after[route];
    if (!isObj(now)) {
      out.push(`${route}: route removed`);
      continue;
    }
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const nowOp = now[method];
      if (!isObj(nowOp)) {
        out.push(`${method.toUpperCase()} ${route}: method removed`);
        continue;
      }
      compareOperation(op, nowOp, `${method.toUpperCase()} ${route}`, out);
    }
  }
  return out;
}
