/**
 * @michelscope/api — the read API (Better Call Dev compatible) as a Fastify plugin, plus a factory
 * that builds a standalone app around it.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { frameworkErrors, newRequestId, requestIdHeader } from './errors';
import type { ApiOptions } from './options';
import { apiPlugin } from './plugin';
import { checkResponses } from './response-check';

export { apiPlugin, COMPRESS_THRESHOLD, DEFAULT_RATE_LIMIT, EMBEDDED_RPC_PATH, OPENAPI_INFO } from './plugin';
export {
  errorHandler,
  frameworkErrors,
  HttpError,
  logServerErrors,
  logToStderr,
  newRequestId,
  REQUEST_ID_HEADER,
  requestIdHeader,
} from './errors';
export { checkResponses, ResponseSchemaError } from './response-check';
export { INTERNAL_CALL_HEADER, internalCallHeaders } from './internal-calls';
export { sortNetworks } from './networks';
export { DEFAULT_RPC_TIMEOUT_MS, HOP_HEADER } from './routes/rpc-proxy';
export type { ApiNetwork, ApiOptions, LiveOptions, LiveSource } from './options';

export interface BuildApiOptions extends ApiOptions {
  /** Fastify logger option; default off (5xx answers are logged by `logError` all the same). */
  logger?: FastifyServerOptions['logger'];
  /**
   * Proxies whose `X-Forwarded-For` names the client (Fastify's `trustProxy`: addresses, CIDR ranges, or
   * `loopback` / `linklocal` / `uniquelocal`). Default none: the client is the peer.
   */
  trustProxy?: string[] | false;
  /**
   * Check every JSON answer (2xx and 4xx) against its route's response schema and answer 500 naming the first
   * mismatch (`checkResponses`): for tests, where it is on by default (under Vitest, `process.env.VITEST`).
   */
  validateResponses?: boolean;
}

/**
 * A standalone API app: Fastify with the TypeBox type provider, `apiPlugin`, and `{"message":"not found"}`
 * for every other path. Call `listen()` or `inject()` on it; `close()` does not close the database.
 */
export async function buildApi(opts: BuildApiOptions): Promise<FastifyInstance> {
  const {
    logger = false,
    trustProxy = false,
    validateResponses = Boolean(process.env.VITEST),
    ...apiOptions
  } = opts;
  const app = Fastify({
    logger,
    bodyLimit: 4 * 1024 * 1024,
    frameworkErrors,
    genReqId: newRequestId,
    trustProxy: trustProxy === false || trustProxy.length === 0 ? false : trustProxy,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', requestIdHeader);
  // before the API's scopes are registered: they inherit the hook (and its onSend runs before compression's)
  if (validateResponses) checkResponses(app);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'not found' }));
  await app.register(apiPlugin, apiOptions);
  return app;
}
