import { normalizeData, toMicheline, type Micheline } from '@michelscope/michelson';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { nodeRpc, NodeRpcError } from '../services/node-rpc';

/** A block of the node: the state a node simulation runs on (the node simulates at its head). */
export interface NodeBlock {
  hash: string;
  level: number;
}

/** Most big-map keys whose previous values are read from the node for one simulation's diff. */
const NODE_KEYS_MAX = 100;

/** The node's head block (its hash pins every later read to that state). */
export async function nodeHeadBlock(ctx: ApiContext, network: string): Promise<NodeBlock> {
  const h = await nodeRpc<{ hash?: unknown; level?: unknown }>(
    ctx,
    network,
    '/chains/main/blocks/head/header',
  );
  if (typeof h.hash !== 'string' || !Number.isInteger(h.level))
    throw new HttpError(502, 'the node answered a head without hash or level');
  return { hash: h.hash, level: h.level as number };
}

/**
 * A contract's storage in the node's context at `block`, in the form the node runs with (Optimized), so that a
 * simulation's 'from' is the state the node ran on, whatever the indexer has reached.
 */
export async function nodeStorageAt(
  ctx: ApiContext,
  network: string,
  address: string,
  block: NodeBlock,
  storageType: Micheline,
): Promise<Micheline> {
  const raw = await nodeRpc<unknown>(
    ctx,
    network,
    `/chains/main/blocks/${block.hash}/context/contracts/${address}/storage`,
  );
  const value = toMicheline(raw);
  try {
    return normalizeData(storageType, value, 'Optimized');
  } catch {
    return value;
  }
}

/**
 * The values big-map keys had in the node's context at `block` (`ptr:key_hash` → value; a key absent there is
 * absent from the map), at most {@link NODE_KEYS_MAX} keys: the others are left out (shown as new).
 */
export async function nodeKeyValuesAt(
  ctx: ApiContext,
  network: string,
  block: NodeBlock,
  keys: ReadonlyArray<{ ptr: number; key_hash: string }>,
): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const k of keys.slice(0, NODE_KEYS_MAX)) {
    const id = `${k.ptr}:${k.key_hash}`;
    if (out.has(id) || !/^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(k.key_hash)) continue;
    try {
      out.set(
        id,
        await nodeRpc<unknown>(
          ctx,
          network,
          `/chains/main/blocks/${block.hash}/context/big_maps/${k.ptr}/${k.key_hash}`,
        ),
      );
    } catch (e) {
      if (!(e instanceof NodeRpcError && e.status === 404)) throw e;
    }
  }
  return out;
}
