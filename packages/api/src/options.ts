import type { Db } from '@michelscope/db/read';
import type { FastifyPluginAsync } from 'fastify';
import type { VerifyOptions } from './verify/options';
import type { WatchOptions } from './watch/options';

/** One network the API serves. */
export interface ApiNetwork {
  name: string;
  /** Node RPC the server reaches (target of the /rpc/{network}/* pass-through). */
  rpcUrl: string;
  /** Node RPC URL given to browsers in /v1/config. */
  publicRpcUrl: string;
  /** Whether a statistics service exists for the network. */
  statsEnabled: boolean;
  /** External block explorer. */
  explorerUrl?: string;
}

export interface ApiOptions {
  /**
   * The primary database: every write (shares, watch rules and deliveries, address requests, verifications,
   * the shared rate limit) and every read that must see a write or a notice at once (the live hub's reads
   * after a NOTIFY, the watch evaluator, shares, address requests).
   */
  db: Db;
  /**
   * Where the other reads go (chain data for pages and the services): a read replica (`DATABASE_READ_URL`,
   * issue 36 part 4). Default: `db`. A replica lags the primary by its replication delay.
   */
  readDb?: Db;
  networks: ApiNetwork[];
  sentryDsn?: string;
  gaEnabled?: boolean;
  sandboxMode?: boolean;
  mempoolEnabled?: boolean;
  /** IPFS gateway base (`{gateway}/{cid}`) sent to browsers in /v1/config. Default https://ipfs.io/ipfs. */
  ipfsGateway?: string;
  /** Timeout of one node RPC pass-through request, in ms. Default 30000. */
  rpcTimeoutMs?: number;
  /**
   * Per-client rate limit over every route of the plugin: `max` requests per `timeWindowMs`; `false` turns it
   * off. Default 600 per minute. Over the limit: 429 `{"message"}` with `retry-after`. The client is
   * `request.ip`: the peer, or the visitor behind a proxy the root Fastify trusts (its `trustProxy` option).
   * The server's own requests (`internalCallHeaders()`, the page renderer's) are not counted.
   * `store: 'database'` counts in `db` (table `rate_limits`, one UPSERT a request), so that every API process
   * over one PostgreSQL keeps one limit per client; the default `'memory'` counts in this process alone.
   */
  rateLimit?: { max: number; timeWindowMs: number; store?: 'memory' | 'database' } | false;
  /**
   * The most bytes all stored shared simulations (POST /v1/shares) may take together, counted as the database
   * stores them; past it the least recently opened are deleted (a state larger than the whole store gets 507
   * `{"message"}`). Default 1 GiB.
   */
  sharesMaxBytes?: number;
  /**
   * The most bytes of new shared simulations one client (its address, as the rate limit sees it) may store in a
   * clock hour, counted as the database stores them; past it POST /v1/shares answers 429 with `retry-after`.
   * Default 8 MiB.
   */
  sharesClientBytesPerHour?: number;
  /**
   * CORS for GET/POST (and preflight): `true` allows every origin (`*`, the default), a list allows those origins,
   * `false` sends no CORS headers.
   */
  cors?: boolean | string[];
  /**
   * A node served by this process (the embedded sandbox chain's RPC): mounted at `/rpc/{network}` and at
   * `/rpc/embedded` (a path without the word "sandbox", which the BCD frontend rewrites in RPC URLs), with the
   * same CORS headers as the API. `clientHeaders` (the node's `embeddedClientHeaders`): the headers with which
   * the API's calls to that network's `rpcUrl` (this process's loopback listener) name the client whose request
   * caused them, so that the node's script workers are shared fairly between clients (issue 34).
   */
  embeddedNode?: {
    network: string;
    plugin: FastifyPluginAsync;
    clientHeaders?: (client: string) => Record<string, string>;
  };
  /**
   * Live updates (`GET /v1/live/{network}`): the database's notifications (`DbHandle.listen` of @michelscope/db)
   * and the limits. Without it that route answers 503.
   */
  live?: LiveOptions;
  /**
   * Watch rules and webhooks (`/v1/watch/…`, issue 39): limits, the URL check and the delivery's retries. Rules
   * are evaluated from the live notices (needs `live`). Without it the routes answer 503.
   */
  watch?: WatchOptions;
  /**
   * Verified source (`POST /v1/contract/{network}/{address}/verify`, issue 38): the compilers offered, a
   * compile's time and heap limits, the per-client submission limit and the compile queue. Defaults: Archetype
   * (SmartPy when installed), 20 s, 512 MB, 10 submissions per 10 minutes, one compile at a time, 4 waiting.
   */
  verify?: VerifyOptions;
  /**
   * Called when a request queued an address for a network's indexer (db `address_requests`): the server wakes
   * that indexer so that it reads the address at once. Without it the indexer finds the request within a second.
   */
  onAddressRequest?: (network: string) => void;
  /**
   * Where each 5xx answer's one log line goes (status, method, path, request id, client, cause). Default:
   * stderr, with the time.
   */
  logError?: (line: string) => void;
  /** Clock in ms since the epoch for `synced` and the response cache (tests). Default Date.now. */
  now?: () => number;
  /**
   * What the server knows of the parts it runs for a network (its indexer, its embedded node), for
   * `GET /v1/health` and the `failures` of heads (issue 34). Without it (`michelscope api`) only the node,
   * the lag and the database as the API sees them are reported.
   */
  parts?: (network: string) => NetworkParts | undefined;
}

/** A network's parts running in the server's process (times in ms since the epoch). */
export interface NetworkParts {
  /** The indexer's status (`IndexerHandle.status()` of @michelscope/indexer). */
  indexer?: {
    state: 'starting' | 'syncing' | 'following' | 'unreachable' | 'failed' | 'stopped';
    lastError?: string;
    failedSince?: number;
    recentError?: { message: string; at: number };
  };
  /** The embedded node's storage fault (`SandboxWorker.storageFault`), null when it stores its chain. */
  nodeStorage?: { message: string; since: number } | null;
  /** The embedded node's latest storage fault, kept after it ended. */
  nodeRecentError?: { message: string; at: number };
}

/** Where the notifications come from: `DbHandle.listen` of @michelscope/db. */
export interface LiveSource {
  listen(onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
}

export interface LiveOptions {
  source: LiveSource;
  /** Open live connections per client IP; default 20. */
  maxConnectionsPerIp?: number;
  /** Open live connections in this process; default 10,000. */
  maxConnections?: number;
  /** Comment line sent to every connection this often (ms); default 15,000. */
  heartbeatMs?: number;
  /** Mempool poll period (ms) while some connection waits for a pending operation; default 2,000. */
  mempoolPollMs?: number;
}
