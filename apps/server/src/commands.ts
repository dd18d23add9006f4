import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import {
  apiPlugin,
  checkResponses,
  errorHandler,
  frameworkErrors,
  internalCallHeaders,
  logServerErrors,
  newRequestId,
  requestIdHeader,
  type ApiNetwork,
  type ApiOptions,
} from '@michelscope/api';
import { migrateToLatest, openDatabase, redact, type Db, type DbHandle } from '@michelscope/db';
import { startIndexer, startMetadataResolver, type IndexerHandle } from '@michelscope/indexer';
import {
  embeddedClientHeaders,
  SandboxWorker,
  sandboxWorkerRpcPlugin,
  startStandaloneSandbox,
} from '@michelscope/sandbox';
import { lockDataDir } from './data-dir-lock';
import { ConfigError, StartupError, type AppConfig, type NetworkConfig } from './config';
import { assertPortFree, listenOn } from './port-check';
import { registerSecurityHeaders } from './security-headers';
import { registerWeb, type WebOptions } from './static-web';

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
/** A 5xx answer's line (request id, cause): on stderr, with the time, as the server's other lines. */
const logError = (line: string) => console.error(`${new Date().toISOString()} ${line}`);

async function openDb(config: AppConfig): Promise<DbHandle> {
  const handle = await openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { dataDir: path.join(config.dataDir, 'pglite') },
  ).catch((err: unknown) => {
    // unreachable server, wrong password, missing database: the message says which; no stack
    throw new StartupError(err instanceof Error ? err.message : String(err));
  });
  const applied = await migrateToLatest(handle.db);
  log(
    `[db] ${handle.kind === 'postgres' ? `PostgreSQL ${redact(config.databaseUrl!)}` : `PGlite in ${path.join(config.dataDir, 'pglite')}`}` +
      (applied.length ? `, applied migrations: ${applied.join(', ')}` : ', schema up to date'),
  );
  return handle;
}

/**
 * The API's read connection when `DATABASE_READ_URL` is set (issue 36 part 4): a pool of read-only
 * transactions on the replica; the primary (`openDb`) keeps the writes, LISTEN and the reads that must see them.
 */
async function openReadDb(config: AppConfig): Promise<DbHandle | undefined> {
  if (!config.databaseReadUrl) return undefined;
  const handle = await openDatabase({ databaseUrl: config.databaseReadUrl, readOnly: true }).catch(
    (err: unknown) => {
      throw new StartupError(err instanceof Error ? err.message : String(err));
    },
  );
  log(`[db] reads from PostgreSQL ${redact(config.databaseReadUrl)} (DATABASE_READ_URL)`);
  return handle;
}

/**
 * The node RPC the server-side parts use for a network. The embedded chain is reached over loopback at
 * `port`: in `start`, an internal listener's (see `internalSandboxRpc`), so that the indexer and the API's
 * own node calls are not counted by the public `/rpc` rate limit.
 */
function internalRpcUrl(network: NetworkConfig, config: AppConfig, port: number): string {
  return network.rpcUrl === 'embedded' ? `http://127.0.0.1:${port}/rpc/${network.name}` : network.rpcUrl;
}

function apiNetworks(config: AppConfig, port: number): ApiNetwork[] {
  return config.networks.map((n) => ({
    name: n.name,
    rpcUrl: internalRpcUrl(n, config, port),
    publicRpcUrl: n.publicRpcUrl,
    statsEnabled: n.statsEnabled,
    ...(n.explorerUrl ? { explorerUrl: n.explorerUrl } : {}),
  }));
}

