/**
 * Addresses asked for that the index does not hold (issue 32, capability 1): a network indexed from a later
 * level than a contract's origination knows nothing of it until it is called. When a page names such an
 * address, the API queues a request (db `address_requests`); the follower serves the queue between blocks,
 * with every block below written: it reads the address from its node at the stored head (the contract's
 * script, storage, delegate; an implicit account's existence) and writes the rows a forward index holds for a
 * contract (script, contract, account, big-map pointers, search document, metadata queue) at that level, in
 * one transaction that checks the head did not move. Its history before that level is not indexed (yet).
 */
import {
  buildTypeTree,
  globalConstantsOf,
  readableText,
  resolveEntrypoint,
  scriptExpressionHash,
  type Micheline,
} from '@michelscope/michelson';
import {
  parsedWithoutScript,
  pendingAddressRequests,
  pruneAddressRequests,
  writeAdoptions,
  type Adoption,
  type AddressOutcome,
  type Reparsed,
} from '@michelscope/db/write';
import { KEY_TEXT_MAX } from '../parse/big-maps';
import { OPERATION_TAGS } from '../parse/operations';
import { buildScript, type ContractInfo } from '../parse/scripts';
import { contractSearchBody } from '../parse/builder';
import { accountKind, micheline } from '../parse/read';
import { mapBigMaps, fieldName } from '../parse/storage-walk';
import { InvalidNodeDataError } from '../protocols/validate';
import { RpcError } from '../rpc/client';
import type { ChainContext } from './chain-context';

/** Requests served per turn (read from the node in parallel, written in one transaction). */
export const ADOPT_BATCH = 8;
/** Old 'unknown' answers are deleted this often (db/write pruneAddressRequests). */
const PRUNE_EVERY_MS = 10 * 60_000;
const lastPrune = new Map<string, number>();
/** Rounds of global constants read from the node for one script (constants may use constants). */
const CONSTANT_ROUNDS = 8;
/** Largest metadata link kept (the resolver refuses longer URIs anyway). */
const MAX_LINK = 2048;

export interface StoredHead {
  level: number;
  hash: string;
}

/**
 * Serves up to ADOPT_BATCH pending requests at the stored head; returns how many were answered (0 when none
 * waited, or when the head moved meanwhile: they are served on the next turn). An unreachable node throws
 * (the requests stay pending); an address the node does not know is answered 'unknown'.
 */
export async function serveAddressRequests(ctx: ChainContext, head: StoredHead): Promise<number> {
  const now = Date.now();
  if (now - (lastPrune.get(ctx.network) ?? 0) > PRUNE_EVERY_MS) {
    lastPrune.set(ctx.network, now);
    await pruneAddressRequests(ctx.db, ctx.network);
  }
  const pending = await pendingAddressRequests(ctx.db, ctx.network, ADOPT_BATCH);
  if (pending.length === 0) return 0;
  const adoptions: Adoption[] = [];
  const outcomes: AddressOutcome[] = [];
  await Promise.all(
    pending.map(async (address) => {
      try {
        const adoption = await readAddress(ctx, head.level, address);
        if (adoption) {
          adoptions.push(adoption);
          outcomes.push({ address, state: 'adopted' });
        } else outcomes.push({ address, state: 'unknown' });
      } catch (err) {
        if (err instanceof RpcError && err.kind === 'not_found') outcomes.push({ address, state: 'unknown' });
        // One address must never hold the indexer: an answer the node refuses or that cannot be used (an
        // error status, a timeout, a body too large) fails that request only; it is read again when asked
        // again after a minute. A node that cannot be reached at all stops the turn (blocks would fail too).
        else if (
          err instanceof InvalidNodeDataError ||
          (err instanceof RpcError && err.kind !== 'unreachable')
        )
          outcomes.push({ address, state: 'failed', message: err.message.slice(0, 500) });
        else throw err;
      }
    }),
  );
  if (!(await writeAdoptions(ctx.db, ctx.network, head, adoptions, outcomes))) return 0;
  for (const a of adoptions) ctx.cache.forget(a.address);
  const adopted = adoptions.map((a) => a.address);
  ctx.line(
    `read ${pending.length} address(es) asked for from the node at level ${head.level}: ${adopted.length} added${
      adopted.length ? ` (${adopted.slice(0, 3).join(', ')}${adopted.length > 3 ? ', …' : ''})` : ''
    }, ${outcomes.length - adopted.length} unknown or unusable`,
  );
  return pending.length;
}

type NodeContract = { balance?: unknown; delegate?: unknown; counter?: unknown; script?: unknown };

