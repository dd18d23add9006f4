/**
 * Data carried inside a page as `<script type="application/json">` (issue 18): the boot configuration
 * (./page-html.ts) and the answers a server-rendered page was made from (./ssr.ts).
 */

/**
 * `value` as JSON that no string in it can end the element with: `<`, `>`, `&` and the JavaScript line
 * separators are written as `\uXXXX` escapes (JSON.parse reads them back unchanged).
 */
export function jsonForScript(value: unknown): string {
  return escapeForScript(JSON.stringify(value));
}

function escapeForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The largest data a server-rendered page carries (characters of JSON). */
export const MAX_PAGE_DATA_CHARS = 2_000_000;

class NotPlainJson extends Error {}

/**
 * Only values that JSON gives back unchanged: strings, finite numbers, booleans, null, arrays and plain
 * objects. A Date, Map, class instance or bigint would come back as something else (or not at all).
 */
function plainOnly(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (typeof original === 'bigint' || typeof original === 'function' || typeof original === 'symbol')
    throw new NotPlainJson();
  if (typeof original === 'number' && !Number.isFinite(original)) throw new NotPlainJson();
  if (original !== null && typeof original === 'object' && !Array.isArray(original)) {
    const proto: unknown = Object.getPrototypeOf(original);
    if (proto !== Object.prototype && proto !== null) throw new NotPlainJson();
  }
  return value;
}

/**
 * `value` as JSON for a `<script>` element, or undefined when it is not plain JSON data or its JSON is
 * longer than `maxChars` (the page then goes without it).
 */
export function plainJsonForScript(value: unknown, maxChars: number): string | undefined {
  let json: string;
  try {
    json = JSON.stringify({ '': value }, plainOnly);
  } catch (e) {
    if (e instanceof NotPlainJson || e instanceof RangeError) return undefined;
    throw e;
  }
  // the wrapper lets the replacer see the top value as a property too: unwrap `{"":…}`
  const inner = json.slice(4, -1);
  return inner.length > maxChars ? undefined : escapeForScript(inner);
}
