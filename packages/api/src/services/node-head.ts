/**
 * The node's head level per network and how far the index is behind it (issue 32): the honest `synced` of
 * `GET /v1/head` and of the live `head` event. The head header is read with a short timeout, trusted a few
 * seconds, and read once at a time per network whatever the number of callers.
 */
import { SYNC_GAP_LEVELS, type PartFailure } from '@michelscope/api-types';
import type { ApiContext } from '../context';
import { partFailures } from './health';
import { nodeRpc } from './node-rpc';

export { SYNC_GAP_LEVELS };

/** A read of the node's head is trusted this long. */
export const NODE_HEAD_TTL_MS = 5_000;
/** Longest wait for the node's head header. */
export const NODE_HEAD_TIMEOUT_MS = 2_500;
/**
 * After a failed read, callers get "unreachable" at once (a new read runs meanwhile) for this long: an
 * unreachable node does not make every answer wait for its timeout. A good read is never reused past its TTL.
 */
export const NODE_UNREACHABLE_REUSE_MS = 60_000;

interface NodeRead {
  /** null: the head could not be read. */
  level: number | null;
  at: number;
}

interface Slot {
  last?: NodeRead;
  pending?: Promise<NodeRead>;
}

const slots = new WeakMap<ApiContext, Map<string, Slot>>();

/** The node's head level of `network`, or null when it cannot be read (never throws). */
export async function nodeHeadLevel(ctx: ApiContext, network: string): Promise<number | null> {
  let perNetwork = slots.get(ctx);
  if (!perNetwork) slots.set(ctx, (perNetwork = new Map()));
  let slot = perNetwork.get(network);
  if (!slot) perNetwork.set(network, (slot = {}));
  const { last } = slot;
  const now = ctx.now();
  if (last && now - last.at < NODE_HEAD_TTL_MS) return last.level;
  const s = slot;
  const pending = (s.pending ??= readHead(ctx, network).then((read) => {
    s.last = read;
    s.pending = undefined;
    return read;
  }));
  if (last && last.level === null && now - last.at < NODE_UNREACHABLE_REUSE_MS) return null;
  return (await pending).level;
}

async function readHead(ctx: ApiContext, network: string): Promise<NodeRead> {
  try {
    const header = await nodeRpc<{ level?: unknown } | null>(
      ctx,
      network,
      '/chains/main/blocks/head/header',
      undefined,
      NODE_HEAD_TIMEOUT_MS,
    );
    const level = header?.level;
    const ok = typeof level === 'number' && Number.isSafeInteger(level) && level >= 0;
    return { level: ok ? level : null, at: ctx.now() };
  } catch {
    return { level: null, at: ctx.now() };
  }
}

/** The sync fields of a Head (`HeadSyncFields` of api-types). */
export interface HeadSync {
  synced: boolean;
  node_reachable: boolean;
  node_level?: number;
  lag?: number;
  failures?: PartFailure[];
}

/**
 * How the indexed head (`indexed`: its level, null when nothing is indexed) compares with the node's head:
 * synced when at most SYNC_GAP_LEVELS behind it. Without the node's head, not synced (no fallback to the
 * block's age: a stuck indexer's last block stays young for minutes).
 */
export function compareWithNode(indexed: number | null, node: number | null): HeadSync {
  if (node === null) return { synced: false, node_reachable: false };
  if (indexed === null) return { synced: false, node_reachable: true, node_level: node };
  // a read of a few seconds ago can be below a block indexed since: the node has that block (the indexer
  // read it there), so its head is at least that level
  const level = Math.max(node, indexed);
  const lag = level - indexed;
  return { synced: lag <= SYNC_GAP_LEVELS, node_reachable: true, node_level: level, lag };
}

export async function headSync(ctx: ApiContext, network: string, indexed: number | null): Promise<HeadSync> {
  const sync = compareWithNode(indexed, await nodeHeadLevel(ctx, network));
  // a part that failed (issue 34): the indicator says so rather than 'Live'
  const failures = partFailures(ctx, network);
  return failures.length > 0 ? { ...sync, failures } : sync;
}
