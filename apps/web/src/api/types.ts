/**
 * Response types of the main API used by the web app so far.
 * Local for now; they move to @michelscope/api-types (import type only) in a later pass.
 */

/** GET /v1/config (bcd-api.md §3.0 ConfigResponse, plus mempool_enabled). */
export interface ConfigResponse {
  /** Configured networks: mainnet first, then by name descending (server order, kept as is). */
  networks: string[];
  rpc_endpoints: Record<string, string>;
  sentry_dsn: string;
  oauth_enabled: boolean;
  ga_enabled: boolean;
  sandbox_mode: boolean;
  mempool_enabled: boolean;
  /** Michelscope extension: per-network details (statistics service, RPC URL); empty when not sent. */
  network_info: NetworkInfo[];
  /** IPFS gateway for token images (optional extension; the web falls back to its default). */
  ipfs_gateway: string | null;
}

/** `network_info` item of GET /v1/config. */
export interface NetworkInfo {
  name: string;
  rpc_endpoint: string;
  stats_enabled: boolean;
  /** External block explorer (https) for "open in an external explorer" links; absent when none. */
  explorer_url?: string;
}

/** One element of GET /v1/head: the last indexed block of a network. */
export interface Head {
  network: string;
  level: number;
  /** RFC 3339 timestamp of the head block. */
  time: string;
  protocol: string;
  /** The head block is not older than 2 minutes. */
  synced: boolean;
}

/** GET /v1/bigmap/{network}/{ptr} (only the fields the web app reads). */
export interface BigMapInfo {
  network: string;
  address: string;
  ptr: number;
  active_keys: number;
  total_keys: number;
}

/** Error body of every API error response. */
export interface ErrorBody {
  message: string;
}

/** Cumulative counters of a network (`stats` of GET /v1/stats items). */
export interface NetworkCounters {
  contracts_count: number;
  global_constants_count: number;
  operations_count: number;
}

/** GET /v1/stats item: a network's last block with its protocol constants (bcd-api.md §3.0 Block). */
export interface NetworkState {
  network: string;
  hash: string;
  level: number;
  chain_id: string;
  /** RFC 3339 time of the head block. */
  timestamp: string;
  protocol: string;
  cost_per_byte: number;
  hard_gas_limit_per_operation: number;
  hard_storage_limit_per_operation: number;
  time_between_blocks: number;
  stats: NetworkCounters | null;
}

/** GET /v1/stats/{network}/recently_called_contracts item. */
export interface RecentlyCalledContract {
  address: string;
  /** Not in the reference shape; kept when a server sends it, else looked up through the alias service. */
  alias: string | null;
  operations_count: number;
  last_action: string;
}

/** GET /v1/global_constants/{network} item. */
export interface GlobalConstantItem {
  address: string;
  timestamp: string;
  level: number;
  links_count: number;
}

/** GET /v1/global_constants/{network}/{address}. */
export interface GlobalConstant {
  address: string;
  timestamp: string;
  level: number;
  /** Michelson text of the constant. */
  code: string;
  /** Micheline of the constant (untrusted JSON). */
  value: unknown;
}

/** The fields of a Contract (bcd-api.md §3.0) that the discovery pages show. */
export interface ContractSummary {
  address: string;
  network: string;
  alias: string | null;
  manager: string | null;
  timestamp: string;
  last_action: string | null;
  tags: string[];
}
