/**
 * Pure route guards and catch-all resolution (discovery spec §2, "Route table").
 *
 * Every guard answers `null` when the screen may render, or the path to redirect to. When a guard rejects
 * its URL, the URL gets the catch-all treatment (`resolveUnmatched`), exactly as a URL that matched no
 * route at all: a bare address or operation hash still finds its page, anything else lands on /not_found.
 */
import { isAddress, isContractAddress, isOperationHash, isUnsignedId } from '../../shared/chain/patterns';

export const NOT_FOUND_PATH = '/not_found';
/** The external page that /dapps* redirects to. */
export const DAPPS_URL = 'https://tzkt.io/dapps';
/** The network a bare address or operation hash is opened on. */
export const DEFAULT_NETWORK = 'mainnet';

/** null: render the route; string: redirect there. */
export type GuardDecision = string | null;

export type UnmatchedOutcome =
  | { kind: 'redirect'; to: string }
  /** Old-style /{network}/big_map/{ptr}[/{keyHash}] URL: find the contract that owns the big map. */
  | { kind: 'big_map_lookup'; network: string; ptr: string; keyHash: string | null };

export interface RouteParams {
  network?: string | undefined;
  address?: string | undefined;
  hash?: string | undefined;
  ptr?: string | undefined;
}

const SCRIPT_EXPR_RE = /^expr[1-9A-HJ-NP-Za-km-z]{50}$/;

const seg = (value: string): string => encodeURIComponent(value);

export function networkPath(network: string): string {
  return `/${seg(network)}`;
}

export function accountPath(network: string, address: string, tab = 'operations'): string {
  return `/${seg(network)}/${address}/${tab}`;
}

export function operationPath(network: string, hash: string): string {
  return `/${seg(network)}/opg/${hash}/contents`;
}

export function bigMapPath(
  network: string,
  address: string,
  ptr: string | number,
  keyHash?: string | null,
): string {
  const base = `/${seg(network)}/${address}/storage/big_map/${ptr}`;
  return keyHash ? `${base}/${keyHash}` : `${base}/keys`;
}

export function isConfiguredNetwork(
  network: string | undefined,
  networks: readonly string[],
): network is string {
  return network !== undefined && networks.includes(network);
}

