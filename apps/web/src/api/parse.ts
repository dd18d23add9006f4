/**
 * Validation of API answers. Everything that comes over the wire is untrusted: a malformed answer gives
 * a clear ApiError instead of a crash somewhere in a component.
 */
import { ApiError } from './client';
import type { BigMapInfo, ConfigResponse, Head } from './types';

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

function bool(obj: Json, key: string, fallback: boolean): boolean {
  const value = obj[key];
  return typeof value === 'boolean' ? value : fallback;
}

export function parseConfig(body: unknown): ConfigResponse {
  if (!isObject(body)) throw invalid('configuration', 'not an object');
  const { networks, rpc_endpoints: rpc, sentry_dsn: sentry } = body;
  if (!Array.isArray(networks) || !networks.every((n): n is string => typeof n === 'string' && n !== '')) {
    throw invalid('configuration', 'networks must be a list of names');
  }
  const rpcEndpoints: Record<string, string> = {};
  if (isObject(rpc)) {
    for (const [network, url] of Object.entries(rpc)) {
      if (typeof url === 'string') rpcEndpoints[network] = url;
    }
  }
  return {
    networks: [...new Set(networks)],
    rpc_endpoints: rpcEndpoints,
    sentry_dsn: typeof sentry === 'string' ? sentry : '',
    oauth_enabled: bool(body, 'oauth_enabled', false),
    ga_enabled: bool(body, 'ga_enabled', false),
    sandbox_mode: bool(body, 'sandbox_mode', false),
    mempool_enabled: bool(body, 'mempool_enabled', false),
    network_info: Array.isArray(body.network_info)
      ? body.network_info.filter(isObject).flatMap((n) =>
          typeof n.name === 'string'
            ? [
                {
                  name: n.name,
                  rpc_endpoint: typeof n.rpc_endpoint === 'string' ? n.rpc_endpoint : '',
                  stats_enabled: n.stats_enabled === true,
                  ...(typeof n.explorer_url === 'string' && n.explorer_url.startsWith('https://')
                    ? { explorer_url: n.explorer_url }
                    : {}),
                },
              ]
            : [],
        )
      : [],
    ipfs_gateway:
      typeof body.ipfs_gateway === 'string' && body.ipfs_gateway.startsWith('https://')
        ? body.ipfs_gateway
        : null,
  };
}

/** GET /v1/head: entries that are not well-formed are dropped (their network then shows unsynced). */
export function parseHeads(body: unknown): Head[] {
  if (!Array.isArray(body)) throw invalid('head list', 'not a list');
  const heads: Head[] = [];
  for (const item of body) {
    if (!isObject(item) || typeof item.network !== 'string') continue;
    heads.push({
      network: item.network,
      level: typeof item.level === 'number' && Number.isFinite(item.level) ? item.level : 0,
      time: typeof item.time === 'string' ? item.time : '',
      protocol: typeof item.protocol === 'string' ? item.protocol : '',
      synced: item.synced === true,
    });
  }
  return heads;
}

export function parseBigMapInfo(body: unknown): BigMapInfo {
  if (!isObject(body)) throw invalid('big map', 'not an object');
  const { network, address, ptr } = body;
  if (typeof network !== 'string' || typeof address !== 'string' || typeof ptr !== 'number') {
    throw invalid('big map', 'network, address and ptr are required');
  }
  const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { network, address, ptr, active_keys: count(body.active_keys), total_keys: count(body.total_keys) };
}
