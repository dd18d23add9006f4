import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { inputExcess } from '@michelscope/michelson';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { createContext } from './context';
import { errorHandler, HttpError, logServerErrors, logToStderr, requestIdHeader } from './errors';
import { isInternalCall, markInternalCall } from './internal-calls';
import { ensureAddress } from './services/address-requests';
import { withRequestClient } from './services/node-rpc';
import type { ApiOptions } from './options';
import { configRoutes } from './routes/config';
import { headRoutes } from './routes/head';
import { healthRoutes } from './routes/health';
import { openapiRoute } from './routes/openapi';
import { rpcProxyRoutes } from './routes/rpc-proxy';
import { statsRoutes } from './routes/stats';
import { actionRoutes } from './routes/actions';
import { bigMapRoutes } from './routes/bigmap';
import { chainRoutes } from './routes/chain';
import { contractRoutes } from './routes/contract';
import { contractSchemaRoutes } from './routes/contract-schema';
import { storageDiffRoutes } from './routes/storage-diff';
import { securityRoutes } from './routes/security';
import { verifyRoutes } from './routes/verify';
import { exportRoutes } from './routes/export';
import { legacyRoutes } from './routes/legacy';
import { metadataGraphqlRoutes } from './routes/metadata-graphql';
import { operationRoutes } from './routes/operations';
import { searchServiceRoutes } from './routes/search-service';
import { simulateRoutes } from './routes/simulate';
import { debugRoutes } from './routes/debug';
import { shareRoutes } from './routes/share';
import { liveRoutes } from './routes/live';
import { LiveHub } from './live/hub';
import { watchRoutes } from './routes/watch';
import { sharedSource } from './watch/shared-source';
import { WatchService } from './watch/service';
import { networkStatsRoutes, statsServiceRoutes } from './routes/stats-service';
import { addSharedSchemas, componentName } from './schemas';
import { checkIntegerParams } from './validate';
import { databaseRateLimitStore } from './rate-limit-store';

/** `/rpc/embedded`: the embedded node under a path without the word "sandbox" (see ApiOptions.embeddedNode). */
export const EMBEDDED_RPC_PATH = 'embedded';

/** Per-IP limit when `rateLimit` is not given. */
export const DEFAULT_RATE_LIMIT = { max: 600, timeWindowMs: 60_000 };
/** API answers smaller than this (bytes) are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_THRESHOLD = 1024;

export const OPENAPI_INFO = {
  title: 'Michelscope API',
  version: '1',
  description:
    'Read API of Michelscope, compatible with the Better Call Dev API. Errors are `{"message": …}`. ' +
    'The node RPC of each network is also passed through at `/rpc/{network}/…` (GET and POST).',
};

/**
 * The API as an encapsulated Fastify plugin: routes under /v1, the search service under /search/v1, the stats
 * service under /stats/v1 and the node RPC pass-through under /rpc/{network}/*. Its error handler and 404 handler (for /v1/*) stay inside its own scope, so the host
 * app keeps control of every other path. Do not wrap it with fastify-plugin.
 */
