import { isIP } from 'node:net';
import path from 'node:path';
import type { HistorySourceConfig } from '@michelscope/indexer';
import { ConfigError, readConfigFile, type FileConfig } from './config-file';

export { ConfigError, StartupError } from './config-file';

/** One network the product knows: where its node RPC is and what the UI may link to. */
export interface NetworkConfig {
  name: string;
  /** Node RPC the indexer and the pass-through use; "embedded" = the built-in sandbox chain. */
  rpcUrl: string;
  /** RPC URL given to browsers in /v1/config (rpc_endpoints). */
  publicRpcUrl: string;
  /** Whether a statistics service exists for this network (Statistics tab). */
  statsEnabled: boolean;
  /** External block explorer for "open in explorer" links. */
  explorerUrl?: string;
  /** Where the indexer starts when the database has nothing for this network. */
  startLevel: number | 'head' | 'genesis';
  /** Blocks the indexer requests in parallel while catching up (default 4). */
  fetchAhead: number;
  /** Requests per second the indexer sends to the node at most (default: no limit). */
  rpcRateLimit?: number;
  /** The history backfill's source (issue 32): a BCD-compatible API, TzKT, the node's scan (default), or off. */
  historySource?: HistorySourceConfig | false;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * `DATABASE_READ_URL` (PostgreSQL only, issue 36 part 4): the API's reads of chain data go there (a read
   * replica), its writes, LISTEN and the reads that must see them stay on `databaseUrl`.
   */
  databaseReadUrl?: string;
  /**
   * `WEB_DIST_DIR`: the web build to serve (its `dist`, with `dist-ssr` beside it for the server's rendering);
   * default apps/web/dist of this checkout.
   */
  webDistDir?: string;
  publicUrl: string;
  networks: NetworkConfig[];
  mempoolEnabled: boolean;
  sandboxMode: boolean;
  gaEnabled: boolean;
  sentryDsn: string;
  /** The embedded chain: block time, and whether a new chain gets the demo contracts. */
  /** timeLimitMs: wall-clock limit of one script run on the embedded chain (run_code, views, simulations). */
  sandbox: { blockTimeMs: number; seed: boolean; timeLimitMs: number };
  /**
   * Per-client request limits, or false (behind a proxy that limits already): `max` API requests and `pages`
   * page requests (index.html, rendered or not) per `timeWindowMs`. The page renderer's own API requests are
   * not counted: the page's one token pays for them. `store`: where the counts are kept: `database` (the
   * default on PostgreSQL: table `rate_limits`, one limit per client across every API process) or `memory`
   * (this process alone; the default on PGlite, which is one process anyway).
   */
  rateLimit: { max: number; timeWindowMs: number; pages: number; store: 'database' | 'memory' } | false;
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed (addresses, CIDR ranges, or `loopback`,
   * `linklocal`, `uniquelocal`): a request from one of them is the visitor's it names, for the rate limits
   * and the live connections per client. False (the default): the client is the peer, the header is ignored.
   */
  trustProxy: string[] | false;
  /** Limits of the live updates (`GET /v1/live/{network}`): open connections per client IP and in all. */
  live: { maxConnectionsPerIp: number; maxConnections: number };
  /** IPFS gateway for metadata (ipfs: URIs) and token images. */
  ipfsGateway: string;
  /** Origins allowed by CORS (true: any). */
  cors: boolean | string[];
  /**
   * Watch rules (issue 39): webhooks to private addresses allowed, rules per management token and in all, the
   * first retry's delay (doubling up to 1 h; shorter for tests).
   */
  watch: {
    allowPrivateTargets: boolean;
    maxRulesPerToken: number;
    maxRulesTotal: number;
    backoffBaseMs: number;
  };
  /** Verified source (issue 38): one compile's wall-clock limit, and submissions per client in 10 minutes. */
  verify: { compileTimeoutMs: number; submissionsPer10Minutes: number };
}

const NETWORK_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * The embedded defaults: the local sandbox chain plus mainnet and ghostnet through public RPC nodes. The stats
 * service reads the local index, so sandboxnet has its Statistics tabs too (the seeded demo has the data).
 */
