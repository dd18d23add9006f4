/**
 * @michelscope/client: a typed client of the Michelscope API. `createClient` gives openapi-fetch's `GET`/`POST`
 * typed by the paths of docs/openapi.json (src/generated/openapi.ts), answers other than 2xx thrown as `ApiError`,
 * pagination helpers over the paged lists and the live stream as an async iterator.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.ts';
import { ApiError } from './errors.ts';
import { subscribe, type LiveEvent, type SubscribeOptions } from './live.ts';
import { keysetPages, offsetPages } from './paging.ts';

export type { components, paths } from './generated/openapi.ts';
export { ApiError } from './errors.ts';
export { collect, keysetPages, offsetPages, MAX_PAGE_SIZE } from './paging.ts';
export type { LiveData, LiveEvent, LiveEvents, LiveEventType, LiveQuery, SubscribeOptions } from './live.ts';

/** The JSON body of a path's method's 200 answer. */
export type ResponseOf<P extends keyof paths, M extends 'get' | 'post' = 'get'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;
/** A path's method's query parameters. */
export type QueryOf<P extends keyof paths, M extends 'get' | 'post' = 'get'> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export type OperationGroup = ResponseOf<'/v1/contract/{network}/{address}/opg'>[number];
export type BigMapKey = ResponseOf<'/v1/bigmap/{network}/{ptr}/keys'>[number];
export type SearchRequest = NonNullable<
  paths['/search/v1/search']['post']['requestBody']
>['content']['application/json'];
export type SearchItem = ResponseOf<'/search/v1/search', 'post'>['items'][number];
export type ErrorBody = components['schemas']['ErrorBody'];

export interface ClientOptions {
  /** Where the API is served, without `/v1` (`https://michelscope.example`, `http://localhost:8080`). */
  baseUrl: string;
  /** The fetch to use (default: the global one): a test's, one with retries, one adding headers. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

type Paging = { size?: number; limit?: number };

export interface MichelscopeClient extends Pick<Client<paths>, 'GET' | 'POST' | 'use'> {
  /** The result's `data` (answers other than 2xx have already thrown ApiError). */
  unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
    result: Promise<R>,
  ): Promise<Exclude<R['data'], undefined>>;
  /** Every operation group of an account, newest first (keyset paging by `last_id`, `size` ≤ 10 a page). */
  operations(
    network: string,
    address: string,
    options?: Paging & { lastId?: number },
  ): AsyncGenerator<OperationGroup, void, undefined>;
  /** Every key of a big map, newest update first (`offset`/`size` paging), with the route's filters. */
  bigMapKeys(
    network: string,
    ptr: number,
    options?: Paging & Omit<QueryOf<'/v1/bigmap/{network}/{ptr}/keys'>, 'offset' | 'size'>,
  ): AsyncGenerator<BigMapKey, void, undefined>;
  /** Every item a search finds (`offset` paging in the body, `size` ≤ 100; the total is capped at 10,000). */
  search(
    request: Omit<SearchRequest, 'offset' | 'size'>,
    options?: Paging,
  ): AsyncGenerator<SearchItem, void, undefined>;
  /**
   * The stats service's `summary/{table}/{fn}` with its filters (`network`, `status`, `entrypoint`, …): a bare
   * decimal string. Its filters are a free-form query the OpenAPI document does not describe (see the README).
   */
  statsSummary(table: string, fn: string, filters: Record<string, string>): Promise<string>;
  /** The live stream of a network: typed events as they come (see `SubscribeOptions`). */
  live(network: string, options?: SubscribeOptions): AsyncGenerator<LiveEvent, void, undefined>;
}

async function errorBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A client of the API at `baseUrl`. */
export function createClient(options: ClientOptions): MichelscopeClient {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const api = createFetchClient<paths>({
    baseUrl,
    fetch: (request: Request) => fetchImpl(request),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  api.use({
    async onResponse({ request, response }) {
      if (response.ok) return undefined;
      const error = ApiError.from(response, await errorBody(response.clone()), request.method);
      throw error;
    },
  });

  const unwrap: MichelscopeClient['unwrap'] = async (result) => {
    const { data, error, response } = await result;
    if (error !== undefined || !response.ok) throw ApiError.from(response, error);
    return data as never;
  };

  return {
    GET: api.GET.bind(api),
    POST: api.POST.bind(api),
    use: api.use.bind(api),
    unwrap,
    operations: (network, address, { size, limit, lastId } = {}) =>
      keysetPages(
        (last_id, size) =>
          unwrap(
            api.GET('/v1/contract/{network}/{address}/opg', {
              params: { path: { network, address }, query: { size, last_id } },
            }),
          ),
        (group) => group.last_id,
        { size, limit, lastId },
      ),
    bigMapKeys: (network, ptr, { size, limit, ...filters } = {}) =>
      offsetPages(
        (offset, size) =>
          unwrap(
            api.GET('/v1/bigmap/{network}/{ptr}/keys', {
              params: { path: { network, ptr }, query: { ...filters, offset, size } },
            }),
          ),
        { size, limit },
      ),
    search: async function* (request, { size = 10, limit = Infinity } = {}) {
      let offset = 0;
      let left = limit;
      while (left > 0) {
        const page = await unwrap(api.POST('/search/v1/search', { body: { ...request, offset, size } }));
        for (const item of page.items.slice(0, left)) yield item;
        left -= page.items.length;
        offset += page.items.length;
        if (page.items.length < size || offset >= page.total) return;
      }
    },
    statsSummary: (table, fn, filters) =>
      unwrap(
        api.GET('/stats/v1/summary/{table}/{fn}', {
          // the filters are a record the document cannot describe (see repairDocument in scripts/generate-types.ts)
          params: { path: { table, fn }, query: filters as never },
        }),
      ),
    live: (network, liveOptions) => subscribe(fetchImpl, baseUrl, network, liveOptions),
  };
}