/** What the node knows of `address` at `level`, as rows; null when it does not know it. */
async function readAddress(ctx: ChainContext, level: number, address: string): Promise<Adoption | null> {
  const kind = accountKind(address);
  if (kind === 'unknown' || kind === 'rollup') return null;
  const at = `/chains/main/blocks/${level}/context`;
  if (kind === 'smart_rollup') {
    await ctx.rpc.get(`${at}/smart_rollups/smart_rollup/${address}/kind`);
    return { address, type: 'smart_rollup' };
  }
  const raw = (await ctx.rpc.get(`${at}/contracts/${address}`)) as NodeContract | null;
  if (!raw || typeof raw !== 'object') throw new InvalidNodeDataError(`contract ${address}: not an object`);
  if (kind === 'account') {
    // an implicit account the node answers for exists once it was credited or used
    const used = raw.balance !== '0' || (raw.counter !== undefined && raw.counter !== '0');
    return used ? { address, type: 'account' } : null;
  }
  const script = raw.script as { code?: unknown; storage?: unknown } | undefined;
  if (!script || typeof script !== 'object') return null;
  const where = `script of ${address} at level ${level}`;
  const code = micheline(script.code, `${where} code`);
  const storage = micheline(script.storage, `${where} storage`);
  const built = await buildWithConstants(ctx, level, code, where);
  const delegate = typeof raw.delegate === 'string' ? raw.delegate : null;
  const bigMaps: NonNullable<Adoption['contract']>['bigMaps'] = [];
  let metadataPtr: number | null = null;
  mapBigMaps(built.info.storage, storage, (t, v) => {
    if (!Array.isArray(v) && 'int' in v && t.args?.[0] && t.args[1]) {
      const ptr = Number(v.int);
      if (Number.isSafeInteger(ptr) && ptr >= 0) {
        const name = fieldName(t);
        bigMaps.push({ ptr, key_type: t.args[0], value_type: t.args[1], name });
        if (name === 'metadata') metadataPtr = ptr;
      }
    }
    return v;
  });
  return {
    address,
    type: 'contract',
    contract: {
      script: built.row,
      tags: built.info.tags,
      delegate,
      bigMaps,
      searchBody: contractSearchBody(built.row, built.info.tags),
      metadataLink: metadataPtr === null ? null : await metadataLink(ctx, level, metadataPtr),
      reparsed: await reparse(ctx, address, built.info, bigMaps),
    },
  };
}

/**
 * The columns forward parsing derives from the script, for the calls and keys of `address` stored from the
 * forward floor on while the index did not hold it (parsed without the script): operation tags, the
 * entrypoint a call named `default` resolves to, readable key texts. Read before the adoption's transaction,
 * whose check of the head makes sure no block was written meanwhile.
 */
async function reparse(
  ctx: ChainContext,
  address: string,
  info: ContractInfo,
  bigMaps: { ptr: number; key_type: unknown }[],
): Promise<Reparsed> {
  const stored = await parsedWithoutScript(
    ctx.db,
    ctx.network,
    address,
    bigMaps.map((m) => m.ptr),
  );
  const entrypoints: Reparsed['entrypoints'] = [];
  for (const c of stored.calls) {
    const p = c.parameters as { entrypoint?: unknown; value?: unknown } | null;
    if (!p || typeof p.entrypoint !== 'string' || p.value === undefined) continue;
    try {
      const name = resolveEntrypoint(info.parameter, {
        entrypoint: p.entrypoint,
        value: p.value as Micheline,
      });
      if (name !== c.entrypoint) entrypoints.push({ id: c.id, entrypoint: name });
    } catch {
      // a parameter that does not fit the type keeps the name the node gave (as forward parsing)
    }
  }
  const keyTexts: Reparsed['keyTexts'] = [];
  const types = new Map(bigMaps.map((m) => [m.ptr, m.key_type]));
  for (const k of stored.keys) {
    try {
      const text = readableText(buildTypeTree(types.get(k.ptr) as Micheline), k.key as Micheline);
      keyTexts.push({ ptr: k.ptr, key_hash: k.key_hash, key_text: text.slice(0, KEY_TEXT_MAX) });
    } catch {
      // a key type that does not build keeps no text (as forward parsing)
    }
  }
  return { tags: info.tags & OPERATION_TAGS, entrypoints, keyTexts };
}

/** buildScript, with the global constants it uses read from the database, else from the node. */
export async function buildWithConstants(ctx: ChainContext, level: number, code: Micheline, where: string) {
  const fetched = new Map<string, Micheline>();
  const constantOf = (a: string) => fetched.get(a) ?? ctx.cache.constant(a);
  for (let round = 0; round <= CONSTANT_ROUNDS; round++) {
    const built = buildScript(code, constantOf, where);
    if (built) return built;
    const missing = new Set<string>();
    const seen = new Set<string>();
    const visit = (m: Micheline) => {
      for (const a of globalConstantsOf(m)) {
        if (seen.has(a)) continue;
        seen.add(a);
        const v = constantOf(a);
        if (v === undefined) missing.add(a);
        else visit(v);
      }
    };
    visit(code);
    if (round === 0 && missing.size > 0) {
      // registered within the indexed range: the database has them
      await ctx.cache.load([], missing);
      continue;
    }
    for (const a of missing) {
      const v = await ctx.rpc.get(`/chains/main/blocks/${level}/context/global_constants/${a}`);
      fetched.set(a, micheline(v, `global constant ${a}`));
    }
  }
  throw new InvalidNodeDataError(`${where}: global constants nested deeper than ${CONSTANT_ROUNDS} levels`);
}

/** TZIP-16: the UTF-8 text under key "" of the `metadata` big map, NUL characters removed. */
async function metadataLink(ctx: ChainContext, level: number, ptr: number): Promise<string | null> {
  const key = scriptExpressionHash({ string: '' }, { prim: 'string' });
  try {
    const v = await ctx.rpc.get(`/chains/main/blocks/${level}/context/big_maps/${ptr}/${key}`);
    const bytes = v && typeof v === 'object' ? (v as { bytes?: unknown }).bytes : undefined;
    if (typeof bytes !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(bytes)) return null;
    const text = Buffer.from(bytes, 'hex').toString('utf8').replace(/\0/g, '');
    return text.length > 0 && text.length <= MAX_LINK ? text : null;
  } catch (err) {
    if (err instanceof RpcError && err.kind === 'not_found') return null;
    throw err;
  }
}

/** Whether a request waits (one short indexed read). */
export async function hasAddressRequests(ctx: ChainContext): Promise<boolean> {
  return (await pendingAddressRequests(ctx.db, ctx.network, 1)).length > 0;
}
