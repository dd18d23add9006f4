/**
 * Parsers for the account / contract / storage answers. Everything is untrusted: malformed items are
 * dropped, malformed answers give a clear ApiError, never a crash in a component.
 */
import { invalid, isObject, listItems, type Json } from './parse';
import { optStr, str } from './json-fields';
import type { MiguelNode, Typedef } from './contract-types';

/** A list answer's items; `null` (an empty list the way the reference writes it) is no item. */
export function listOf<T>(body: unknown, what: string, item: (obj: Json) => T | null): T[] {
  return body === null ? [] : listItems(body, what, item);
}

/** One Miguel node, or null when the value is not an object. */
export function parseMiguel(value: unknown): MiguelNode | null {
  return isObject(value) ? value : null;
}

/** A Miguel array (storage roots, parameters, payloads); a single node is accepted as a one-item list. */
export function parseMiguelList(value: unknown): MiguelNode[] {
  if (Array.isArray(value)) return value.filter(isObject);
  const one = parseMiguel(value);
  return one ? [one] : [];
}

function typedefAt(o: Json, depth: number): Typedef {
  const out: Typedef = { name: str(o, 'name') };
  const type = optStr(o, 'type');
  if (type !== null) out.type = type;
  if (Array.isArray(o.args)) {
    out.args = o.args
      .filter(isObject)
      .map((a) => ({ ...(typeof a.key === 'string' ? { key: a.key } : {}), value: str(a, 'value') }));
  }
  if (depth < 32 && Array.isArray(o.typedef)) {
    out.typedef = o.typedef.filter(isObject).map((t) => typedefAt(t, depth + 1));
  }
  return out;
}

export function parseTypedefs(value: unknown): Typedef[] {
  return Array.isArray(value) ? value.filter(isObject).map((t) => typedefAt(t, 0)) : [];
}

/** A JSON string answer (Michelson text of /code and /storage/raw). */
export function parseText(body: unknown, what: string): string {
  if (typeof body !== 'string') throw invalid(what, 'not a string');
  return body;
}
