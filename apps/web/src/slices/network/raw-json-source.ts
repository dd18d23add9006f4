/**
 * Where the raw JSON viewer reads a document from the node RPC (discovery spec §7: network constants at
 * head or at a given level). The viewer is opened with a type; a type it does not know gives the spec's
 * error 'Unsupported type {type}' (§8) instead of a request.
 */
import { ApiError, requestJson, type RequestOptions } from '../../api/client';
import { noRpcEndpoint } from '../../api/resources';

export type RawJsonRequest = { type: 'constants'; level?: number | undefined } | { type: string };

export const unsupportedType = (type: string) => new ApiError(`Unsupported type ${type}`, 0);

const enc = encodeURIComponent;

/** The node RPC path (through this origin's /rpc/{network} pass-through) of a raw JSON document. */
export function rawJsonPath(network: string, request: RawJsonRequest): string {
  switch (request.type) {
    case 'constants': {
      const level = 'level' in request ? request.level : undefined;
      const block = level !== undefined && Number.isSafeInteger(level) && level >= 0 ? String(level) : 'head';
      return `/rpc/${enc(network)}/chains/main/blocks/${block}/context/constants`;
    }
    default:
      throw unsupportedType(request.type);
  }
}

/** Loads a raw JSON document; rejects with the spec's texts for a missing endpoint or an unknown type. */
export async function fetchRawJson(
  network: string,
  request: RawJsonRequest,
  hasRpc: boolean,
  options?: RequestOptions,
): Promise<unknown> {
  if (!hasRpc) throw noRpcEndpoint(network);
  const { body } = await requestJson(rawJsonPath(network, request), options);
  return body;
}
