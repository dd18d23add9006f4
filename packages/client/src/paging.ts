/**
 * Pagination: the API pages lists three ways. Account operation groups (`/v1/contract/{network}/{address}/opg`)
 * use keyset paging (`last_id` of the page's last item, `size` ≤ 10); most lists (`events`, big-map `keys`,
 * `tokens`, `same`, `ticket_updates`, `global_constants`, `smart_rollups`, …) use `offset` and `size` (≤ 10); the
 * search service takes `offset` and `size` (≤ 100) in its body and answers a `total` (capped at 10,000).
 */

/** The largest page of the `/v1` lists (`size` ≤ 10). */
export const MAX_PAGE_SIZE = 10;

/**
 * Every item of an offset-paged list, page after page: `fetchPage(offset, size)` gets one page; it stops after a
 * page shorter than `size` (or empty), or after `limit` items.
 */
export async function* offsetPages<T>(
  fetchPage: (offset: number, size: number) => Promise<readonly T[]>,
  options: { size?: number; offset?: number; limit?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const size = options.size ?? MAX_PAGE_SIZE;
  let offset = options.offset ?? 0;
  let left = options.limit ?? Infinity;
  while (left > 0) {
    const page = await fetchPage(offset, size);
    for (const item of page.slice(0, left)) yield item;
    left -= page.length;
    offset += page.length;
    if (page.length < size || page.length === 0) return;
  }
}

/**
 * Every item of a keyset-paged list: `fetchPage(lastId, size)` gets the page after `lastId` (undefined: the first
 * page), `cursor(item)` is the item's id to continue from (the page's last item's).
 */
export async function* keysetPages<T>(
  fetchPage: (lastId: number | undefined, size: number) => Promise<readonly T[]>,
  cursor: (item: T) => number,
  options: { size?: number; lastId?: number; limit?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const size = options.size ?? MAX_PAGE_SIZE;
  let lastId = options.lastId;
  let left = options.limit ?? Infinity;
  while (left > 0) {
    const page = await fetchPage(lastId, size);
    for (const item of page.slice(0, left)) yield item;
    left -= page.length;
    const last = page.at(-1);
    if (last === undefined || page.length < size) return;
    lastId = cursor(last);
  }
}

/** Collects an async iterable into an array (at most `limit` items). */
export async function collect<T>(items: AsyncIterable<T>, limit = Infinity): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}
