/**
 * Any address of a public network at once (issue 32, capability 1). A network indexed from a later level than
 * an address's first operation does not hold it until the address is used again. When a request names such an
 * address, the API asks the network's indexer for it (db `address_requests`) and waits a moment: the indexer
 * reads what its node knows at its stored head and writes the address through its write path, then the route
 * answers from the database as for any indexed address. An address the node does not know stays unknown (the
 * route's 204 or 404), remembered for a minute.
 */
import { addressToHex } from '@michelscope/michelson';
import { sql } from 'kysely';
import { getAddressRequest, requestAddress, type AddressRequest } from '@michelscope/db/address-requests';
import type { ApiContext } from '../context';
import { ADDRESS_RE } from '../validate';

/** How long a request waits for the indexer to read the address. */
export const ADOPT_WAIT_MS = 3_000;
const POLL_MS = 40;
/** Requests waiting at once in this process; past it a request answers from what is stored, without waiting. */
const MAX_WAITING = 32;
/** Requests a network's indexer may have queued; past it no new one is queued (a flood of made-up addresses). */
const MAX_PENDING = 256;
/** Addresses known to be stored, remembered so that they cost no query (cleared past this size). */
const MAX_KNOWN = 50_000;

interface State {
  known: Set<string>;
  /** Networks whose stored chain starts at genesis: every address they ever saw is stored already. */
  fromGenesis: Set<string>;
  waiting: number;
}

const states = new WeakMap<ApiContext, State>();

function stateOf(ctx: ApiContext): State {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { known: new Set(), fromGenesis: new Set(), waiting: 0 }));
  return s;
}

/** A well-formed address with a valid checksum (made-up strings never reach the indexer). */
function validAddress(address: string): boolean {
  if (!ADDRESS_RE.test(address) || address.startsWith('txr1')) return false;
  try {
    addressToHex(address);
    return true;
  } catch {
    return false;
  }
}

async function isStored(ctx: ApiContext, network: string, address: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('accounts')
    .select('type')
    .where('network', '=', network)
    .where('address', '=', address)
    .executeTakeFirst();
  if (row === undefined || row.type === 'ghost') return false;
  return row.type !== 'contract' || !(await withoutOwnHistory(ctx, network, address));
}

/**
 * A contract stored by the history backfill of another address (its origination was in one of that history's
 * blocks, written whole) holds only those blocks of its own history below the forward floor, and no backfill
 * of its own: asked for, it is adopted again (the adoption writes nothing it already has), which opens its
 * backfill, and it is partial until that is done. Not when a request of it is pending or adopted already.
 */
async function withoutOwnHistory(ctx: ApiContext, network: string, address: string): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`SELECT 1 AS one FROM contracts c
    JOIN history_floor f ON f.network = c.network
    WHERE c.network = ${network} AND c.address = ${address} AND c.level < f.floor_level
      AND NOT EXISTS (SELECT 1 FROM history_backfills h WHERE h.network = c.network AND h.address = c.address)
      AND NOT EXISTS (SELECT 1 FROM address_requests r WHERE r.network = c.network AND r.address = c.address
        AND r.state IN ('pending', 'adopted'))`.execute(ctx.db);
  return rows.length > 0;
}

/** The lowest stored level: null when nothing is stored yet. */
async function firstLevel(ctx: ApiContext, network: string): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('blocks')
    .select((eb) => eb.fn.min('level').as('level'))
    .where('network', '=', network)
    .executeTakeFirst();
  return row?.level ?? null;
}

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
  if (!validAddress(address)) return undefined;
  if (await isStored(ctx, network, address)) {
    if (s.known.size >= MAX_KNOWN) s.known.clear();
    s.known.add(key);
    return undefined;
  }
  const first = await firstLevel(ctx, network);
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