/** The embedded chain's RPC for in-process callers only: 127.0.0.1 on a free port, no rate limit. */
async function internalSandboxRpc(plugin: FastifyPluginAsync): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024, forceCloseConnections: true });
  await app.register(plugin, { prefix: '/rpc/sandboxnet' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

/** What `buildRoot` composes besides the configuration and the database. */
export interface RootParts {
  /** The embedded chain's RPC plugin, and the port of its internal listener (see `internalSandboxRpc`). */
  sandboxRpc?: { plugin: FastifyPluginAsync; port: number };
  /** Wakes a network's indexer when a request names an address the index lacks (issue 32). */
  onAddressRequest?: (network: string) => void;
  /** Overrides of the web app's options (tests: a build and a renderer of their own). */
  web?: Partial<WebOptions>;
  /**
   * Check every JSON answer of the APIs against its route's response schema (`checkResponses`, as `buildApi`
   * does): on by default under Vitest (`process.env.VITEST`), so the server's tests and the end-to-end products
   * (their environment is the runner's) answer 500 naming any mismatch; off for `npm start`.
   */
  validateResponses?: boolean;
  /** The parts this process runs, per network (`runningParts`): for /v1/health (issue 34). */
  parts?: ApiOptions['parts'];
  /** Where the API's reads of chain data go (`DATABASE_READ_URL`); default the primary, `handle.db`. */
  readDb?: Db;
}

/** The server's Fastify app: security headers, the APIs (apiPlugin) and the web app around them. */
export async function buildRoot(
  config: AppConfig,
  handle: Pick<DbHandle, 'db' | 'listen'>,
  {
    sandboxRpc,
    onAddressRequest,
    web,
    parts,
    readDb,
    validateResponses = Boolean(process.env.VITEST),
  }: RootParts = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: 4 * 1024 * 1024,
    frameworkErrors,
    forceCloseConnections: true,
    // the client of a request from a listed proxy is the visitor its X-Forwarded-For names (issue 34)
    trustProxy: config.trustProxy,
    genReqId: newRequestId,
  });
  // every answer names its request; every 5xx (API or page) is one stderr line with that id and its cause
  app.addHook('onRequest', requestIdHeader);
  logServerErrors(app, logError);
  app.setErrorHandler(errorHandler);
  await registerSecurityHeaders(app, config);
  // before the API's scopes are registered: they inherit the hook (and its onSend runs before compression's)
  if (validateResponses) checkResponses(app);
  // counted in the primary when `rate_limit.store` is "database": one limit per client across processes
  const sharedCounts = config.rateLimit && config.rateLimit.store === 'database';
  await app.register(apiPlugin, {
    db: handle.db,
    ...(readDb ? { readDb } : {}),
    networks: apiNetworks(config, sandboxRpc?.port ?? config.port),
    sentryDsn: config.sentryDsn,
    gaEnabled: config.gaEnabled,
    sandboxMode: config.sandboxMode,
    mempoolEnabled: config.mempoolEnabled,
    ipfsGateway: config.ipfsGateway,
    rateLimit: config.rateLimit && {
      max: config.rateLimit.max,
      timeWindowMs: config.rateLimit.timeWindowMs,
      store: config.rateLimit.store,
    },
    logError,
    cors: config.cors,
    live: { source: handle, ...config.live },
    watch: config.watch,
    verify: {
      timeoutMs: config.verify.compileTimeoutMs,
      rateLimit: { max: config.verify.submissionsPer10Minutes, windowMs: 600_000 },
    },
    ...(onAddressRequest ? { onAddressRequest } : {}),
    ...(parts ? { parts } : {}),
    ...(sandboxRpc
      ? {
          embeddedNode: {
            network: 'sandboxnet',
            plugin: sandboxRpc.plugin,
            // the API's node calls name their client to the chain's fair script workers (issue 34)
            clientHeaders: embeddedClientHeaders,
          },
        }
      : {}),
  });
  await registerWeb(app, {
    bootConfig: async () => {
      const res = await app.inject({ url: '/v1/config', headers: internalCallHeaders() });
      if (res.statusCode !== 200) throw new Error(`GET /v1/config: ${res.statusCode}`);
      return res.json();
    },
    serverRender: process.env.SERVER_RENDER !== 'off',
    pageRateLimit: config.rateLimit && {
      max: config.rateLimit.pages,
      timeWindowMs: config.rateLimit.timeWindowMs,
      ...(sharedCounts ? { db: handle.db } : {}),
    },
    log,
    ...(config.webDistDir ? { distDir: config.webDistDir } : {}),
    ...web,
  });
  return app;
}

function onShutdown(task: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`[server] ${signal} received, shutting down`);
    task().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** What /v1/health and the heads say of the parts this process runs for a network (issue 34). */
function runningParts(
  config: AppConfig,
  sandbox: SandboxWorker | undefined,
  indexers: ReadonlyMap<string, IndexerHandle>,
): NonNullable<ApiOptions['parts']> {
  return (network) => {
    const indexer = indexers.get(network)?.status();
    const embedded = config.networks.some((n) => n.name === network && n.rpcUrl === 'embedded');
    if (!embedded || !sandbox) return indexer ? { indexer } : undefined;
    const last = sandbox.lastStorageFault;
    return {
      ...(indexer ? { indexer } : {}),
      nodeStorage: sandbox.storageFault,
      ...(last ? { nodeRecentError: { message: last.message, at: last.since } } : {}),
    };
  };
}

