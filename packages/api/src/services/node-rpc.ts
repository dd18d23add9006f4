import { AsyncLocalStorage } from 'node:async_hooks';
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

/**
 * The client (`request.ip`) of the API request being handled, for the node calls it causes (set by the API's
 * `preHandler` hook, `withRequestClient`): the embedded node charges its script runs to that client.
 */
const requestClient = new AsyncLocalStorage<string>();

/** A `preHandler` hook: the rest of the request runs with its client known to `nodeRpc`. */
export function withRequestClient(request: { ip: string }, _reply: unknown, done: () => void): void {
  requestClient.run(request.ip, done);
}

/** The headers naming the client to the embedded node (only to it: its token must not leave the process). */
function clientHeaders(ctx: ApiContext, network: string): Record<string, string> | undefined {
  const client = requestClient.getStore();
  const node = ctx.options.embeddedNode;
  return client !== undefined && node?.network === network ? node.clientHeaders?.(client) : undefined;
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
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...clientHeaders(ctx, network),
      },
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
