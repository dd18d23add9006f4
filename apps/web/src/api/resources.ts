/**
 * The typed registry of main-API resources the web app reads: for each, its path (built from its params)
 * and its response type, imported as a type from @michelscope/api-types (the TypeBox schemas the API
 * validates its answers with, so the contract is enforced at the server and costs the web no bytes).
 * Both the URL and the TanStack query key come from here: the key is `[name, params]`, so two resources
 * (two shapes) can never share a key. Query factories (./queries.ts), route loaders and the test mock
 * (`resourceRoute`) use this registry. This module never imports UI code.
 */
import type {
  AccountInfo,
  BigMapHistory,
  BigMapInfo,
  BigMapKeyHistory,
  BigMapKeyItem,
  BigMapKeyState,
  Block,
  ConfigResponse,
  Contract,
  ContractWithStats,
  EntrypointSchema,
  ErrorLocation,
  Event,
  GlobalConstant,
  GlobalConstantItem,
  BigMapKeyChanges,
  AliasSources,
  CallRequest,
  ForkRequest,
  ForkResult,
  NodeScript,
  OffChainViewRequest,
  MimeTypeList,
  SearchRequest,
  SearchResponse,
  SeriesPoint,
  StatsSummary,
  SuggestRequest,
  SuggestResponse,
  DebugRequest,
  DebugResult,
  ScriptDebugRequest,
  ViewRequest,
  Head,
  KeyChangeKind,
  Micheline,
  Migration,
  MiguelNode,
  OPGResponse,
  Operation,
  RecentlyCalledContract,
  SameContractsResponse,
  SmartRollup,
  StorageLevel,
  TicketUpdate,
  ViewSchema,
  StorageDiff,
  WhatIfRequest,
  WhatIfResult,
  SharedSimulation,
  ShareCreated,
  StoredShare,
  ApproveData,
  ApproveRequest,
  ApproveSchema,
  CodeDiffRequest,
  CodeDiffResponse,
  MetadataGraphqlRequest,
  MetadataGraphqlResponse,
  NodeBlockHeader,
  NodeConstants,
  NodeNumber,
  NodeSimulateRequest,
  NodeSimulateResult,
} from '@michelscope/api-types';
import { queryOptions } from '@tanstack/react-query';
import { API_BASE, ApiError, openStream, requestJson, type RequestOptions } from './client';

const enc = encodeURIComponent;

/** A page of a list resource. */
export interface Page {
  size: number;
  offset: number;
}

/** Where a resource is mounted and how it is asked (defaults: the main API, 30 s). */
interface Mount {
  /** The service's base path: the main API (`/v1`, default), `/search/v1`, `/stats/v1`, `/metadata/v1`, `/rpc`. */
  base?: string;
  timeoutMs?: number;
  /** The error message of a non-2xx answer (default: the body's `message`). */
  errorMessage?: (response: Response, text: string) => string;
}

/** One GET resource: its path under its base for some params, and (as a phantom type) its answer. */
interface Resource<P, R> extends Mount {
  path: (params: P) => string;
  /** Never set: carries the response type. */
  readonly response?: R;
}

/** One POST resource (an action): also the type of its JSON body. */
interface Action<P, B, R> extends Resource<P, R> {
  method: 'POST';
  /** Never set: carries the body type. */
  readonly body?: B;
}

