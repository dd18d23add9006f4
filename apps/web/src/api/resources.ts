/**
 * The typed registry of main-API resources the web app reads: for each, its path (built from its params)
 * and its response type, imported as a type from @michelscope/api-types (the TypeBox schemas the API
 * validates its answers with, so the contract is enforced at the server and costs the web no bytes).
 * Both the URL and the TanStack query key come from here: the key is `[name, params]`, so two resources
 * (two shapes) can never share a key. Query factories (./queries.ts), route loaders and the test mock
 * (`resourceRoute`) use this registry. This module never imports UI code.
 *
 * The entries are written by domain (./network-resources.ts, ./account-resources.ts, ./contract-resources.ts,
 * ./bigmap-resources.ts, ./operation-resources.ts, ./workspace-resources.ts, ./node-resources.ts,
 * ./service-resources.ts, ./watch-resources.ts, ./verify-resources.ts; their builders in ./resource-builders.ts) and joined here: this
 * module is the registry's one entry point: callers ask through it, never through a domain's module (of which
 * they read at most a params type, e.g. `StatsSeries`).
 */
import { queryOptions } from '@tanstack/react-query';
import { API_BASE, ApiError, requestJson, type RequestOptions } from './client';
import type { Action, Mount, Resource } from './resource-builders';
import { ACCOUNT_RESOURCES } from './account-resources';
import { BIG_MAP_RESOURCES } from './bigmap-resources';
import { CONTRACT_RESOURCES } from './contract-resources';
import { NETWORK_RESOURCES } from './network-resources';
import { NODE_RESOURCES } from './node-resources';
import { OPERATION_RESOURCES } from './operation-resources';
import { SERVICE_RESOURCES } from './service-resources';
import { VERIFY_RESOURCES } from './verify-resources';
import { WATCH_RESOURCES } from './watch-resources';
import { WORKSPACE_RESOURCES } from './workspace-resources';

/** Every resource the web reads, by name: the domains' entries in one registry (a name appears once). */
export const RESOURCES = {
  ...NETWORK_RESOURCES,
  ...ACCOUNT_RESOURCES,
  ...CONTRACT_RESOURCES,
  ...BIG_MAP_RESOURCES,
  ...OPERATION_RESOURCES,
  ...WORKSPACE_RESOURCES,
  ...NODE_RESOURCES,
  ...SERVICE_RESOURCES,
  ...WATCH_RESOURCES,
  ...VERIFY_RESOURCES,
};

type Registry = typeof RESOURCES;
/** The GET resources. */
export type ResourceName = {
  [N in keyof Registry]: Registry[N] extends { method: 'POST' } ? never : N;
}[keyof Registry];
/** The POST resources (actions). */
export type ActionName = Exclude<keyof Registry, ResourceName>;
export type ResourceParams<N extends keyof Registry> =
  Registry[N] extends Resource<infer P, unknown> ? P : never;
export type ResourceData<N extends keyof Registry> = Registry[N] extends Resource<never, infer R> ? R : never;
export type ActionBody<N extends ActionName> =
  Registry[N] extends Action<never, infer B, unknown> ? B : never;

/** `[name]` or `[name, params]`: the name keeps the keys of two resources apart. */
type Args<N extends keyof Registry> = ResourceParams<N> extends void ? [] : [params: ResourceParams<N>];

/** The path of a resource under its base (under /v1 for the main API). */
export function resourcePath<N extends keyof Registry>(name: N, ...[params]: Args<N>): string {
  return (RESOURCES[name].path as (p: ResourceParams<N> | undefined) => string)(params);
}

/** The URL (base and path) of a resource, and how it is asked. */
export function resourceUrl<N extends keyof Registry>(name: N, ...args: Args<N>): string {
  const mount: Mount = RESOURCES[name];
  return `${mount.base ?? API_BASE}${resourcePath<N>(name, ...args)}`;
}

/** The method of a resource: GET, or POST for an action. */
export const resourceMethod = (name: keyof Registry): 'GET' | 'POST' =>
  'method' in RESOURCES[name] ? 'POST' : 'GET';

function mountOptions(name: keyof Registry, options: RequestOptions | undefined) {
  const { timeoutMs, errorMessage }: Mount = RESOURCES[name];
  return { ...(timeoutMs ? { timeoutMs } : {}), ...(errorMessage ? { errorMessage } : {}), ...options };
}

/** The TanStack query key of a resource. */
export function resourceKey<N extends ResourceName>(name: N, ...[params]: Args<N>) {
  return params === undefined ? ([name] as const) : ([name, params] as const);
}

/**
 * GETs a resource. The answer is typed by the registry and trusted as such: the API serialises it through
 * the same api-types schema (fields outside the schema are dropped, wrong types fail at the server).
 */
export async function fetchResource<N extends ResourceName>(
  name: N,
  params: ResourceParams<N>,
  options?: RequestOptions,
): Promise<ResourceData<N>> {
  const url = resourceUrl<N>(name, ...([params] as Args<N>));
  const { body } = await requestJson(url, mountOptions(name, options));
  return body as ResourceData<N>;
}

/** POSTs an action's body; its answer is typed by the registry as a resource's is. */
export async function runAction<N extends ActionName>(
  name: N,
  params: ResourceParams<N>,
  body: ActionBody<N>,
  options?: RequestOptions & Pick<Mount, 'errorMessage'>,
): Promise<ResourceData<N>> {
  return (await runActionAnswer(name, params, body, options)).data;
}

/** An action's answer with its headers (a view run says there where it ran). */
export async function runActionAnswer<N extends ActionName>(
  name: N,
  params: ResourceParams<N>,
  body: ActionBody<N>,
  options?: RequestOptions & Pick<Mount, 'errorMessage'>,
): Promise<{ data: ResourceData<N>; headers: Headers }> {
  const url = resourceUrl<N>(name, ...([params] as Args<N>));
  const answer = await requestJson(url, { ...mountOptions(name, options), method: 'POST', body });
  return { data: answer.body as ResourceData<N>, headers: answer.headers ?? new Headers() };
}

/** Query options (key and fetcher) of a resource; callers add their freshness settings. */
export function resourceQuery<N extends ResourceName>(name: N, ...args: Args<N>) {
  return queryOptions({
    queryKey: resourceKey(name, ...args),
    queryFn: ({ signal }) => fetchResource(name, args[0] as ResourceParams<N>, { signal }),
  });
}

/** Query options of an action whose answer is read like a resource (a search, a debug recording): keyed by its body too. */
export function actionQuery<N extends ActionName>(
  name: N,
  params: ResourceParams<N>,
  body: ActionBody<N>,
  options?: Omit<RequestOptions, 'signal'>,
) {
  // the key's type is left wide: two actions with the same answer give one query type
  return queryOptions<ResourceData<N>, Error, ResourceData<N>, readonly unknown[]>({
    queryKey: [name, params, body],
    queryFn: ({ signal }) => runAction(name, params, body, { ...options, signal }),
  });
}

/** The spec's text for a network without a node RPC endpoint in the configuration. */
export const noRpcEndpoint = (network: string) =>
  new ApiError(`Don't have an RPC endpoint for the ${network}`, 0);
