/**
 * Checks of API answers. Everything that comes over the wire is untrusted: an answer is looked into only
 * after its shape is checked.
 */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