const DEFAULT_NETWORKS: NonNullable<FileConfig['networks']> = {
  sandboxnet: { rpc_url: 'embedded', stats: true, start_level: 0 },
  mainnet: {
    rpc_url: 'https://mainnet.ecadinfra.com',
    stats: true,
    explorer_url: 'https://tzkt.io',
    start_level: 'head',
    // the levels a contract's history touches, from TzKT's public API (a scan of mainnet's millions of blocks
    // through a public node is no default: `{ "kind": "scan" }` asks for one)
    history_source: { kind: 'tzkt', url: 'https://api.tzkt.io' },
  },
  ghostnet: {
    rpc_url: 'https://ghostnet.ecadinfra.com',
    stats: true,
    explorer_url: 'https://ghostnet.tzkt.io',
    start_level: 'head',
    history_source: { kind: 'tzkt', url: 'https://api.ghostnet.tzkt.io' },
  },
};

/** Mainnet first, then the others by name descending (the spec's order wherever networks are listed). */
export function sortNetworks<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => {
    if (a.name === b.name) return 0;
    if (a.name === 'mainnet') return -1;
    if (b.name === 'mainnet') return 1;
    return a.name < b.name ? 1 : -1;
  });
}

/**
 * Reads configuration: defaults, then michelscope.config.json (path from MICHELSCOPE_CONFIG, else the
 * working directory; optional), then the environment (PORT, HOST, DATA_DIR, DATABASE_URL, DATABASE_READ_URL,
 * WEB_DIST_DIR, PUBLIC_URL).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const file = readConfigFile(env, cwd);
  const port = parsePort(env.PORT ?? '8080');
  const host = env.HOST ?? file.host ?? '0.0.0.0';
  const publicUrl = (env.PUBLIC_URL ?? file.public_url ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const blockTimeMs = file.sandbox?.block_time_ms ?? 2000;
  if (!Number.isInteger(blockTimeMs) || blockTimeMs < 100)
    throw new ConfigError('sandbox.block_time_ms must be an integer ≥ 100');
  const timeLimitMs = file.sandbox?.time_limit_ms ?? 10_000;
  if (!Number.isInteger(timeLimitMs) || timeLimitMs < 100 || timeLimitMs > 600_000)
    throw new ConfigError('sandbox.time_limit_ms must be an integer from 100 to 600000');

  const merged = { ...DEFAULT_NETWORKS, ...(file.networks ?? {}) };
  const networks: NetworkConfig[] = [];
  for (const [name, raw] of Object.entries(merged)) {
    if (raw === false) continue;
    if (!NETWORK_NAME.test(name)) throw new ConfigError(`invalid network name "${name}"`);
    if (name === 'embedded')
      throw new ConfigError('"embedded" is reserved (the embedded node is at /rpc/embedded)');
    const base = DEFAULT_NETWORKS[name] || {};
    const n = { ...(base || {}), ...raw };
    const rpcUrl = n.rpc_url;
    if (!rpcUrl) throw new ConfigError(`network "${name}" has no rpc_url`);
    if (rpcUrl !== 'embedded' && !/^https?:\/\//.test(rpcUrl))
      throw new ConfigError(`network "${name}": rpc_url must be http(s) or "embedded"`);
    if (n.explorer_url !== undefined && !/^https:\/\//.test(n.explorer_url))
      throw new ConfigError(`network "${name}": explorer_url must be https`);
    const startLevel = n.start_level ?? (rpcUrl === 'embedded' ? 0 : 'head');
    if (typeof startLevel === 'number' && !(Number.isInteger(startLevel) && startLevel >= 0))
      throw new ConfigError(`network "${name}": start_level must be "head", "genesis" or a level`);
    const fetchAhead = n.fetch_ahead ?? 4;
    if (!(Number.isInteger(fetchAhead) && fetchAhead >= 1 && fetchAhead <= 64))
      throw new ConfigError(`network "${name}": fetch_ahead must be a whole number from 1 to 64`);
    if (n.rpc_rate_limit !== undefined && !(n.rpc_rate_limit > 0))
      throw new ConfigError(`network "${name}": rpc_rate_limit must be a number of requests per second > 0`);
    networks.push({
      name,
      rpcUrl,
      // the embedded node's public path has no "sandbox" in it: the BCD frontend rewrites that word in RPC URLs
      publicRpcUrl: n.public_rpc_url ?? (rpcUrl === 'embedded' ? `${publicUrl}/rpc/embedded` : rpcUrl),
      statsEnabled: n.stats ?? false,
      ...(n.explorer_url ? { explorerUrl: n.explorer_url } : {}),
      startLevel,
      fetchAhead,
      ...(n.rpc_rate_limit !== undefined ? { rpcRateLimit: n.rpc_rate_limit } : {}),
      ...(n.history_source !== undefined
        ? { historySource: historySourceConfig(name, n.history_source) }
        : {}),
    });
  }
  if (networks.filter((n) => n.rpcUrl === 'embedded').some((n) => n.name !== 'sandboxnet')) {
    throw new ConfigError('only the network "sandboxnet" can use the embedded chain');
  }
  if (env.DATABASE_READ_URL && !env.DATABASE_URL)
    throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (the primary, which takes the writes)');
  return {
    port,
    host,
    dataDir: path.resolve(cwd, env.DATA_DIR ?? './data'),
    ...(env.DATABASE_URL ? { databaseUrl: parseDatabaseUrl(env.DATABASE_URL) } : {}),
    ...(env.DATABASE_READ_URL
      ? { databaseReadUrl: parseDatabaseUrl(env.DATABASE_READ_URL, 'DATABASE_READ_URL') }
      : {}),
    ...(env.WEB_DIST_DIR ? { webDistDir: path.resolve(cwd, env.WEB_DIST_DIR) } : {}),
    publicUrl,
    networks: sortNetworks(networks),
    mempoolEnabled: file.mempool_enabled ?? true,
    sandboxMode: file.sandbox_mode ?? false,
    gaEnabled: file.ga_enabled ?? false,
    sentryDsn: file.sentry_dsn ?? '',
    sandbox: { blockTimeMs, seed: file.sandbox?.seed ?? true, timeLimitMs },
    rateLimit: parseRateLimit(file.rate_limit, Boolean(env.DATABASE_URL)),
    trustProxy: parseTrustProxy(file.trust_proxy),
    live: parseLive(file.live),
    cors: file.cors ?? true,
    watch: parseWatch(file.watch),
    verify: parseVerify(file.verify),
    ipfsGateway: parseGateway(env.IPFS_GATEWAY ?? file.ipfs_gateway ?? 'https://ipfs.io/ipfs'),
  };
}

/** Only PostgreSQL speaks our SQL: another scheme (mysql://…) is refused before any connection. */
function parseDatabaseUrl(url: string, name = 'DATABASE_URL'): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  if (!scheme || !/^postgres(ql)?$/i.test(scheme))
    throw new ConfigError(
      `${name} must be a postgres:// or postgresql:// URL${scheme ? `, not ${scheme}://` : ''}`,
    );
  return url;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a port number, got "${value}"`);
  return port;
}

/**
 * Default: 3,000 API requests and 300 pages a minute per client (a person browsing stays far below: the app
 * loads one page and then asks the API; scripts and crawlers get 429s). Counted in the database on PostgreSQL
 * (one limit per client across API processes), in memory on PGlite.
 */
function parseRateLimit(raw: FileConfig['rate_limit'], postgres: boolean): AppConfig['rateLimit'] {
  if (raw === false) return false;
  const max = raw?.max ?? 3000;
  const timeWindowMs = raw?.time_window_ms ?? 60_000;
  const pages = raw?.pages ?? 300;
  if (!Number.isInteger(max) || max < 1 || !Number.isInteger(timeWindowMs) || timeWindowMs < 1000) {
    throw new ConfigError('rate_limit needs a whole max ≥ 1 and time_window_ms ≥ 1000, or false');
  }
  if (!Number.isInteger(pages) || pages < 1)
    throw new ConfigError('rate_limit.pages must be a whole number ≥ 1');
  const store = raw?.store ?? (postgres ? 'database' : 'memory');
  if (store === 'database' && !postgres)
    throw new ConfigError('rate_limit.store "database" needs DATABASE_URL (PostgreSQL)');
  return { max, timeWindowMs, pages, store };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one of proxy-addr's names. */
function parseTrustProxy(raw: FileConfig['trust_proxy']): AppConfig['trustProxy'] {
  if (raw === undefined || raw === false) return false;
  if (raw.length === 0) throw new ConfigError('trust_proxy must list proxy addresses, or be false');
  for (const entry of raw) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const okBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
    if (family === 0 || !okBits || extra !== undefined)
      throw new ConfigError(
        `trust_proxy: "${entry}" is not an address, a CIDR range or loopback / linklocal / uniquelocal`,
      );
  }
  return [...raw];
}

/** Default: 20 live connections per client IP (a few tabs), 10,000 in all. */
function parseLive(raw: FileConfig['live']): AppConfig['live'] {
  const maxConnectionsPerIp = raw?.max_connections_per_ip ?? 20;
  const maxConnections = raw?.max_connections ?? 10_000;
  for (const [name, v] of [
    ['max_connections_per_ip', maxConnectionsPerIp],
    ['max_connections', maxConnections],
  ] as const)
    if (!Number.isInteger(v) || v < 1) throw new ConfigError(`live.${name} must be a whole number ≥ 1`);
  return { maxConnectionsPerIp, maxConnections };
}

/** Default: 20 s a compile, 10 submissions per client in 10 minutes. */
function parseVerify(raw: FileConfig['verify']): AppConfig['verify'] {
  const compileTimeoutMs = raw?.compile_timeout_ms ?? 20_000;
  const submissionsPer10Minutes = raw?.submissions_per_10_minutes ?? 10;
  if (!Number.isInteger(compileTimeoutMs) || compileTimeoutMs < 1_000 || compileTimeoutMs > 300_000)
    throw new ConfigError('verify.compile_timeout_ms must be a whole number from 1000 to 300000');
  if (!Number.isInteger(submissionsPer10Minutes) || submissionsPer10Minutes < 1)
    throw new ConfigError('verify.submissions_per_10_minutes must be a whole number ≥ 1');
  return { compileTimeoutMs, submissionsPer10Minutes };
}

/** Default: no private webhook targets, 20 rules a token, 10,000 in all, retries from 10 s. */
function parseWatch(raw: FileConfig['watch']): AppConfig['watch'] {
  const maxRulesPerToken = raw?.max_rules_per_token ?? 20;
  const maxRulesTotal = raw?.max_rules_total ?? 10_000;
  const backoffBaseMs = raw?.retry_base_ms ?? 10_000;
  if (!Number.isInteger(backoffBaseMs) || backoffBaseMs < 100 || backoffBaseMs > 3_600_000)
    throw new ConfigError('watch.retry_base_ms must be a whole number from 100 to 3600000');
  for (const [name, v] of [
    ['max_rules_per_token', maxRulesPerToken],
    ['max_rules_total', maxRulesTotal],
  ] as const)
    if (!Number.isInteger(v) || v < 1) throw new ConfigError(`watch.${name} must be a whole number ≥ 1`);
  return {
    allowPrivateTargets: raw?.allow_private_targets ?? false,
    maxRulesPerToken,
    maxRulesTotal,
    backoffBaseMs,
  };
}

function parseGateway(url: string): string {
  if (!/^https:\/\/[^\s]+$/.test(url)) throw new ConfigError('ipfs_gateway must be an https:// URL');
  return url.replace(/\/+$/, '');
}

/** A network's `history_source`, checked: bcd and tzkt need an http(s) url. */
function historySourceConfig(
  name: string,
  raw: false | { kind: 'bcd' | 'tzkt' | 'scan'; url?: string | undefined; network?: string | undefined },
): HistorySourceConfig | false {
  if (raw === false) return false;
  if (raw.kind === 'scan') return { kind: 'scan' };
  if (!raw.url || !/^https?:\/\//.test(raw.url))
    throw new ConfigError(`network "${name}": history_source.url must be an http(s) URL`);
  if (raw.kind === 'tzkt') return { kind: 'tzkt', url: raw.url };
  return { kind: 'bcd', url: raw.url, ...(raw.network ? { network: raw.network } : {}) };
}
