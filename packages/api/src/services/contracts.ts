import type { Contract, ContractWithStats } from '@michelscope/api-types';
import {
  countByScriptHash,
  getContractScript,
  latestStorage,
  type ContractRow,
  type ScriptParts,
} from '@michelscope/db/read';
import { getAddressRequest, getHistoryBackfill } from '@michelscope/db/address-requests';
import { normalizeData, tagsFromMask, toMicheline, type Micheline } from '@michelscope/michelson';
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
    countByScriptHash(ctx.db, ctx.networks.names, hash),
  );
  return Math.max(0, n - 1);
}

export async function withStats(ctx: ApiContext, row: ContractRow): Promise<ContractWithStats> {
  return { ...toContract(row), same_count: await sameCount(ctx, row.script_hash) };
}

/**
 * Marks a contract read from the node when first asked for (db `address_requests`, issue 32): the index holds
 * it from that level on only.
 */
export async function withHistory<T extends Contract>(ctx: ApiContext, c: T): Promise<T> {
  if (c.id === undefined) return c;
  const request = await getAddressRequest(ctx.db, c.network, c.address);
  if (request?.state !== 'adopted' || request.level === null) return c;
  // its history below that level is backfilled (indexer sync/backfill.ts): partial until done
  const h = await getHistoryBackfill(ctx.db, c.network, c.address);
  // no backfill opened yet (or none on this network): partial, whether its origination is not known (it is at
  // the level read at) or was stored by another address's backfill (address-requests.ts withoutOwnHistory)
  if (!h) return c.level > 1 ? { ...c, partial: true, indexed_from: request.level } : c;
  const history = {
    state: h.state,
    done: h.done,
    total: h.total,
    ...(h.message ? { message: h.message } : {}),
  };
  if (h.state === 'done') return { ...c, history };
  return { ...c, partial: true, indexed_from: request.level, history };
}

/** The script sections of a contract or a 404. */
export async function requireScript(ctx: ApiContext, network: string, address: string): Promise<ScriptParts> {
  const script = await getContractScript(ctx.db, network, address);
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
    const script = await getContractScript(ctx.db, network, address);
    if (!script) return value;
    try {
      return normalizeData(toMicheline(script.storage), value, 'Optimized');
    } catch {
      return value; // not a type: the storage as it is
    }
  };
  const stored = await latestStorage(ctx.db, network, address, level);
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
