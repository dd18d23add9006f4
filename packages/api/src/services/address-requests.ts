/**
 * Any address of a public network at once (issue 32, capability 1). A network indexed from a later level than
 * an address's first operation does not hold it until the address is used again. When a request names such an
 * address, the API asks the network's indexer for it (db `address_requests`) and waits a moment: the indexer
 * reads what its node knows at its stored head and writes the address through its write path, then the route
 * answers from the database as for any indexed address. An address the node does not know stays unknown (the
 * route's 204 or 404), remembered for a minute.
 */
import { isAddress } from '@michelscope/michelson';
import { getAddressRequest, requestAddress, type AddressRequest } from '@michelscope/db/address-requests';
import { addressStored, firstStoredLevel } from '@michelscope/db/read';
import type { ApiContext } from '../context';

/** How long a request waits for the indexer to read the address. */
export const ADOPT_WAIT_MS = 3_000;
const POLL_MS = 40;
/** Requests waiting at once in this process; past it a request answers from what is stored, without waiting. */
const MAX_WAITING = 32;
/** Requests a network's indexer may have queued; past it no new one is queued (a flood of made-up addresses). */
const MAX_PENDING = 256;
/** Addresses known to be stored, remembered so that they cost no query (cleared past this size). */
const MAX_KNOWN = 50_000;
/** At most this many malformed addresses (bad checksum) remembered. */
const MAX_INVALID = 10_000;

interface State {
  known: Set<string>;
  /** Addresses with a bad checksum or form: nothing to ask any node. */
  invalid: Set<string>;
  /** Networks whose stored chain starts at genesis: every address they ever saw is stored already. */
  fromGenesis: Set<string>;
  waiting: number;
}

const states = new WeakMap<ApiContext, State>();

function stateOf(ctx: ApiContext): State {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { known: new Set(), invalid: new Set(), fromGenesis: new Set(), waiting: 0 }));
  return s;
}

/** A well-formed address with a valid checksum (made-up strings never reach the indexer); no txr1 (none is left). */
const validAddress = (address: string): boolean => isAddress(address) && !address.startsWith('txr1');

/**
 * Makes sure an address a request names is stored when the network's node knows it: returns at once when it
 * is stored (or cannot be asked for), else asks the indexer and waits up to ADOPT_WAIT_MS for its answer.
 * Answers the request's state (undefined when none was needed).
 */
export async function ensureAddress(
  ctx: ApiContext,
  network: string,
  address: string,
): Promise<AddressRequest | undefined> {
  const s = stateOf(ctx);
  const key = `${network}:${address}`;
  if (s.known.has(key) || s.fromGenesis.has(network) || !ctx.networks.get(network)) return undefined;
  if (s.invalid.has(key)) return undefined;
  if (!validAddress(address)) {
    // remembered apart (so that made-up addresses never push stored ones out): its checksum is not checked
    // again at every request naming it (a hash and a base58 decoding, issue 36)
    if (s.invalid.size >= MAX_INVALID) s.invalid.clear();
    s.invalid.add(key);
    return undefined;
  }
  if (await addressStored(ctx.db, network, address)) {
    if (s.known.size >= MAX_KNOWN) s.known.clear();
    s.known.add(key);
    return undefined;
  }
  const first = await firstStoredLevel(ctx.db, network);
  if (first === null) return undefined;
  if (first <= 1) {
    s.fromGenesis.add(network);
    return undefined;
  }
  let request = await getAddressRequest(ctx.db, network, address);
  if (request && request.state !== 'pending' && Date.now() - request.updated_at.getTime() < 60_000)
    return request;
  if (s.waiting >= MAX_WAITING) return request;
  s.waiting++;
  try {
    if (!(await requestAddress(ctx.db, network, address, MAX_PENDING))) return request;
    ctx.options.onAddressRequest?.(network);
    const until = Date.now() + ADOPT_WAIT_MS;
    for (;;) {
      request = await getAddressRequest(ctx.db, network, address);
      if (!request || request.state !== 'pending' || Date.now() >= until) return request;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    s.waiting--;
  }
}
