/**
 * The spec's field rules (workspace spec §5) over a form generated from a JSON schema: walks the schema and
 * the data together and returns one message per invalid leaf, with its path in the data.
 */
import {
  checkAddress,
  checkContract,
  checkNat,
  FORM_MESSAGES,
  type JsonSchema,
} from '@michelscope/michelson';
import { isObject } from '../../../api/parse';

export interface FieldError {
  path: (string | number)[];
  message: string;
}

type Schema = JsonSchema & {
  prim?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  oneOf?: Schema[];
  const?: unknown;
};

/** An int: the nat rules with an optional sign ('Int field is required', 'Only digits are allowed'). */
function checkInt(value: string) {
  const s = value.trim();
  if (s === '') throw new Error('Int field is required');
  if (!/^-?\d+$/.test(s)) throw new Error(FORM_MESSAGES.natDigits);
}

/** Bytes as the form takes them: lower-case hex digits only (no '0x', no 'AB'), an even count. */
function checkBytesField(value: string) {
  if (!/^[0-9a-f]*$/.test(value)) throw new Error(FORM_MESSAGES.bytesChars);
  if (value.length % 2 !== 0) throw new Error(FORM_MESSAGES.bytesEven);
}

const CHECKS: Record<string, (value: string) => unknown> = {
  int: checkInt,
  nat: checkNat,
  mutez: checkNat,
  bytes: checkBytesField,
  address: checkAddress,
  contract: (v) => checkContract(v, '', true),
};

function leaf(schema: Schema, value: unknown, path: (string | number)[], out: FieldError[]) {
  const check = schema.prim ? CHECKS[schema.prim] : undefined;
  if (!check) return;
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'bigint'
        ? String(value)
        : '';
  try {
    check(text);
  } catch (e) {
    out.push({ path, message: e instanceof Error ? e.message : String(e) });
  }
}

function walk(schema: Schema | undefined, value: unknown, path: (string | number)[], out: FieldError[]) {
  if (!schema) return;
  if (schema.oneOf && isObject(value)) {
    const chosen = schema.oneOf.find((o) => o.properties?.schemaKey?.const === value.schemaKey);
    if (chosen?.properties) {
      for (const [k, s] of Object.entries(chosen.properties))
        if (k !== 'schemaKey') walk(s, value[k], [...path, k], out);
    }
    return;
  }
  if (schema.properties) {
    const obj = isObject(value) ? value : {};
    for (const [k, s] of Object.entries(schema.properties)) walk(s, obj[k], [...path, k], out);
    return;
  }
  if (schema.type === 'array' && schema.items) {
    if (Array.isArray(value)) value.forEach((v, i) => walk(schema.items, v, [...path, i], out));
    return;
  }
  leaf(schema, value, path, out);
}

/** Every invalid leaf of `data` under `schema`, in schema order. */
export function validateFormData(schema: JsonSchema | null, data: unknown): FieldError[] {
  const out: FieldError[] = [];
  walk(schema ?? undefined, data, [], out);
  return out;
}
