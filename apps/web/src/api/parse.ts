/**
 * Validation of API answers. Everything that comes over the wire is untrusted: a malformed answer gives
 * a clear ApiError instead of a crash somewhere in a component.
 */
import { ApiError } from './client';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function invalid(what: string, detail: string): ApiError {
  return new ApiError(`Unexpected ${what} from the API: ${detail}`, 0);
}

/** The items of a list answer that `item` accepts (non-objects and nulls dropped); not a list: ApiError. */
export function listItems<T>(body: unknown, what: string, item: (obj: Json) => T | null): T[] {
  if (!Array.isArray(body)) throw invalid(what, 'not a list');
  const out: T[] = [];
  for (const entry of body) {
    if (!isObject(entry)) continue;
    const parsed = item(entry);
    if (parsed !== null) out.push(parsed);
  }
  return out;
}
