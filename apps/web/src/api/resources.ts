/**
 * The registry of main-API resources used by the web app: one typed function per endpoint, which builds
 * the path and validates the answer. Query factories (./queries.ts), route loaders and tests use these.
 * This module never imports UI code.
 */
import { ApiError, getJson, requestJson, type RequestOptions } from './client';
import { parseBigMapInfo, parseConfig, parseHeads } from './parse';
import {
  parseContracts,
  parseGlobalConstant,
  parseGlobalConstantItems,
  parseNetworkStates,
  parseRecentlyCalled,
} from './parse-discovery';
import type {
  BigMapInfo,
  ConfigResponse,
  ContractSummary,
  GlobalConstant,
  GlobalConstantItem,
  Head,
  NetworkState,
  RecentlyCalledContract,
} from './types';

const enc = encodeURIComponent;

export function fetchConfig(options?: RequestOptions): Promise<ConfigResponse> {
  return getJson('/config', options).then(parseConfig);
}

/** The id of the JSON block in which the server inlines GET /v1/config (apps/server static-web.ts). */
export const BOOT_CONFIG_ID = 'ms-boot-config';

/**
 * The configuration the server inlined in index.html (`<script type="application/json">`), so that the app
 * starts without a round trip; undefined when it is absent or unreadable (the app then asks /v1/config).
 */
export function inlinedConfig(doc: Document = document): ConfigResponse | undefined {
  const text = doc.getElementById(BOOT_CONFIG_ID)?.textContent;
  if (!text) return undefined;
  try {
    return parseConfig(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export function fetchHeads(options?: RequestOptions): Promise<Head[]> {
  return getJson('/head', options).then(parseHeads);
}

export function fetchBigMap(network: string, ptr: string, options?: RequestOptions): Promise<BigMapInfo> {
  return getJson(`/bigmap/${enc(network)}/${enc(ptr)}`, options).then(parseBigMapInfo);
}

export function fetchNetworkStates(options?: RequestOptions): Promise<NetworkState[]> {
  return getJson('/stats', options).then(parseNetworkStates);
}

export function fetchRecentlyCalled(
  network: string,
  page: { size: number; offset: number },
  options?: RequestOptions,
): Promise<RecentlyCalledContract[]> {
  return getJson(
    `/stats/${enc(network)}/recently_called_contracts?size=${page.size}&offset=${page.offset}`,
    options,
  ).then(parseRecentlyCalled);
}

export function fetchGlobalConstants(
  network: string,
  page: { size: number; offset: number },
  options?: RequestOptions,
): Promise<GlobalConstantItem[]> {
  return getJson(`/global_constants/${enc(network)}?size=${page.size}&offset=${page.offset}`, options).then(
    parseGlobalConstantItems,
  );
}

export function fetchGlobalConstant(
  network: string,
  address: string,
  options?: RequestOptions,
): Promise<GlobalConstant> {
  return getJson(`/global_constants/${enc(network)}/${enc(address)}`, options).then(parseGlobalConstant);
}

export function fetchConstantContracts(
  network: string,
  address: string,
  page: { size: number; offset: number },
  options?: RequestOptions,
): Promise<ContractSummary[]> {
  return getJson(
    `/global_constants/${enc(network)}/${enc(address)}/contracts?size=${page.size}&offset=${page.offset}`,
    options,
  ).then(parseContracts);
}

/** The spec's text for a network without a node RPC endpoint in the configuration. */
export const noRpcEndpoint = (network: string) =>
  new ApiError(`Don't have an RPC endpoint for the ${network}`, 0);

/** Network constants at the head, raw from the node (RPC pass-through of the server, 30 s). */
export async function fetchNetworkConstants(network: string, options?: RequestOptions): Promise<unknown> {
  const { body } = await requestJson(
    `/rpc/${enc(network)}/chains/main/blocks/head/context/constants`,
    options,
  );
  return body;
}
