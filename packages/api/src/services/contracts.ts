import type { Contract, ContractWithStats } from '@michelscope/api-types';
import {
  countByScriptHash,
  getContract,
  getContractScript,
  historyCoverage,
  latestStorage,
  type ContractRow,
  type ScriptParts,
} from '@michelscope/db/read';
import {
  getAddressRequest,
  getHistoryBackfill,
  type AddressRequest,
  type HistoryBackfill,
} from '@michelscope/db/address-requests';
import { normalizeData, tagsFromMask, toMicheline, type Micheline } from '@michelscope/michelson';
import type { FastifyReply } from 'fastify';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { formatTime } from '../time';
import { nodeRpc, NodeRpcError } from './node-rpc';

const SAME_TTL_MS = 10 * 60_000;

/** A contract row → the reference `Contract` (empty lists and unset fields omitted). */
export function toContract(row: ContractRow, withScriptFields = true): Contract {
  const out: Contract = {
    id: row.id,
    network: row.network,
    level: row.level,
    timestamp: formatTime(row.timestamp),
    address: row.address,
  };
  out.hash = row.script_hash;
  const tags = tagsFromMask(row.tags);
  if (tags.length) out.tags = tags;
  if (withScriptFields) {
    if (row.fail_strings.length) out.fail_strings = row.fail_strings;
    if (row.annotations.length) out.annotations = row.annotations;
    if (row.entrypoints.length) out.entrypoints = row.entrypoints;
  }
  if (row.manager) out.manager = row.manager;
  if (row.delegate) out.delegate = row.delegate;
  if (row.last_action) out.last_action = formatTime(row.last_action);
  return out;
}

/** `same_count`: other contracts with the same script hash over all configured networks (cached 10 min). */
export async function sameCount(ctx: ApiContext, hash: string): Promise<number> {
  const n = await ctx.cache.get(`same-count:${hash}`, SAME_TTL_MS, () =>
    countByScriptHash(ctx.readDb, ctx.networks.names, hash),
  );
  return Math.max(0, n - 1);
}

export async function withStats(ctx: ApiContext, row: ContractRow): Promise<ContractWithStats> {
  return { ...toContract(row), same_count: await sameCount(ctx, row.script_hash) };
}

/** History sources whose walk goes from the backfill's ceiling down (indexer history/: BCD's and the scan's `order`). */
const DESCENDING_SOURCES = new Set(['bcd', 'scan']);

/**
 * The earliest level from which the index holds every block that names `address`: the network's forward floor
 * (every block from it up is stored whole), lowered by what its backfill has gone through when that walk goes
 * down from the ceiling (a source walking up, TzKT's, joins the forward range only when it is done). Null when
 * nothing is stored.
 */
export async function historyCompleteFrom(
  ctx: ApiContext,
  network: string,
  address: string,
): Promise<number | null> {
  const { floor, backfill } = await historyCoverage(ctx.readDb, network, address);
  if (floor === null) return null;
  if (!backfill || backfill.source === null || !DESCENDING_SOURCES.has(backfill.source)) return floor;
  // levels [toLevel − covered + 1, toLevel] are gone through: each block naming the address there is stored
  return Math.max(1, Math.min(floor, backfill.toLevel + 1 - backfill.covered));
}

/**
 * Marks a contract read from the node when first asked for (db `address_requests`, issue 32): the index holds
 * its history from `indexed_from` on only (historyCompleteFrom), until its backfill is done.
 */
export async function withHistory<T extends Contract>(ctx: ApiContext, c: T): Promise<T> {
  if (c.id === undefined) return c;
  const state = await historyState(ctx, c.network, c.address, c.level);
  if (!state) return c;
  const { indexed_from, backfill: h } = state;
  const history = h
    ? { history: { state: h.state, done: h.done, total: h.total, ...messageOf(h.message) } }
    : {};
  return indexed_from === null ? { ...c, ...history } : { ...c, partial: true, indexed_from, ...history };
}

/**
 * The earliest level from which a contract's whole history is indexed while it is not all (read from the node
 * when first asked for, its backfill not done), else null: what the routes of its history mark partial.
 */