const resource = <P, R>(path: (params: P) => string, mount: Mount = {}): Resource<P, R> => ({
  path,
  ...mount,
});
const action = <P, B, R>(path: (params: P) => string, mount: Mount = {}): Action<P, B, R> => ({
  path,
  method: 'POST',
  ...mount,
});
const page = (p: Page) => `size=${p.size}&offset=${p.offset}`;
/** The contract lists' order of the paging parameters (as the pages have always asked). */
const offsetFirst = (p: Page) => `offset=${p.offset}&size=${p.size}`;
const contract = (p: { network: string; address: string }) => `/contract/${enc(p.network)}/${enc(p.address)}`;
type At = { network: string; address: string };
/** `?level=N` of the storage answers (none: the latest storage). */
const atLevel = (p: { level: number | null }) => (p.level === null ? '' : `?level=${p.level}`);
/** The search service: 10 s, and its errors carry the status (discovery spec §9). */
const SEARCH: Mount = {
  base: '/search/v1',
  timeoutMs: 10_000,
  errorMessage: (response) =>
    `Search service error: ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
};
const STATS: Mount = { base: '/stats/v1', timeoutMs: 10_000 };
/** A series of the statistics service: a table, a function and the filters of its rows (`Status=1`…). */
export interface StatsSeries {
  network: string;
  table: string;
  /** `distinct`: the number of distinct values of `filters.field` (the BCD client's unique users). */
  fn: 'count' | 'sum' | 'distinct';
  filters: Readonly<Record<string, string>>;
}
const statsFilters = (p: StatsSeries) => new URLSearchParams({ network: p.network, ...p.filters }).toString();
/** A recording may take the API's whole 10 s worker limit after a queue: the debugger waits 60 s. */
const DEBUG: Mount = { timeoutMs: 60_000 };
/** The node RPC through this origin's pass-through (/rpc/{network}/…). */
const RPC: Mount = { base: '/rpc' };
const node = (network: string) => `/${enc(network)}/chains/main`;
/** The metadata GraphQL service: its request errors are `{"errors": [{"message"}]}`. */
const METADATA: Mount = {
  base: '/metadata/v1',
  errorMessage: (response, text) => {
    try {
      const body = JSON.parse(text) as { errors?: { message?: unknown }[] } | null;
      const message = body?.errors?.[0]?.message;
      if (typeof message === 'string' && message !== '') return message;
    } catch {
      // not JSON: the status
    }
    return `Metadata service error: ${response.status}`;
  },
};

/** Every main-API resource the web reads, by name. */
export const RESOURCES = {
  config: resource<void, ConfigResponse>(() => '/config'),
  head: resource<void, Head[]>(() => '/head'),
  stats: resource<void, Block[]>(() => '/stats'),
  bigMap: resource<{ network: string; ptr: number | string }, BigMapInfo>(
    ({ network, ptr }) => `/bigmap/${enc(network)}/${enc(ptr)}`,
  ),
  /**
   * `partial`: the keys are not indexed (a contract read from the node when first asked for, issue 32). With
   * `level`: the count at the end of that block (a storage shown at an old level, issue 33).
   */
  bigMapCount: resource<
    { network: string; ptr: number; level?: number | undefined },
    { count: number; partial?: boolean }
  >((p) => `/bigmap/${enc(p.network)}/${p.ptr}/count${p.level !== undefined ? `?level=${p.level}` : ''}`),
  /** 204 (no actions): null. */
  bigMapHistory: resource<{ network: string; ptr: number }, BigMapHistory | null>(
    (p) => `/bigmap/${enc(p.network)}/${p.ptr}/history`,
  ),
  /** A page of keys; `search` filters by key text or hash, `activeOnly` leaves out removed keys. */
  bigMapKeys: resource<
    { network: string; ptr: number; offset: number; size: number; search: string; activeOnly: boolean },
    BigMapKeyItem[] | null
  >((p) => {
    const q = new URLSearchParams({ offset: String(p.offset), size: String(p.size) });
    if (p.search !== '') q.set('search', p.search);
    if (p.activeOnly) q.set('active_only', 'true');
    return `/bigmap/${enc(p.network)}/${p.ptr}/keys?${q.toString()}`;
  }),
  bigMapKeyState: resource<{ network: string; ptr: number; keyHash: string }, BigMapKeyState>(
    (p) => `/bigmap/${enc(p.network)}/${p.ptr}/keys/${enc(p.keyHash)}/state`,
  ),
  /** 204 (no diffs): null. */
  bigMapKeyHistory: resource<
    { network: string; ptr: number; keyHash: string; offset: number; size: number },
    BigMapKeyHistory | null
  >((p) => `/bigmap/${enc(p.network)}/${p.ptr}/keys/${enc(p.keyHash)}?offset=${p.offset}&size=${p.size}`),
  recentlyCalled: resource<{ network: string } & Page, RecentlyCalledContract[]>(
    (p) => `/stats/${enc(p.network)}/recently_called_contracts?${page(p)}`,
  ),
  globalConstants: resource<{ network: string } & Page, GlobalConstantItem[]>(
    (p) => `/global_constants/${enc(p.network)}?${page(p)}`,
  ),
  globalConstant: resource<{ network: string; address: string }, GlobalConstant>(
    (p) => `/global_constants/${enc(p.network)}/${enc(p.address)}`,
  ),
  constantContracts: resource<{ network: string; address: string } & Page, Contract[]>(
    (p) => `/global_constants/${enc(p.network)}/${enc(p.address)}/contracts?${page(p)}`,
  ),
  /** Storage diff between the ends of two levels (time travel, issue 21). */
  storageDiff: resource<{ network: string; address: string; from: number; to: number }, StorageDiff>(
    (p) => `/contract/${enc(p.network)}/${enc(p.address)}/storage/diff?from=${p.from}&to=${p.to}`,
  ),
  /** A page of the keys of big map `ptr` added, changed or removed between the ends of two levels. */
  bigMapKeyChanges: resource<
    {
      network: string;
      address: string;
      ptr: number;
      from: number;
      to: number;
      change: KeyChangeKind | null;
    } & Page,
    BigMapKeyChanges
  >(
    (p) =>
      `/contract/${enc(p.network)}/${enc(p.address)}/storage/diff/big_map/${p.ptr}` +
      `?from=${p.from}&to=${p.to}&${page(p)}${p.change ? `&change=${p.change}` : ''}`,
  ),
  account: resource<At, AccountInfo>((p) => `/account/${enc(p.network)}/${enc(p.address)}`),
  smartRollup: resource<At, SmartRollup>((p) => `/smart_rollups/${enc(p.network)}/${enc(p.address)}`),
  /** The contract with its same-code count; 204 (unknown contract): null. */
  contract: resource<At, ContractWithStats | null>((p) => `${contract(p)}?stats=true`),
  sameContracts: resource<At & Page, SameContractsResponse | null>(
    (p) => `${contract(p)}/same?${offsetFirst(p)}`,
  ),
  /** The storage form: type docs and schema, with a model of the current or initial storage (`fillType`). */
  storageSchema: resource<At & { fillType: 'empty' | 'current' | 'initial' | null }, EntrypointSchema>(
    (p) => `${contract(p)}/storage/schema${p.fillType === null ? '' : `?fill_type=${p.fillType}`}`,
  ),
  /** The entrypoints' forms. */
  entrypoints: resource<At, EntrypointSchema[]>((p) => `${contract(p)}/entrypoints`),
  /** One entrypoint's form with a model: the latest call's parameter, or that of operation `hash` / `counter`. */
  entrypointSchema: resource<
    At & { entrypoint: string; fillType: 'latest' | 'operation'; hash?: string; counter?: number },
    EntrypointSchema
  >((p) => {
    const q = new URLSearchParams({ entrypoint: p.entrypoint, fill_type: p.fillType });
    if (p.hash) q.set('hash', p.hash);
    if (p.counter !== undefined) q.set('counter', String(p.counter));
    return `${contract(p)}/entrypoints/schema?${q.toString()}`;
  }),
  /** A call simulated by the node's run_code (storage and internal operations only). */
  trace: action<At, CallRequest, Operation[]>((p) => `${contract(p)}/entrypoints/trace`),
  /** A call applied by the node's run_operation (gas, storage, burn, big-map changes, events). */
  runOperation: action<At, CallRequest, Operation[]>((p) => `${contract(p)}/entrypoints/run_operation`),
  /** An on-chain or off-chain view run; its result as Miguel trees (null: none). */
  executeView: action<At, ViewRequest, MiguelNode[] | null>((p) => `${contract(p)}/views/execute`),
  /** The form of a TZIP-16 off-chain view (null: no michelsonStorageView implementation). */
  offChainView: action<void, OffChainViewRequest, ViewSchema | null>(() => '/off_chain_view'),
  /** Code and storage Micheline for a new origination from a contract and a storage form. */
  fork: action<void, ForkRequest, ForkResult>(() => '/fork'),
  /** The contract's script from the node (the server's RPC pass-through). */
  script: resource<At, NodeScript>(
    (p) => `${node(p.network)}/blocks/head/context/contracts/${enc(p.address)}/script`,
    RPC,
  ),
  /** The protocol's constants at the head or at a level (node RPC). */
  networkConstants: resource<{ network: string; block: 'head' | number }, NodeConstants>(
    (p) => `${node(p.network)}/blocks/${p.block}/context/constants`,
    RPC,
  ),
  /** The head block's header, or a level's (node RPC). */
  headHeader: resource<{ network: string; block?: number | undefined }, NodeBlockHeader>(
    (p) => `${node(p.network)}/blocks/${p.block ?? 'head'}/header`,
    RPC,
  ),
  /** The chain id (node RPC). */
  chainId: resource<{ network: string }, string>((p) => `${node(p.network)}/chain_id`, RPC),
  /** An account's counter at the head, or at a level (node RPC). */
  counter: resource<At & { block?: number | undefined }, NodeNumber>(
    (p) => `${node(p.network)}/blocks/${p.block ?? 'head'}/context/contracts/${enc(p.address)}/counter`,
    RPC,
  ),
  /** The bytes a contract's storage uses, and those it paid for (node RPC). */
  usedSpace: resource<At, NodeNumber>(
    (p) => `${node(p.network)}/blocks/head/context/contracts/${enc(p.address)}/storage/used_space`,
    RPC,
  ),
  paidSpace: resource<At, NodeNumber>(
    (p) => `${node(p.network)}/blocks/head/context/contracts/${enc(p.address)}/storage/paid_space`,
    RPC,
  ),
  /** The total bytes of a big map (node RPC, raw context). */
  bigMapTotalBytes: resource<{ network: string; ptr: number }, NodeNumber>(
    (p) => `${node(p.network)}/blocks/head/context/raw/json/big_maps/index/${p.ptr}/total_bytes`,
    RPC,
  ),
  /** An unsigned operation run by the node at the head or at a level (the deploy wizard's origination simulation). */
  simulateOperation: action<
    { network: string; block?: number | undefined },
    NodeSimulateRequest,
    NodeSimulateResult
  >((p) => `${node(p.network)}/blocks/${p.block ?? 'head'}/helpers/scripts/simulate_operation`, RPC),
  /** The code as Michelson text; with a protocol, the code the contract ran under it. */
  code: resource<At & { protocol: string | null }, string>(
    (p) => `${contract(p)}/code${p.protocol === null ? '' : `?protocol=${enc(p.protocol)}`}`,
  ),
  /** The storage as Miguel trees (big maps as pointers) at a level (null: the latest). */
  storage: resource<At & { level: number | null }, MiguelNode[]>(
    (p) => `${contract(p)}/storage${atLevel(p)}`,
  ),
  /** The storage as Michelson text. */
  storageRaw: resource<At & { level: number | null }, string>(
    (p) => `${contract(p)}/storage/raw${atLevel(p)}`,
  ),
  /** The storage as Micheline with every big map's entries in place of its pointer. */
  storageRich: resource<At & { level: number | null }, Micheline>(
    (p) => `${contract(p)}/storage/rich${atLevel(p)}`,
  ),
  /** Global constants the contract's code uses. */
  contractConstants: resource<At & Page, GlobalConstant[] | null>(
    (p) => `${contract(p)}/global_constants?${offsetFirst(p)}`,
  ),
  migrations: resource<At, Migration[] | null>((p) => `${contract(p)}/migrations`),
  /** The levels at which the storage changed, newest first. */
  storageLevels: resource<At, StorageLevel[] | null>((p) => `${contract(p)}/storage/levels`),
  events: resource<At & Page, Event[] | null>((p) => `${contract(p)}/events?${offsetFirst(p)}`),
  /** Ticket updates an account (contract or implicit) holds or issued. */
  accountTicketUpdates: resource<At & Page, TicketUpdate[] | null>(
    (p) => `/account/${enc(p.network)}/${enc(p.address)}/ticket_updates?${offsetFirst(p)}`,
  ),
  operationTicketUpdates: resource<{ network: string; id: number }, TicketUpdate[] | null>(
    (p) => `/operation/${enc(p.network)}/${p.id}/ticket_updates`,
  ),
  /** On-chain views with their forms. */
  views: resource<At, ViewSchema[] | null>((p) => `${contract(p)}/views/schema`),
  /** An operation group with its storage diffs (an unknown hash: `[]`). */
  opg: resource<{ network: string; hash: string }, Operation[]>(
    (p) => `/opg/${enc(p.network)}/${enc(p.hash)}?with_storage_diff=true`,
  ),
  /**
   * One top-level content of a group and its internal operations; implicit operations have no hash and are
   * found by block level (`counter` is then the level).
   */
  opgContent: resource<{ network: string; hash: string; counter: number }, Operation[]>((p) =>
    p.hash === ''
      ? `/implicit/${enc(p.network)}/${p.counter}`
      : `/opg/${enc(p.network)}/${enc(p.hash)}/${p.counter}`,
  ),
  /** A page of an account's operation groups, after `last_id` (null: the first page). */
  opgList: resource<{ network: string; address: string; size: number; lastId: number | null }, OPGResponse[]>(
    (p) =>
      `/contract/${enc(p.network)}/${enc(p.address)}/opg?` +
      (p.lastId === null ? '' : `last_id=${p.lastId}&`) +
      `size=${p.size}`,
  ),
  /** Pending operations of an account. */
  mempool: resource<{ network: string; address: string }, Operation[]>(
    (p) => `/contract/${enc(p.network)}/${enc(p.address)}/mempool`,
  ),
  operationDiff: resource<{ network: string; id: number }, MiguelNode | null>(
    (p) => `/operation/${enc(p.network)}/${p.id}/diff`,
  ),
  errorLocation: resource<{ network: string; id: number }, ErrorLocation>(
    (p) => `/operation/${enc(p.network)}/${p.id}/error_location`,
  ),
  /** Suggestions of the home search box. */
  suggest: action<void, SuggestRequest, SuggestResponse>(() => '/suggest', SEARCH),
  /** A page of the search service (the search page, the operations tab's filters, the big-map keys). */
  search: action<void, SearchRequest, SearchResponse>(() => '/search', SEARCH),
  /** The names of an account by source; 204 (none known): null. */
  accountAliases: resource<At, AliasSources | null>(
    (p) => `/account/${enc(p.network)}/${enc(p.address)}`,
    SEARCH,
  ),
  /** Mime types of token files (the Tokens tab's filter). */
  mimeTypes: resource<void, MimeTypeList>(() => '/mime_types', SEARCH),
  /** A series of the statistics service: points per timeframe, oldest first. */
  statsHistogram: resource<StatsSeries & { timeframe: string }, SeriesPoint[]>(
    (p) => `/histogram/${enc(p.table)}/${enc(p.fn)}/${enc(p.timeframe)}?${statsFilters(p)}`,
    STATS,
  ),
  /** The total of a series of the statistics service. */
  statsSummary: resource<StatsSeries, StatsSummary>(
    (p) => `/summary/${enc(p.table)}/${enc(p.fn)}?${statsFilters(p)}`,
    STATS,
  ),
  /** One call recorded step by step by the debugger (issue 20). */
  debug: action<At, DebugRequest, DebugResult>((p) => `${contract(p)}/entrypoints/debug`, DEBUG),
  /** A view (on-chain or TZIP-16 off-chain) recorded step by step by the debugger. */
  viewDebug: action<At, ViewRequest, DebugResult>((p) => `${contract(p)}/views/debug`, DEBUG),
  /** A call of an undeployed script (the deploy page) recorded step by step. */
  scriptDebug: action<{ network: string }, ScriptDebugRequest, DebugResult>(
    (p) => `/script/${enc(p.network)}/debug`,
    DEBUG,
  ),
  /** An indexed contract call replayed at its level and compared with the recorded one. */
  operationDebug: action<{ network: string; id: number }, Record<string, never>, DebugResult>(
    (p) => `/operation/${enc(p.network)}/${p.id}/debug`,
    DEBUG,
  ),
  /** The code of two contracts compared by blocks (entrypoints, views), then lines (a POST, read as a query). */
  codeDiff: action<void, CodeDiffRequest, CodeDiffResponse>(() => '/diff'),
  /** A bundle of calls run against overridden state (issue 20, capability 5); as long as a recording. */
  whatIf: action<At, WhatIfRequest, WhatIfResult>((p) => `${contract(p)}/entrypoints/what_if`, DEBUG),
  /** The token-approval form's JSON schema (reference §4.7; static; read by slices/contract/interact/approvals). */
  approveSchema: resource<void, ApproveSchema>(() => '/helpers/approve/schema'),
  /** The approve and revoke calls of token approvals. */
  approveData: action<void, ApproveRequest, ApproveData>(() => '/helpers/approve/data'),
  /** The newest contract with one of the tags (comma-separated); 404 when there is none. */
  contractWithTag: resource<{ network: string; tags: string }, Contract>(
    (p) => `/helpers/contracts/${enc(p.network)}?tags=${enc(p.tags)}`,
  ),
  /** A query of the metadata GraphQL service (contract and token metadata, workspace spec §7). */
  metadataGraphql: action<void, MetadataGraphqlRequest, MetadataGraphqlResponse>(() => '/graphql', METADATA),
  /** Stores a simulation too long for a link's fragment; the same state always gets the same id (issue 20). */
  shareCreate: action<void, SharedSimulation, ShareCreated>(() => '/shares'),
  /** A stored simulation, by the id of its link (`#share=…`). */
  share: resource<{ id: string }, StoredShare>((p) => `/shares/${enc(p.id)}`),
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

/** The id of the JSON block in which the server inlines GET /v1/config (apps/server page-html.ts). */
export const BOOT_CONFIG_ID = 'ms-boot-config';

/**
 * The configuration the server inlined in index.html (`<script type="application/json">`), so that the app
 * starts without a round trip; undefined when it is absent or unreadable (the app then asks /v1/config).
 */
export function inlinedConfig(doc: Document = document): ConfigResponse | undefined {
  const text = doc.getElementById(BOOT_CONFIG_ID)?.textContent;
  if (!text) return undefined;
  try {
    const config = JSON.parse(text) as ConfigResponse | null;
    return Array.isArray(config?.networks) ? config : undefined;
  } catch {
    return undefined;
  }
}

/** The spec's text for a network without a node RPC endpoint in the configuration. */
export const noRpcEndpoint = (network: string) =>
  new ApiError(`Don't have an RPC endpoint for the ${network}`, 0);

/** The format of an export: CSV or JSON. */
export type ExportFormat = 'csv' | 'json';

/** A streamed export (issue 21): its URL (with the list's filters), and the body of a POST (the search). */
export interface ExportRequest {
  url: string;
  body?: unknown;
}

/** Opens the streamed answer of an export (its URL and body from EXPORTS), to read as it arrives. */
export const openExport = (request: ExportRequest, signal: AbortSignal) =>
  openStream(request.url, { body: request.body, signal });

const query = (format: ExportFormat, extra: Record<string, string | number | boolean | null | undefined>) => {
  const q = new URLSearchParams({ format });
  for (const [k, v] of Object.entries(extra))
    if (v !== null && v !== undefined && v !== '' && v !== false) q.set(k, String(v));
  return q.toString();
};

/**
 * Every table's export, by name: the `…/export` route next to the list, with the filters the list shows
 * (the columns of each are the api-types `…ExportRow` schemas).
 */
export const EXPORTS = {
  /** The operations tab with its filters and search text. */
  operations: (
    p: At & {
      statuses: readonly string[];
      entrypoints: readonly string[];
      range: { gte: number; lt: number } | null;
      search: string;
    },
    format: ExportFormat,
  ): ExportRequest => ({
    url:
      `${API_BASE}${contract(p)}/operations/export?` +
      query(format, {
        status: p.statuses.join(','),
        entrypoint: p.entrypoints.join(','),
        from: p.range ? Math.max(0, Math.floor(p.range.gte)) : null,
        to: p.range ? Math.max(0, Math.floor(p.range.lt)) : null,
        search: p.search.trim(),
      }),
  }),
  /** The keys list of a big map with its search and 'Only active'. */
  bigMapKeys: (
    p: { network: string; ptr: number; search: string; activeOnly: boolean },
    format: ExportFormat,
  ): ExportRequest => ({
    url:
      `${API_BASE}/bigmap/${enc(p.network)}/${p.ptr}/keys/export?` +
      query(format, { search: p.search, active_only: p.activeOnly }),
  }),
  bigMapKeyHistory: (
    p: { network: string; ptr: number; keyHash: string },
    format: ExportFormat,
  ): ExportRequest => ({
    url: `${API_BASE}/bigmap/${enc(p.network)}/${p.ptr}/keys/${enc(p.keyHash)}/export?${query(format, {})}`,
  }),
  events: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/events/export?${query(format, {})}`,
  }),
  accountTicketUpdates: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}/account/${enc(p.network)}/${enc(p.address)}/ticket_updates/export?${query(format, {})}`,
  }),
  /** The ticket updates of one operation (its card on the operation group page). */
  operationTicketUpdates: (p: { network: string; id: number }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}/operation/${enc(p.network)}/${p.id}/ticket_updates/export?${query(format, {})}`,
  }),
  /** The tokens tab with its search. */
  tokens: (p: At & { search: string }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/tokens/export?${query(format, { search: p.search })}`,
  }),
  tokenHolders: (p: At & { tokenId: string }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/tokens/holders/export?${query(format, { token_id: p.tokenId })}`,
  }),
  sameContracts: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/same/export?${query(format, {})}`,
  }),
  migrations: (p: At, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}${contract(p)}/migrations/export?${query(format, {})}`,
  }),
  recentlyCalled: (p: { network: string }, format: ExportFormat): ExportRequest => ({
    url: `${API_BASE}/stats/${enc(p.network)}/recently_called_contracts/export?${query(format, {})}`,
  }),
  /** The search page's query and filters (POST, as the search itself). */
  search: (p: { query: string; filters: unknown }, format: ExportFormat): ExportRequest => ({
    url: `/search/v1/search/export?${query(format, {})}`,
    body: { query: p.query, filters: p.filters },
  }),
};
