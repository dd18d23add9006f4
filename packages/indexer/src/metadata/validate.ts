/**
 * Untrusted metadata JSON: parsed from at most the fetched bytes, must be a JSON object, is rebuilt with
 * NUL characters removed (PostgreSQL jsonb refuses them), nesting depth and string lengths bounded; then
 * the fields Michelscope shows (TZIP-16 name/description/…, TZIP-21 name/symbol/decimals) are read with
 * type checks. Nothing from it is ever interpreted as code or HTML here.
 */
import { MetadataError } from './uri';

const MAX_DEPTH = 32;
const MAX_STRING = 100_000;
const MAX_NAME = 256;

export type JsonObject = Record<string, unknown>;

function clean(v: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH)
    throw new MetadataError(`metadata JSON nested deeper than ${MAX_DEPTH} levels`, true);
  if (typeof v === 'string') return v.replaceAll('\u0000', '').slice(0, MAX_STRING);
  if (Array.isArray(v)) return v.map((x) => clean(x, depth + 1));
  if (v !== null && typeof v === 'object') {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v))
      out[k.replaceAll('\u0000', '').slice(0, 1000)] = clean(x, depth + 1);
    return out;
  }
  return v;
}

/** Parses metadata bytes: UTF-8 JSON object (BOM tolerated). Permanent error otherwise. */
export function parseMetadataJson(bytes: Buffer | string): JsonObject {
  const text = (typeof bytes === 'string' ? bytes : bytes.toString('utf8')).replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MetadataError(`invalid JSON: ${(e as Error).message.slice(0, 200)}`, true);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MetadataError(
      `metadata must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
      true,
    );
  }
  return clean(value, 0) as JsonObject;
}

/** A short single-line text field, or null. */
export function textField(o: JsonObject, key: string, max = MAX_NAME): string | null {
  const v = o[key];
  if (typeof v !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const t = v.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return t.length === 0 ? null : t.slice(0, max);
}

/** TZIP-21 decimals: a non-negative integer (number or decimal string) up to 255, else null. */
export function decimalsField(o: JsonObject): number | null {
  const v = o.decimals;
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,3}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
}

function strings(v: unknown, max = 20): string[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is string => typeof x === 'string').slice(0, max);
}

/** Search body of TZIP-16 contract metadata: description, interfaces, authors, homepage, view names. */
export function contractSearchBody(m: JsonObject): string {
  const views = Array.isArray(m.views)
    ? m.views.map((v) => (v && typeof v === 'object' ? (v as JsonObject).name : null))
    : [];
  return [
    textField(m, 'description', 2000),
    ...strings(m.interfaces),
    ...strings(m.authors),
    textField(m, 'homepage', 500),
    ...strings(views),
  ]
    .filter((x): x is string => typeof x === 'string' && x.length > 0)
    .join(' ');
}

/** Search body of TZIP-21 token metadata: symbol, description, tags, creators. */
export function tokenSearchBody(m: JsonObject): string {
  return [
    textField(m, 'symbol'),
    textField(m, 'description', 2000),
    ...strings(m.tags),
    ...strings(m.creators),
  ]
    .filter((x): x is string => typeof x === 'string' && x.length > 0)
    .join(' ');
}
