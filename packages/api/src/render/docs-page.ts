/**
 * A self-contained HTML reference of the OpenAPI document (GET /v1/docs): no script, no external resource.
 * Every string from the document is escaped.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const MAX_DEPTH = 6;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const e = (v: unknown) => escapeHtml(typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
const anchor = (s: string) => `s-${s.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** A compact, readable type: `{ name: string, items?: Head[] }`, `integer ≥ 0`, `"a" | "b"`. */
export function describeSchema(schema: unknown, depth = 0): string {
  if (!isObj(schema)) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? schema.$ref;
    return `<a href="#${e(anchor(name))}">${e(name)}</a>`;
  }
  if (depth > MAX_DEPTH) return '…';
  const nullable = schema.nullable === true ? ' | null' : '';
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list))
      return (
        list.map((s) => describeSchema(s, depth + 1)).join(key === 'allOf' ? ' &amp; ' : ' | ') + nullable
      );
  }
  if (Array.isArray(schema.enum))
    return schema.enum.map((v) => `<code>${e(JSON.stringify(v))}</code>`).join(' | ');
  if ('const' in schema) return `<code>${e(JSON.stringify(schema.const))}</code>`;
  const type =
    typeof schema.type === 'string' ? schema.type : Array.isArray(schema.type) ? schema.type.join(' | ') : '';
  if (type === 'array') return `${describeSchema(schema.items, depth + 1)}[]${nullable}`;
  if (type === 'object' || isObj(schema.properties)) {
    const props = isObj(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields = Object.entries(props).map(
      ([k, v]) => `${e(k)}${required.has(k) ? '' : '?'}: ${describeSchema(v, depth + 1)}`,
    );
    if (schema.additionalProperties && isObj(schema.additionalProperties))
      fields.push(`[key]: ${describeSchema(schema.additionalProperties, depth + 1)}`);
    const title = typeof schema.title === 'string' && depth > 0 ? `${e(schema.title)} ` : '';
    return fields.length ? `${title}{ ${fields.join(', ')} }${nullable}` : `object${nullable}`;
  }
  const limits: string[] = [];
  if (typeof schema.minimum === 'number') limits.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === 'number') limits.push(`≤ ${schema.maximum}`);
  if (typeof schema.maxLength === 'number') limits.push(`length ≤ ${schema.maxLength}`);
  if (typeof schema.pattern === 'string') limits.push(`matches <code>${e(schema.pattern)}</code>`);
  if (typeof schema.format === 'string') limits.push(e(schema.format));
  return `${e(type || 'any')}${limits.length ? ` (${limits.join(', ')})` : ''}${nullable}`;
}

function contentSchema(content: unknown): string {
  if (!isObj(content)) return '';
  return Object.entries(content)
    .map(
      ([type, m]) => `<span class="mt">${e(type)}</span> ${describeSchema(isObj(m) ? m.schema : undefined)}`,
    )
    .join('<br>');
}

function operation(path: string, method: string, op: Obj): string {
  const params = Array.isArray(op.parameters) ? op.parameters.filter(isObj) : [];
  const rows = params
    .map(
      (p) =>
        `<tr><td><code>${e(p.name)}</code></td><td>${e(p.in)}</td><td>${p.required === true ? 'yes' : ''}</td>` +
        `<td>${describeSchema(p.schema)}</td><td>${e(p.description)}</td></tr>`,
    )
    .join('');
  const body = isObj(op.requestBody) ? `<h4>Body</h4><p>${contentSchema(op.requestBody.content)}</p>` : '';
  const responses = isObj(op.responses)
    ? Object.entries(op.responses)
        .map(
          ([code, r]) =>
            `<tr><td>${e(code)}</td><td>${isObj(r) ? contentSchema(r.content) || e(r.description) : ''}</td></tr>`,
        )
        .join('')
    : '';
  return (
    `<section class="op"><h3><span class="m ${e(method)}">${e(method.toUpperCase())}</span> <code>${e(path)}</code></h3>` +
    (op.summary ? `<p>${e(op.summary)}</p>` : '') +
    (op.description ? `<p>${e(op.description)}</p>` : '') +
    (rows
      ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th><th></th></tr>${rows}</table>`
      : '') +
    body +
    (responses ? `<h4>Responses</h4><table><tr><th>status</th><th>body</th></tr>${responses}</table>` : '') +
    `</section>`
  );
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px;color:#1b1f24}
code{font:12px ui-monospace,monospace;background:#f2f4f7;padding:1px 3px;border-radius:3px}
.op{border-top:1px solid #d8dde3;padding:6px 0}.m{display:inline-block;min-width:48px;font-size:12px;color:#fff;
border-radius:3px;text-align:center;padding:1px 4px}.get{background:#2b7a3d}.post{background:#1f5fae}
.put,.patch,.delete{background:#a33}table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #d8dde3;
padding:3px 6px;text-align:left;vertical-align:top}.mt{color:#667}nav a{margin-right:8px}h3{margin:6px 0}`;

/** The whole page for an OpenAPI 3 document (anything unexpected in it is skipped, never thrown on). */
export function renderDocsPage(doc: unknown): string {
  const d = isObj(doc) ? doc : {};
  const info = isObj(d.info) ? d.info : {};
  const paths = isObj(d.paths) ? d.paths : {};
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === 'string' ? op.tags[0] : 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(path, method, op)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const components = isObj(d.components) && isObj(d.components.schemas) ? d.components.schemas : {};
  const schemas = Object.entries(components)
    .map(
      ([name, s]) =>
        `<section class="op" id="${e(anchor(name))}"><h3><code>${e(name)}</code></h3><p>${describeSchema(s, 1)}</p></section>`,
    )
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${e(info.title ?? 'API')} reference</title><style>${STYLE}</style></head><body>` +
    `<h1>${e(info.title ?? 'API')} <small>v${e(info.version)}</small></h1><p>${e(info.description)}</p>` +
    `<p>Machine-readable: <a href="openapi.json">openapi.json</a></p>` +
    `<nav>${tags.map((t) => `<a href="#${e(anchor(`tag-${t}`))}">${e(t)}</a>`).join('')}<a href="#schemas">schemas</a></nav>` +
    tags
      .map((t) => `<h2 id="${e(anchor(`tag-${t}`))}">${e(t)}</h2>${(byTag.get(t) ?? []).join('')}`)
      .join('') +
    `<h2 id="schemas">Schemas</h2>${schemas}</body></html>`
  );
}
