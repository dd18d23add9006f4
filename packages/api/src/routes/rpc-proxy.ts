import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';

export const DEFAULT_RPC_TIMEOUT_MS = 30_000;
/** Marks requests this server forwards, so an RPC URL pointing back at the server fails instead of looping. */
export const HOP_HEADER = 'x-michelscope-rpc-hop';

const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept'] as const;

/**
 * Node RPC pass-through: GET and POST /rpc/{network}/* go to that network's node with the same path, query
 * and body; the node's status and body come back unchanged. Unknown network 404, unreachable node 502,
 * no answer within the timeout 504 — each `{"message": …}`.
 */
export const rpcProxyRoutes: FastifyPluginAsync<{ ctx: ApiContext }> = async (app, { ctx }) => {
  // Bodies are forwarded as received: keep them raw, whatever their content type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const timeoutMs = ctx.options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;

  app.route<{ Params: { network: string; '*': string } }>({
    method: ['GET', 'POST'],
    url: '/:network/*', // registered under the /rpc prefix
    schema: { hide: true },
    handler: async (request, reply) => {
      const { network } = request.params;
      const target = ctx.networks.get(network);
      if (!target) throw new HttpError(404, `Don't have an RPC endpoint for the ${network}`);
      if (request.headers[HOP_HEADER] !== undefined) {
        throw new HttpError(508, `the RPC endpoint of ${network} points back at this server`);
      }
      const url = `${target.rpcUrl.replace(/\/+$/, '')}/${forwardedPath(app, request)}`;
      const headers: Record<string, string> = { [HOP_HEADER]: '1' };
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const body = request.method === 'POST' && Buffer.isBuffer(request.body) ? request.body : undefined;
      // Stop waiting for the node when the client goes away before the answer.
      const clientGone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) clientGone.abort();
      });
      let status: number;
      let contentType: string | null;
      let payload: Buffer;
      try {
        const response = await fetch(url, {
          method: request.method,
          headers,
          ...(body ? { body } : {}),
          signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), clientGone.signal]),
        });
        status = response.status;
        contentType = response.headers.get('content-type');
        payload = Buffer.from(await response.arrayBuffer());
      } catch (err) {
        if (isTimeout(err)) throw new HttpError(504, 'request timed out');
        request.log.debug({ err }, 'rpc pass-through failed');
        throw new HttpError(502, `the RPC node of ${network} is unreachable`);
      }
      return reply
        .code(status)
        .header('content-type', contentType ?? 'application/octet-stream')
        .send(payload);
    },
  });
};

/** The raw path after /rpc/{network}/ plus the query string, exactly as the client sent them. */
function forwardedPath(app: FastifyInstance, request: FastifyRequest<{ Params: { '*': string } }>): string {
  const url = request.url;
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  const head = `${app.prefix}/`; // app.prefix ends with /rpc
  let rest: string;
  if (rawPath.startsWith(head) && rawPath.indexOf('/', head.length) !== -1) {
    rest = rawPath.slice(rawPath.indexOf('/', head.length) + 1);
  } else {
    rest = request.params['*'].split('/').map(encodeURIComponent).join('/');
  }
  for (const segment of rest.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new HttpError(400, 'invalid RPC path');
    }
    if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\')) {
      throw new HttpError(400, 'invalid RPC path');
    }
  }
  return rest + query;
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}
