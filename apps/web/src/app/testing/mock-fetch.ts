/**
 * Test helper: a fetch stub answering by URL. Each route is matched on "METHOD path?query" (the query
 * included) with a string prefix or a regular expression; unmatched requests get a 404 `{"message"}`.
 */
import { vi } from 'vitest';
import { resourceMethod, resourceUrl } from '../../api/resources';
import type { ActionName, ResourceData, ResourceName, ResourceParams } from '../../api/resources';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

export type Answer = unknown;

export function mockFetch(routes: [string | RegExp, Answer][]) {
  const calls: Call[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, url, body };
    calls.push(call);
    const key = `${method} ${url}`;
    const route = routes.find(([pattern]) =>
      typeof pattern === 'string' ? key.startsWith(pattern) : pattern.test(key),
    );
    if (!route) return Response.json({ message: `no route for ${key}` }, { status: 404 });
    // a function answers for the call, possibly later (a promise: the test decides when the answer arrives)
    const answer: unknown = await (typeof route[1] === 'function'
      ? (route[1] as (c: Call) => unknown)(call)
      : route[1]);
    return answer instanceof Response ? answer.clone() : Response.json(answer);
  });
  vi.stubGlobal('fetch', fetchFn);
  return {
    calls,
    fetchFn,
    callsTo: (prefix: string) => calls.filter((c) => `${c.method} ${c.url}`.startsWith(prefix)),
  };
}

/**
 * What a mocked resource answers: a payload of its type, a Response (errors and odd answers), or a function of
 * the call giving either, possibly later (a promise: the test decides when the answer arrives).
 */
export type Payload<N extends ResourceName | ActionName> =
  | ResourceData<N>
  | Response
  | ((call: Call) => ResourceData<N> | Response | Promise<ResourceData<N> | Response>);

type ResourceArgs<N extends ResourceName | ActionName> =
  ResourceParams<N> extends void ? [payload: Payload<N>] : [params: ResourceParams<N>, payload: Payload<N>];

/**
 * A route of `mockFetch` for one API resource of the registry (a GET, or a POST action): its method and URL
 * come from the registry and its payload must have the resource's type (a Response stands for errors and odd
 * answers).
 */
export function resourceRoute<N extends ResourceName | ActionName>(
  name: N,
  ...args: ResourceArgs<N>
): [string, Answer] {
  const payload = args.length === 1 ? args[0] : args[1];
  const url = (resourceUrl as (n: N, p?: unknown) => string)(name, args.length === 1 ? undefined : args[0]);
  return [`${resourceMethod(name)} ${url}`, payload];
}
