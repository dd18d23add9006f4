/**
 * Keys of a big map whose contract was read from the node when first asked for (issue 32): the index holds the
 * big map's pointer and types but none of its keys (the node has no key list). A key the page asks for, by its
 * text (the keys search) or by its hash (a key's history), is read from the node at the indexed head instead.
 */
import {
  isPrim,
  parseMichelsonExpression,
  scriptExpressionHash,
  toMicheline,
  type Micheline,
} from '@michelscope/michelson';
import { adoptedBigMapTypes, getHeads } from '@michelscope/db/read';
import type { ApiContext } from '../context';
import { nodeRpc, NodeRpcError } from './node-rpc';

export interface AdoptedBigMap {
  key_type: Micheline;
  value_type: Micheline;
  /** The indexed head: where the node is asked. */
  level: number;
  timestamp: Date;
}

/** The big map when its contract was read from the node (its keys are not indexed), else undefined. */
export async function adoptedBigMap(
  ctx: ApiContext,
  network: string,
  ptr: number,
): Promise<AdoptedBigMap | undefined> {
  const row = await adoptedBigMapTypes(ctx.readDb, network, ptr);
  if (!row) return undefined;
  const head = (await getHeads(ctx.readDb, [network])).get(network);
  if (!head) return undefined;
  return {
    key_type: toMicheline(row.key_type),
    value_type: toMicheline(row.value_type),
    level: head.level,
    timestamp: head.timestamp,
  };
}

const SIMPLE_STRING = new Set(['address', 'string', 'key_hash', 'key', 'signature', 'chain_id', 'timestamp']);
const NUMERIC = new Set(['nat', 'int', 'mutez', 'timestamp']);

/** The keys a search text may mean under `keyType`: a bare value of a simple type, else a Michelson expression. */
export function keyCandidates(text: string, keyType: Micheline): Micheline[] {
  const out: Micheline[] = [];
  const prim = isPrim(keyType) ? keyType.prim : '';
  if (NUMERIC.has(prim) && /^-?\d{1,78}$/.test(text)) out.push({ int: text });
  if (prim === 'bytes' && /^0x(?:[0-9a-fA-F]{2}){0,4096}$/.test(text)) out.push({ bytes: text.slice(2) });
  if (SIMPLE_STRING.has(prim) && text.length <= 1024) out.push({ string: text });
  if (out.length === 0 && text.length <= 4096) {
    try {
      out.push(parseMichelsonExpression(text));
    } catch {
      /* not a Michelson value */
    }
  }
  return out;
}

/** The value under `keyHash` at the indexed head, or null when the node has no such key. */
export async function nodeKeyValue(
  ctx: ApiContext,
  network: string,
  ptr: number,
  keyHash: string,
  level: number,
): Promise<Micheline | null> {
  try {
    const v = await nodeRpc<unknown>(
      ctx,
      network,
      `/chains/main/blocks/${level}/context/big_maps/${ptr}/${keyHash}`,
      undefined,
      5_000,
    );
    return toMicheline(v);
  } catch (e) {
    if (e instanceof NodeRpcError && e.status === 404) return null;
    throw e;
  }
}

/** Looks a searched key up on the node: the key, its hash and value, or null. */
export async function nodeKeySearch(
  ctx: ApiContext,
  network: string,
  ptr: number,
  map: AdoptedBigMap,
  text: string,
): Promise<{ key: Micheline; keyHash: string; value: Micheline } | null> {
  for (const key of keyCandidates(text, map.key_type).slice(0, 2)) {
    let keyHash: string;
    try {
      keyHash = scriptExpressionHash(key, map.key_type);
    } catch {
      continue; // not a value of the key type
    }
    const value = await nodeKeyValue(ctx, network, ptr, keyHash, map.level);
    if (value !== null) return { key, keyHash, value };
  }
  return null;
}