/** Everything in one process: migrations, sandbox chain, indexers, API and web app. */
export async function runStart(config: AppConfig): Promise<void> {
  await assertPortFree(config.port, config.host);
  const unlock = lockDataDir(config.dataDir);
  const handle = await openDb(config);
  const reader = await openReadDb(config);
  const hasSandbox = config.networks.some((n) => n.rpcUrl === 'embedded');
  // The chain runs in its own worker thread: its script runs and block application never hold the event
  // loop that serves the API, the web app and the indexers.
  const sandbox = hasSandbox
    ? await SandboxWorker.open({
        dataDir: config.dataDir,
        blockTimeMs: config.sandbox.blockTimeMs,
        seed: config.sandbox.seed,
        timeLimitMs: config.sandbox.timeLimitMs,
        log,
      })
    : undefined;
  const sandboxRpc = sandbox && sandboxWorkerRpcPlugin(sandbox);
  const internal = sandboxRpc && (await internalSandboxRpc(sandboxRpc));
  const rpcPort = internal ? (internal.server.address() as AddressInfo).port : config.port;
  // an address a request names that the index lacks wakes that network's indexer (issue 32)
  const wake = new Map<string, () => void>();
  const running = new Map<string, IndexerHandle>();
  const app = await buildRoot(config, handle, {
    ...(sandboxRpc ? { sandboxRpc: { plugin: sandboxRpc, port: rpcPort } } : {}),
    onAddressRequest: (n) => wake.get(n)?.(),
    parts: runningParts(config, sandbox, running),
    ...(reader ? { readDb: reader.db } : {}),
  });
  await listenOn(app, config.port, config.host);
  sandbox?.start();
  if (sandbox)
    log(`[sandbox] sandboxnet at level ${sandbox.headLevel}, baking every ${config.sandbox.blockTimeMs} ms`);
  const indexers = config.networks.map((n) =>
    startIndexer({
      db: handle.db,
      network: n.name,
      rpcUrl: internalRpcUrl(n, config, rpcPort),
      startLevel: n.startLevel,
      fetchAhead: n.fetchAhead,
      ...(n.rpcRateLimit !== undefined ? { rpcRateLimit: n.rpcRateLimit } : {}),
      ...(n.historySource !== undefined ? { historySource: n.historySource } : {}),
      log,
    }),
  );
  indexers.forEach((indexer, i) => wake.set(config.networks[i]!.name, () => indexer.wake()));
  indexers.forEach((indexer, i) => running.set(config.networks[i]!.name, indexer));
  const resolvers = config.networks.map((n) =>
    startMetadataResolver({
      db: handle.db,
      network: n.name,
      rpcUrl: internalRpcUrl(n, config, rpcPort),
      ipfsGateway: config.ipfsGateway,
      log,
    }),
  );
  log(
    `[server] Michelscope is serving ${config.publicUrl} (networks: ${config.networks.map((n) => n.name).join(', ')})`,
  );
  onShutdown(async () => {
    await Promise.all([...indexers, ...resolvers].map((i) => i.stop()));
    await app.close();
    await internal?.close();
    await sandbox?.stop();
    await reader?.close();
    await handle.close();
    unlock();
  });
}

/** API and web app only: stateless, scale out behind a load balancer over PostgreSQL. */
export async function runApi(config: AppConfig): Promise<void> {
  if (config.networks.some((n) => n.rpcUrl === 'embedded')) {
    log(
      '[api] note: "embedded" sandboxnet has no node in this process; point networks.sandboxnet.rpc_url at `michelscope sandbox`',
    );
  }
  await assertPortFree(config.port, config.host);
  const handle = await openDb(config);
  const reader = await openReadDb(config);
  const app = await buildRoot(config, handle, reader ? { readDb: reader.db } : {});
  await listenOn(app, config.port, config.host);
  log(`[api] serving ${config.publicUrl}`);
  onShutdown(async () => {
    await app.close();
    await reader?.close();
    await handle.close();
  });
}

/** One network's indexer (the only writer for that network). */
export async function runIndexer(config: AppConfig, name: string): Promise<void> {
  const network = config.networks.find((n) => n.name === name);
  if (!network)
    throw new ConfigError(
      `network "${name}" is not configured (known: ${config.networks.map((n) => n.name).join(', ')})`,
    );
  if (network.rpcUrl === 'embedded') {
    throw new ConfigError(
      `network "${name}" uses the embedded chain: run \`michelscope sandbox\` and set its rpc_url`,
    );
  }
  const handle = await openDb(config);
  const indexer = startIndexer({
    db: handle.db,
    network: name,
    rpcUrl: network.rpcUrl,
    startLevel: network.startLevel,
    fetchAhead: network.fetchAhead,
    ...(network.rpcRateLimit !== undefined ? { rpcRateLimit: network.rpcRateLimit } : {}),
    ...(network.historySource !== undefined ? { historySource: network.historySource } : {}),
    log,
  });
  const resolver = startMetadataResolver({
    db: handle.db,
    network: name,
    rpcUrl: network.rpcUrl,
    ipfsGateway: config.ipfsGateway,
    log,
  });
  onShutdown(async () => {
    await Promise.all([indexer.stop(), resolver.stop()]);
    await handle.close();
  });
}

/** The local chain alone, as a Tezos node RPC (e.g. for Taquito scripts or a separate indexer). */
export async function runSandbox(config: AppConfig, port: number): Promise<void> {
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError('--port must be a port number');
  await assertPortFree(port, config.host);
  const unlock = lockDataDir(config.dataDir);
  const node = await startStandaloneSandbox({
    dataDir: config.dataDir,
    blockTimeMs: config.sandbox.blockTimeMs,
    seed: config.sandbox.seed,
    timeLimitMs: config.sandbox.timeLimitMs,
    port,
    host: config.host,
    log,
  });
  log(`[sandbox] node RPC at ${node.url}`);
  onShutdown(async () => {
    await node.close();
    unlock();
  });
}

export async function runMigrate(config: AppConfig): Promise<void> {
  const handle = await openDb(config);
  await handle.close();
}
