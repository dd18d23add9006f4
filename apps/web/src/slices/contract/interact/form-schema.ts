/**
 * The API's form schemas (the reference's vjsf dialect, bcd-api §5.2) made fit for RJSF, and their models
 * made valid input for them, so that every fill type round-trips (the model the API returns is what the
 * form shows):
 * - numbers (int, nat, mutez) are text fields: a model carries them as strings (big ints), and the user's
 *   text ('01', '1.5', '') reaches the spec's validators instead of being coerced by a number input;
 * - `or` / `option` alternatives are chosen by name; their `schemaKey` is set by the choice, not typed;
 * - generated names ('@pair_25', '@nat_1') never show: a field is titled by its annotation, else its type;
 * - a `unit` has no field.
 */
import type { UiSchema } from '@rjsf/utils';
import type { JsonSchema } from '@michelscope/michelson';
import { isObject } from '../../../api/parse';

const NUMBER_PRIMS = new Set(['int', 'nat', 'mutez']);
const isGenerated = (name: string | undefined) => name === undefined || name.startsWith('@');

export interface RjsfForm {
  schema: JsonSchema;
  uiSchema: UiSchema;
}

/** The label of a field: its annotation, else its type (never a generated id). */
function label(key: string, s: JsonSchema): string {
  const title = s.title ?? key;
  if (!isGenerated(title) && title !== '') return title;
  return s.prim ?? (s.type === 'array' ? 'map' : '');
}

function convert(s: JsonSchema, key: string): RjsfForm {
  const ui: UiSchema = {};
  const out: JsonSchema = { ...s };
  if (s.prim && NUMBER_PRIMS.has(s.prim) && s.type === 'integer') {
    out.type = 'string';
    out.default = typeof s.default === 'number' || typeof s.default === 'string' ? String(s.default) : '0';
  }
  if (s.properties) {
    const properties: Record<string, JsonSchema> = {};
    for (const [k, p] of Object.entries(s.properties)) {
      // a unit has nothing to fill (the reference's `{"": {prim: "unit"}}`)
      if (p.prim === 'unit' && p.type === undefined) continue;
      if (k === 'schemaKey' && p.const !== undefined) {
        properties[k] = { ...p, default: p.const };
        ui[k] = { 'ui:widget': 'hidden' };
        continue;
      }
      const c = convert(p, k);
      properties[k] = c.schema;
      ui[k] = c.uiSchema;
    }
    out.properties = properties;
  }
  if (s.oneOf) {
    const names = s.oneOf.map((o) => (isGenerated(o.title) ? branchType(o) : o.title!));
    const options = s.oneOf.map((o, i) => {
      const c = convert(o, '');
      const key = o.properties?.schemaKey?.const;
      const dup = names.filter((n) => n === names[i]).length > 1;
      return { ...c, schema: { ...c.schema, title: dup && key ? `${names[i]} (${key})` : names[i] } };
    });
    out.oneOf = options.map((o) => o.schema);
    // the chosen alternative's name is in the choice: no second heading under it
    ui.oneOf = options.map((o) => ({ ...o.uiSchema, 'ui:label': false }));
  }
  // a cleared text field keeps '' (not undefined): its key stays in the data, so the required-field texts
  // ('Nat field is required', 'Required field') are reported on the field itself
  if (out.type === 'string') ui['ui:emptyValue'] = '';
  if (s.items) {
    const c = convert(s.items, '');
    out.items = c.schema;
    ui.items = c.uiSchema;
  }
  // a pair without annotation is no section of its own (its fields show in the enclosing one), and a choice
  // without annotation needs no heading above its list of alternatives
  const section = s.type === 'object' && (!s.prim || s.oneOf !== undefined);
  out.title = section && isGenerated(s.title ?? key) ? '' : label(key, s);
  return { schema: out, uiSchema: ui };
}

/** The type of an `or` branch without annotation: the prim of its only field, else 'pair', else 'unit'. */
function branchType(o: JsonSchema): string {
  const fields = Object.entries(o.properties ?? {}).filter(([k]) => k !== 'schemaKey');
  if (fields.length === 0) return 'unit';
  if (fields.length > 1) return 'pair';
  const [key, f] = fields[0]!;
  return isGenerated(f.title ?? key) ? (f.prim ?? (f.oneOf ? 'or' : 'pair')) : (f.title ?? key);
}

/** The RJSF schema and uiSchema of an API form schema. */
export function rjsfForm(schema: JsonSchema): RjsfForm {
  return convert(schema, '');
}

/** True when the form has no field to fill (a `unit` parameter). */
export function hasNoFields(schema: JsonSchema): boolean {
  const s = rjsfForm(schema).schema;
  return !s.oneOf && Object.keys(s.properties ?? {}).length === 0;
}

/** A model value made valid input for `s`: numbers of number fields as strings, walking objects and arrays. */
function modelFor(s: JsonSchema | undefined, v: unknown): unknown {
  if (!s) return v;
  if (s.prim && NUMBER_PRIMS.has(s.prim))
    return typeof v === 'number' || typeof v === 'bigint' ? String(v) : v;
  if (Array.isArray(v)) return s.items ? v.map((x) => modelFor(s.items, x)) : v;
  if (!isObject(v)) return v;
  const branch = s.oneOf?.find((o) => o.properties?.schemaKey?.const === v.schemaKey);
  const props = { ...(s.properties ?? {}), ...(branch?.properties ?? {}) };
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = modelFor(props[k], x);
  return out;
}

/**
 * The form data of a model the API returned for `schema`: an entrypoint model comes keyed by the entrypoint
 * name (`{"transfer": {…}}`, bcd-api §11 item 18) while its form has the entrypoint's fields: unwrapped.
 */
export function formModel(
  schema: JsonSchema | null,
  model: unknown,
  entrypoint?: string,
): Record<string, unknown> {
  if (!isObject(model)) return {};
  let m: Record<string, unknown> = model;
  const props = schema?.properties ?? {};
  if (entrypoint !== undefined && !(entrypoint in props) && isObject(m[entrypoint])) {
    m = m[entrypoint];
  }
  return (schema ? modelFor(schema, m) : m) as Record<string, unknown>;
}
