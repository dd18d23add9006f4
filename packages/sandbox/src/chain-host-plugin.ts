// The sandbox RPC served from the main thread by the chain worker (chain-host.ts): a Fastify plugin that
// forwards every request, with its raw body, and streams `/monitor/heads/:chain`. When the worker is busy
// or too slow the answer is `{"message"}` with 503 (busy) or 504 (time limit). Every request names its client
// to the worker (CLIENT_HEADER), whose script workers are shared fairly between clients (issue 34): the request's
// own address, or the client an in-process caller names with this process's token (`embeddedClientHeaders`).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SandboxUnavailableError, type SandboxWorker } from './chain-host';
import { CLIENT_HEADER } from './script-runner';

const FORWARDED_HEADERS = ['content-type', 'accept'] as const;

/** With a client header, the token that makes it trusted (see `embeddedClientHeaders`). */
export const CLIENT_TOKEN_HEADER = 'x-michelscope-client-token';
const TOKEN = Buffer.from(randomBytes(32).toString('base64url'));

/**
 * The headers with which this process's own callers (the API's node calls, to the internal loopback listener)
 * name the client that caused a call: a random token made when the process starts (256 bits) marks them as the
 * server's own. Never send them elsewhere than to this process's node.
 */
export function embeddedClientHeaders(client: string): Record<string, string> {
  return { [CLIENT_HEADER]: client, [CLIENT_TOKEN_HEADER]: TOKEN.toString() };
}

/** The client of a request: the one named with this process's token, else its own address; removes the headers. */
function clientOf(req: FastifyRequest): string {
  const named = req.headers[CLIENT_HEADER];
  const token = req.headers[CLIENT_TOKEN_HEADER];
  delete req.headers[CLIENT_HEADER];
  delete req.headers[CLIENT_TOKEN_HEADER];
  if (typeof named === 'string' && named.length > 0 && named.length <= 100 && typeof token === 'string') {
    const given = Buffer.from(token);
    if (given.length === TOKEN.length && timingSafeEqual(given, TOKEN)) return named;
  }
  return req.ip;
}

function unavailable(reply: FastifyReply, e: unknown): FastifyReply {
  if (!(e instanceof SandboxUnavailableError)) throw e;
  return reply.code(e.status).type('application/json; charset=utf-8').send({ message: e.message });
}

export function sandboxWorkerRpcPlugin(host: SandboxWorker): FastifyPluginAsync {
  return async (app) => {
    // Bodies go to the worker as received; its own Fastify parses them (and answers parse errors).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const pathOf = (url: string) => (url.startsWith(app.prefix) ? url.slice(app.prefix.length) : url) || '/';

    const schema = { hide: true };
    app.get<{ Params: { chain: string } }>('/monitor/heads/:chain', { schema }, (req, reply) => {
      let open = false;
      const off = host.monitor(req.params.chain, {
        onChunk: (data) => {
          if (!open) {
            open = true;
            reply.hijack();
            reply.raw.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
          }
          if (!reply.raw.writableEnded && !reply.raw.destroyed) reply.raw.write(data);
        },
        onEnd: (response) => {
          if (open) reply.raw.end();
          else if (response)
            void reply.code(response.status).type(response.contentType).send(Buffer.from(response.body));
          else
            unavailable(reply, new SandboxUnavailableError(503, 'sandboxnet is restarting; retry shortly'));
        },
      });
      req.raw.on('close', off);
    });

    // GET and POST only, as the node: other methods (CORS preflights) stay with the host's routes.
    app.route({
      method: ['GET', 'POST'],
      url: '/*',
      schema,
      handler: async (req, reply) => {
        const headers: Record<string, string> = {};
        for (const name of FORWARDED_HEADERS) {
          const v = req.headers[name];
          if (typeof v === 'string') headers[name] = v;
        }
        // set here only: a copy sent from outside is not forwarded (only FORWARDED_HEADERS are)
        headers[CLIENT_HEADER] = clientOf(req);
        try {
          const res = await host.request({
            method: req.method,
            url: pathOf(req.url),
            headers,
            ...(Buffer.isBuffer(req.body) ? { body: req.body } : {}),
          });
          return reply.code(res.status).type(res.contentType).send(Buffer.from(res.body));
        } catch (e) {
          return unavailable(reply, e);
        }
      },
    });
  };
}
