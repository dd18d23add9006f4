import type { ApiContext } from '../context';
import { HttpError } from '../errors';

/** A node answered with an error status: `body` is its text (often a Tezos error array). */
export class NodeRpcError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`node answered ${status}`);
    this.name = 'NodeRpcError';
  }

  /** The Tezos error array of the body, if it is one. */
  tezosErrors(): unknown[] | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      return Array.isArray(parsed) && parsed.every((e) => e && typeof e === 'object' && 'id' in e)
        ? parsed
        : undefined;
    } catch {
      return undefined;
    }
  }
}

/** JSON requests to the node RPC of a configured network (its `rpcUrl`), with the API's RPC timeout. */
export async function nodeRpc<T = unknown>(
  ctx: ApiContext,
  network: string,
  path: string,
  body?: unknown,
  timeoutMs?: number,
): Promise<T> {
  const net = ctx.networks.get(network);
  if (!net) throw new HttpError(400, `unknown network: ${network}`);
  const url = net.rpcUrl.replace(/\/+$/, '') + path;
  let res: Response;
  try {
    res = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs ?? ctx.options.rpcTimeoutMs ?? 30_000),
    });
  } catch (e) {
    if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError'))
      throw new HttpError(504, 'request timed out');
    throw new HttpError(502, `node RPC of ${network} is unreachable`);
  }
  const text = await res.text();
  if (!res.ok) throw new NodeRpcError(res.status, text.slice(0, 100_000));
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new HttpError(502, `node RPC of ${network} sent invalid JSON`);
  }
}

/** How long a network's history mode is trusted once read (a failed read: a minute, as not an archive). */
const HISTORY_MODE_TTL_MS = 10 * 60_000;
const historyModes = new WeakMap<ApiContext, Map<string, { archive: boolean; until: number }>>();

/**
 * Whether the network's node is an archive (`/config/history_mode` says `archive`): its context then has the
 * state of every past level, which a run pinned to a level reads from it. Read with a short timeout and cached.
 */
export async function isArchiveNode(ctx: ApiContext, network: string, timeoutMs = 3_000): Promise<boolean> {
  let known = historyModes.get(ctx);
  if (!known) historyModes.set(ctx, (known = new Map()));
  const hit = known.get(network);
  if (hit && hit.until > Date.now()) return hit.archive;
  const mode = await nodeRpc<{ history_mode?: unknown }>(
    ctx,
    network,
    '/config/history_mode',
    undefined,
    timeoutMs,
  ).catch(() => undefined);
  const archive = mode?.history_mode === 'archive';
  known.set(network, { archive, until: Date.now() + (mode ? HISTORY_MODE_TTL_MS : 60_000) });
  return archive;
}