export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (app, opts) => {
  const ctx = createContext(opts);
  app.setErrorHandler(errorHandler);
  // every answer names its request; every 5xx is one log line with that id and its cause (issue 34)
  app.addHook('onRequest', requestIdHeader);
  logServerErrors(app, opts.logError ?? logToStderr);
  // before the rate limit: the server's own requests (the page renderer's) are charged to nobody
  app.addHook('onRequest', markInternalCall);
  // the node calls a request causes name its client to the embedded node (fair script workers, issue 34); only
  // with one: an AsyncLocalStorage in use makes Node run a hook at every promise of every request (issue 36)
  if (opts.embeddedNode?.clientHeaders) app.addHook('preHandler', withRequestClient);
  // one LISTEN per process, fanned out to the live connections (live/hub.ts)
  const liveSource = opts.live && sharedSource(opts.live.source);
  const hub = opts.live
    ? new LiveHub(ctx, { ...opts.live, source: liveSource! }, (msg) => app.log.warn(msg))
    : undefined;
  if (hub) {
    await hub.start();
    app.addHook('onClose', () => hub.stop());
  }
  // watch rules: evaluated once per block from the same LISTEN, webhooks delivered (watch/service.ts, issue 39)
  const watch = opts.watch
    ? new WatchService(
        opts.db,
        opts.watch,
        (msg) => app.log.warn(msg),
        (n) => !!ctx.networks.get(n),
      )
    : undefined;
  if (watch) {
    await watch.start(liveSource);
    app.addHook('onClose', () => watch.stop());
  }
  // before schema validation and every route: deep JSON would overflow the stack of the recursive tools,
  // and huge int literals cost quadratic time in the codecs
  app.addHook('preValidation', async (request) => {
    const excess = inputExcess(request.body);
    if (excess) throw new HttpError(400, excess.replace(/^JSON/, 'request body'));
  });
  app.addHook('preValidation', checkIntegerParams);
  addSharedSchemas(app);
  await app.register(swagger, {
    openapi: { openapi: '3.0.3', info: OPENAPI_INFO },
    refResolver: { buildLocalReference: componentName },
  });
  const document = () => app.swagger();
  const rate: ApiOptions['rateLimit'] = opts.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (rate !== false) {
    // in the database: one limit per client across the API processes over one PostgreSQL (issue 36 part 4)
    const shared = rate.store === 'database' ? databaseRateLimitStore(opts.db) : undefined;
    if (shared) app.addHook('onClose', async () => shared.stop());
    await app.register(rateLimit, {
      ...(shared ? { store: shared.Store, skipOnError: true } : {}),
      max: rate.max,
      timeWindow: rate.timeWindowMs,
      // the client is request.ip: the visitor when the server trusts its proxy (the root's `trustProxy`)
      allowList: (request) => isInternalCall(request),
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, `rate limit exceeded, retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} s`),
    });
  }
  // CORS per prefixed scope, so that its preflight route is `/v1/*` etc. and not a catch-all OPTIONS in the host
  const withCors = async (scope: FastifyInstance) => {
    const origins = opts.cors ?? true;
    if (origins === false) return;
    await scope.register(cors, {
      origin: origins === true ? '*' : origins,
      methods: ['GET', 'HEAD', 'POST', 'DELETE'],
      // where …/views/execute ran (its body is the view's result alone): readable by other origins' clients
      exposedHeaders: ['x-simulated-level', 'x-head-level', 'x-changed-since'],
      maxAge: 86400,
    });
  };

  // JSON answers of 1 kB and more are sent with brotli (quality 4) or gzip by accept-encoding. Not on the
  // /rpc pass-through, which relays the node's body as it comes.
  const withCompression = (scope: FastifyInstance) =>
    scope.register(compress, { encodings: ['br', 'gzip'], threshold: COMPRESS_THRESHOLD });

  await app.register(
    async (v1) => {
      await withCors(v1);
      await withCompression(v1);
      v1.setNotFoundHandler(() => {
        throw new HttpError(404, 'not found');
      });
      // An address of a public network the index does not hold yet is read from the node first (issue 32).
      v1.addHook('preHandler', async (request) => {
        const p = request.params as { network?: unknown; address?: unknown } | undefined;
        if (typeof p?.network === 'string' && typeof p.address === 'string')
          await ensureAddress(ctx, p.network, p.address);
      });
      await v1.register(configRoutes, { ctx });
      await v1.register(headRoutes, { ctx });
      await v1.register(healthRoutes, { ctx });
      await v1.register(statsRoutes, { ctx });
      await v1.register(contractRoutes, { ctx });
      await v1.register(contractSchemaRoutes, { ctx });
      await v1.register(storageDiffRoutes, { ctx });
      await v1.register(securityRoutes, { ctx });
      await v1.register(verifyRoutes, { ctx, ...(opts.verify ? { options: opts.verify } : {}) });
      await v1.register(exportRoutes, { ctx });
      await v1.register(operationRoutes, { ctx });
      await v1.register(bigMapRoutes, { ctx });
      await v1.register(chainRoutes, { ctx });
      await v1.register(networkStatsRoutes, { ctx });
      await v1.register(actionRoutes, { ctx });
      await v1.register(simulateRoutes, { ctx });
      await v1.register(debugRoutes, { ctx });
      await v1.register(shareRoutes, { ctx });
      await v1.register(liveRoutes, { ctx, hub });
      await v1.register(watchRoutes, { ctx, ...(watch ? { watch } : {}) });
      await v1.register(legacyRoutes, { ctx });
      await v1.register(openapiRoute, { document });
    },
    { prefix: '/v1' },
  );
  // the stats service also per network (/stats/{network}/v1/…): BCD clients give each network its own base
  for (const [prefix, routes] of [
    ['/search/v1', (svc: FastifyInstance) => svc.register(searchServiceRoutes, { ctx })],
    ['/stats/v1', (svc: FastifyInstance) => svc.register(statsServiceRoutes, { ctx })],
    [
      '/stats/:network/v1',
      (svc: FastifyInstance) => svc.register(statsServiceRoutes, { ctx, perNetwork: true }),
    ],
  ] as const) {
    await app.register(
      async (svc) => {
        await withCors(svc);
        await withCompression(svc);
        svc.setNotFoundHandler(() => {
          throw new HttpError(404, 'not found');
        });
        await routes(svc);
      },
      { prefix },
    );
  }
  await app.register(
    async (svc) => {
      await withCors(svc);
      await withCompression(svc);
      await svc.register(metadataGraphqlRoutes, { ctx });
    },
    { prefix: '/metadata/v1' },
  );
  await app.register(
    async (rpc) => {
      await withCors(rpc);
      if (opts.embeddedNode) {
        for (const prefix of [`/${opts.embeddedNode.network}`, `/${EMBEDDED_RPC_PATH}`])
          await rpc.register(opts.embeddedNode.plugin, { prefix });
      }
      await rpc.register(rpcProxyRoutes, { ctx });
    },
    { prefix: '/rpc' },
  );
};
