/**
 * What is left of the contract answers' checks: a list helper, the Miguel trees of the storage and view
 * answers, and the Michelson text of /code and /storage/raw (issue 23: these move to the resource registry).
 */
import { invalid, isObject, listItems, type Json } from './parse';
import type { MiguelNode } from './contract-types';

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

/** A JSON string answer (Michelson text of /code and /storage/raw). */
export function parseText(body: unknown, what: string): string {
  if (typeof body !== 'string') throw invalid(what, 'not a string');
  return body;
}
