/**
 * Test helper: a fetch stub answering by route; unmatched requests get a 404 `{"message"}`.
 *
 * A route is either a `resourceRoute(name, params, payload)` of the API registry (its method and URL come from
 * the registry, its payload must have the resource's type), or a raw `[pattern, Response]` for what the
 * registry does not describe (errors, 204s, odd bodies, catch-alls, other origins): a raw route never answers
 * an untyped JSON payload. A raw pattern is matched on "METHOD url" (the query included) as a string prefix or
 * a regular expression; the first matching route answers. A null payload answers 204 No Content.
 */
import { vi } from 'vitest';
import { resourceMethod, resourceUrl } from '../../api/resources';
import type { ActionName, ResourceData, ResourceName, ResourceParams } from '../../api/resources';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Name = ResourceName | ActionName;

/**
 * What a mocked resource answers: a payload of its type, a Response (errors and odd answers), or a function of
 * the call (and its abort signal) giving either, possibly later (a promise: the test decides when the answer
 * arrives, or rejects it when the request is aborted).
 */
export type Payload<N extends Name> =
  | ResourceData<N>
  | Response
  | ((
      call: Call,
      signal: AbortSignal | undefined,
    ) => ResourceData<N> | Response | Promise<ResourceData<N> | Response>);

/** What a raw route answers: a Response, or a function of the call giving one (possibly later). */
export type RawAnswer =
  Response | ((call: Call, signal: AbortSignal | undefined) => Response | Promise<Response>);
export type RawRoute = readonly [pattern: string | RegExp, answer: RawAnswer];

declare const resourceBrand: unique symbol;
/** A route built by `resourceRoute` (its payload checked against the registry); only it may answer JSON. */
export interface ResourceRoute {
  readonly [resourceBrand]: true;
  readonly name: Name;
  /** Matches "METHOD url" of a call. */
  readonly matches: (key: string) => boolean;
  readonly answer: unknown;
}

export type Route = ResourceRoute | RawRoute;

type ResourceArgs<N extends Name> =
  ResourceParams<N> extends void ? [payload: Payload<N>] : [params: ResourceParams<N>, payload: Payload<N>];

const matcher = (pattern: string | RegExp) => (key: string) =>
  typeof pattern === 'string' ? key.startsWith(pattern) : pattern.test(key);

const withoutQuery = (key: string) => key.split('?')[0]!;

function makeRoute<N extends Name>(name: N, args: ResourceArgs<N>, anyQuery: boolean): ResourceRoute {
  const payload = args.length === 1 ? args[0] : args[1];
  const url = (resourceUrl as (n: N, p?: unknown) => string)(name, args.length === 1 ? undefined : args[0]);
  const key = `${resourceMethod(name)} ${url}`;
  const matches = anyQuery ? (k: string) => withoutQuery(k) === withoutQuery(key) : (k: string) => k === key;
  return { name, matches, answer: payload } as unknown as ResourceRoute;
}

/**
 * A route of `mockFetch` for one API resource of the registry (a GET, or a POST action): it answers the
 * resource's exact URL (query included) built from `params`, with a payload of the resource's type.
 */
export function resourceRoute<N extends Name>(name: N, ...args: ResourceArgs<N>): ResourceRoute {
  return makeRoute(name, args, false);
}

/**
 * `resourceRoute` matching the resource's URL whatever its query (any page of a list, any filter): the query
 * params given only build the path.
 */
export function anyQueryRoute<N extends Name>(name: N, ...args: ResourceArgs<N>): ResourceRoute {
  return makeRoute(name, args, true);
}

/**
 * A resource's typed payload for every call a pattern matches ("METHOD url" prefix or regular expression): for
 * a resource asked with many params at once (every series of the statistics service, any network's list).
 */
export function matchingRoute<N extends Name>(
  name: N,
  pattern: string | RegExp,
  payload: Payload<N>,
): ResourceRoute {
  return { name, matches: matcher(pattern), answer: payload } as unknown as ResourceRoute;
}

const isRaw = (route: Route): route is RawRoute => Array.isArray(route);

/** Stubs fetch with typed routes (see the module's comment). */
export function mockFetch(routes: readonly Route[]) {
  const calls: Call[] = [];
  const answered = new Map<Route, Call[]>();
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, url, body };
    calls.push(call);
    const key = `${method} ${url}`;
    const route = routes.find((r) => (isRaw(r) ? matcher(r[0])(key) : r.matches(key)));
    if (!route) return Response.json({ message: `no route for ${key}` }, { status: 404 });
    answered.set(route, [...(answered.get(route) ?? []), call]);
    const reply = isRaw(route) ? route[1] : route.answer;
    // a function answers for the call, possibly later (a promise: the test decides when the answer arrives)
    const answer: unknown = await (typeof reply === 'function'
      ? (reply as (c: Call, signal: AbortSignal | undefined) => unknown)(call, init?.signal ?? undefined)
      : reply);
    if (answer instanceof Response) return answer.clone();
    // null: the API's "nothing" (its 204 No Content, which the registry reads as null)
    return answer === null ? new Response(null, { status: 204 }) : Response.json(answer);
  });
  vi.stubGlobal('fetch', fetchFn);
  return {
    calls,
    fetchFn,
    /** The calls whose "METHOD url" starts with `prefix`. */
    callsTo: (prefix: string) => calls.filter((c) => `${c.method} ${c.url}`.startsWith(prefix)),
    /** The calls a route answered. */
    callsOf: (route: Route) => answered.get(route) ?? [],
  };
}
