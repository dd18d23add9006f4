/**
 * Where the raw JSON viewer reads a document from the node RPC (discovery spec §7: network constants at
 * head or at a given level). The viewer is opened with a type; a type it does not know gives the spec's
 * error 'Unsupported type {type}' (§8) instead of a request.
 */
import type { NodeConstants } from '@michelscope/api-types';
import { ApiError, type RequestOptions } from '../../api/client';
import { fetchResource, noRpcEndpoint, resourceUrl } from '../../api/resources';

export type RawJsonRequest = { type: 'constants'; level?: number | undefined } | { type: string };

export const unsupportedType = (type: string) => new ApiError(`Unsupported type ${type}`, 0);

/** The registry resource of a raw JSON document (the node RPC, through this origin's /rpc/{network}). */
function rawJsonResource(network: string, request: RawJsonRequest) {
  switch (request.type) {
    case 'constants': {
      const level = 'level' in request ? request.level : undefined;
      const block = level !== undefined && Number.isSafeInteger(level) && level >= 0 ? level : 'head';
      return { name: 'networkConstants', params: { network, block } } as const;
    }
    default:
      throw unsupportedType(request.type);
  }
}

/** The URL of a raw JSON document. */
export function rawJsonPath(network: string, request: RawJsonRequest): string {
  const { name, params } = rawJsonResource(network, request);
  return resourceUrl(name, params);
}

/** Loads a raw JSON document; rejects with the spec's texts for a missing endpoint or an unknown type. */
export async function fetchRawJson(
  network: string,
  request: RawJsonRequest,
  hasRpc: boolean,
  options?: RequestOptions,
): Promise<NodeConstants> {
  if (!hasRpc) throw noRpcEndpoint(network);
  const { name, params } = rawJsonResource(network, request);
  return fetchResource(name, params, options);
}