/** Splits a pathname into decoded, non-empty segments; a malformed escape keeps its raw text. */
export function pathSegments(pathname: string): string[] {
  return pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/**
 * What to do with a URL that no route accepted (the catch-all of the route table):
 * - /{network}/big_map/{ptr}[/{keyHash}] on a configured network: look the big map up;
 * - a bare address: /mainnet/{address}/operations;
 * - a bare operation hash: /mainnet/opg/{hash}/contents;
 * - /{network}/{hash}/contents (operation group without the opg segment): its canonical path;
 * - anything else: /not_found.
 */
export function resolveUnmatched(pathname: string, networks: readonly string[]): UnmatchedOutcome {
  const parts = pathSegments(pathname);
  const notFound: UnmatchedOutcome = { kind: 'redirect', to: NOT_FOUND_PATH };

  if (parts.length === 1) {
    const [only = ''] = parts;
    if (isAddress(only)) return { kind: 'redirect', to: accountPath(DEFAULT_NETWORK, only) };
    if (isOperationHash(only)) return { kind: 'redirect', to: operationPath(DEFAULT_NETWORK, only) };
    return notFound;
  }

  const [network, second = '', third = '', fourth] = parts;
  if (!isConfiguredNetwork(network, networks)) return notFound;

  if (second === 'big_map' && (parts.length === 3 || parts.length === 4) && isUnsignedId(third)) {
    if (fourth !== undefined && !SCRIPT_EXPR_RE.test(fourth)) return notFound;
    return { kind: 'big_map_lookup', network, ptr: third, keyHash: fourth ?? null };
  }
  if (parts.length === 3 && isOperationHash(second) && third === 'contents') {
    return { kind: 'redirect', to: operationPath(network, second) };
  }
  return notFound;
}

/** The redirect for a URL whose guard failed: the catch-all's answer (a big map lookup never applies here). */
export function rejectedPath(pathname: string, networks: readonly string[]): string {
  const outcome = resolveUnmatched(pathname, networks);
  return outcome.kind === 'redirect' ? outcome.to : NOT_FOUND_PATH;
}

/** Routes that only need a configured network (/{network}/constants, /constant/{network}/{address}, ...). */
export function guardNetwork(p: RouteParams, pathname: string, networks: readonly string[]): GuardDecision {
  return isConfiguredNetwork(p.network, networks) ? null : rejectedPath(pathname, networks);
}

/** /{network} redirects to its recently called contracts tab. */
export function guardNetworkIndex(
  p: RouteParams,
  pathname: string,
  networks: readonly string[],
): GuardDecision {
  if (!isConfiguredNetwork(p.network, networks)) return rejectedPath(pathname, networks);
  return `${networkPath(p.network)}/recently_called`;
}

/**
 * /{network}/{address}: an account redirects to its operations tab; an operation hash in the address
 * position is the short form of the operation group URL.
 */
export function guardAccountIndex(
  p: RouteParams,
  pathname: string,
  networks: readonly string[],
): GuardDecision {
  const { network, address = '' } = p;
  if (!isConfiguredNetwork(network, networks)) return rejectedPath(pathname, networks);
  if (isOperationHash(address)) return operationPath(network, address);
  if (isAddress(address)) return accountPath(network, address);
  return rejectedPath(pathname, networks);
}

/** Tabs open to any account (operations, events, ticket_updates). */
export function guardAccountTab(
  p: RouteParams,
  pathname: string,
  networks: readonly string[],
): GuardDecision {
  const ok = isConfiguredNetwork(p.network, networks) && isAddress(p.address ?? '');
  return ok ? null : rejectedPath(pathname, networks);
}

/** Tabs that need a contract (interact, views, storage, code, metadata, fork, tokens, stats, details). */
export function guardContractTab(
  p: RouteParams,
  pathname: string,
  networks: readonly string[],
): GuardDecision {
  const ok = isConfiguredNetwork(p.network, networks) && isContractAddress(p.address ?? '');
  return ok ? null : rejectedPath(pathname, networks);
}

/** Big map pages under a contract's storage tab: contract guard plus a numeric pointer. */
export function guardBigMap(p: RouteParams, pathname: string, networks: readonly string[]): GuardDecision {
  const contract = guardContractTab(p, pathname, networks);
  if (contract !== null) return contract;
  return isUnsignedId(p.ptr ?? '') ? null : rejectedPath(pathname, networks);
}

/** /{network}/{address}/storage/big_map/{ptr} redirects to its keys. */
export function guardBigMapIndex(
  p: RouteParams,
  pathname: string,
  networks: readonly string[],
): GuardDecision {
  const decision = guardBigMap(p, pathname, networks);
  if (decision !== null) return decision;
  return bigMapPath(p.network ?? '', p.address ?? '', p.ptr ?? '');
}

/** Operation group pages: configured network and an operation hash. */
export function guardOperation(p: RouteParams, pathname: string, networks: readonly string[]): GuardDecision {
  const ok = isConfiguredNetwork(p.network, networks) && isOperationHash(p.hash ?? '');
  return ok ? null : rejectedPath(pathname, networks);
}

/** /{network}/opg/{hash} redirects to its contents. */
export function guardOperationIndex(
  p: RouteParams,
  pathname: string,
  networks: readonly string[],
): GuardDecision {
  const decision = guardOperation(p, pathname, networks);
  return decision ?? operationPath(p.network ?? '', p.hash ?? '');
}

/**
 * The redirect target for an old-style big map URL once the big map is known. The lookup answer is
 * untrusted: a network that is not configured or an owner that is not a contract gives /not_found.
 */
export function bigMapLookupTarget(
  answer: { network?: unknown; address?: unknown; ptr?: unknown } | null,
  requested: { network: string; ptr: string; keyHash: string | null },
  networks: readonly string[],
): string {
  if (answer === null) return NOT_FOUND_PATH;
  const network = typeof answer.network === 'string' ? answer.network : requested.network;
  const { address } = answer;
  if (typeof address !== 'string' || !isContractAddress(address)) return NOT_FOUND_PATH;
  if (!isConfiguredNetwork(network, networks)) return NOT_FOUND_PATH;
  return bigMapPath(network, address, requested.ptr, requested.keyHash);
}