export async function partialHistoryFrom(
  ctx: ApiContext,
  network: string,
  address: string,
): Promise<number | null> {
  const request = await getAddressRequest(ctx.db, network, address);
  if (request?.state !== 'adopted') return null;
  const row = await getContract(ctx.readDb, network, address);
  if (!row) return null;
  return (await historyState(ctx, network, address, row.level, request))?.indexed_from ?? null;
}

/** Sets the partial headers (api-types PartialHistoryHeaders) of a contract's route while its history is partial. */
export async function markPartialHistory(
  ctx: ApiContext,
  reply: FastifyReply,
  network: string,
  address: string,
): Promise<void> {
  const from = await partialHistoryFrom(ctx, network, address);
  if (from !== null) void reply.header('x-partial', 'true').header('x-indexed-from', String(from));
}

/**
 * An adopted contract's history: `indexed_from` null when it is complete (its backfill done), and its backfill;
 * undefined when the contract was not read from the node (a forward index holds it whole).
 */
async function historyState(
  ctx: ApiContext,
  network: string,
  address: string,
  level: number,
  known?: AddressRequest,
): Promise<{ indexed_from: number | null; backfill: HistoryBackfill | undefined } | undefined> {
  const request = known ?? (await getAddressRequest(ctx.db, network, address));
  if (request?.state !== 'adopted' || request.level === null) return undefined;
  // its history below the forward floor is backfilled (indexer sync/backfill.ts): partial until done
  const backfill = await getHistoryBackfill(ctx.readDb, network, address);
  if (backfill?.state === 'done') return { indexed_from: null, backfill };
  // no backfill opened yet (or none on this network): partial, whether its origination is not known (it is at
  // the level read at) or was stored by another address's backfill (address-requests.ts withoutOwnHistory)
  if (!backfill && level <= 1) return undefined;
  const from = (await historyCompleteFrom(ctx, network, address)) ?? request.level;
  return { indexed_from: from, backfill };
}

const messageOf = (message: string | null) => (message ? { message } : {});

/** The script sections of a contract or a 404. */
export async function requireScript(ctx: ApiContext, network: string, address: string): Promise<ScriptParts> {
  const script = await getContractScript(ctx.readDb, network, address);
  if (!script) throw new HttpError(404, 'not found');
  return script;
}

/** The whole script as Micheline (`parameter`, `storage`, `code` and view sections). */
export function fullScript(s: ScriptParts): Micheline[] {
  return [
    { prim: 'parameter', args: [toMicheline(s.parameter)] },
    { prim: 'storage', args: [toMicheline(s.storage)] },
    { prim: 'code', args: [toMicheline(s.code)] },
    ...(Array.isArray(s.views) ? s.views.map((v) => toMicheline(v)) : []),
  ];
}

/**
 * The raw storage of a contract (§6.4): the latest stored storage of an applied operation (at block `level`
 * when given), else the node's `…/context/contracts/{address}/script` at that level or head. Always in the form
 * the node's context holds it (Octez stores storage unparsed Optimized: combs of 4 or more as sequences,
 * addresses as bytes; normalize_data along the storage type), whether the index kept it as an origination sent
 * it or from a receipt: runs fed with it pay what the chain pays to decode it, at every level. The raw text route
 * prints it Readable.
 */
export async function resolveStorage(
  ctx: ApiContext,
  network: string,
  address: string,
  level?: number,
): Promise<Micheline> {
  const onChain = async (value: Micheline): Promise<Micheline> => {
    const script = await getContractScript(ctx.readDb, network, address);
    if (!script) return value;
    try {
      return normalizeData(toMicheline(script.storage), value, 'Optimized');
    } catch {
      return value; // not a type: the storage as it is
    }
  };
  const stored = await latestStorage(ctx.readDb, network, address, level);
  if (stored?.storage != null) return onChain(toMicheline(stored.storage));
  try {
    const script = await nodeRpc<{ storage?: unknown }>(
      ctx,
      network,
      `/chains/main/blocks/${level ?? 'head'}/context/contracts/${address}/script`,
    );
    if (script.storage === undefined) throw new HttpError(404, 'not found');
    return await onChain(toMicheline(script.storage));
  } catch (e) {
    if (e instanceof NodeRpcError) throw new HttpError(404, 'not found');
    throw e;
  }
}
