/**
 * @michelscope/api-types — the shapes of the Michelscope API (Better Call Dev compatible), defined once as
 * TypeBox schemas. The API validates and serialises with them and builds its OpenAPI document from them;
 * the web app imports the `Static` types only (`import type { Head } from '@michelscope/api-types'`).
 */
import { Type, type Static } from '@sinclair/typebox';

import { HeadSyncFields, NetworkName, PartFailure, SYNC_GAP_LEVELS, Timestamp } from './common';

export { HeadSyncFields, NetworkName, PartFailure, SYNC_GAP_LEVELS, Timestamp };
export * from './explorer';
export * from './services';
export * from './debugger';
export * from './time-travel';
export * from './whatif';
export * from './live';
export * from './exports';
export * from './share';
export * from './workspace';
export * from './metadata';
export * from './flow';
export * from './security';
export * from './helpers';
export * from './health';
export * from './watch';
export * from './verify';

/**
 * Every error answer of the API: `{"message": …}`; a 5xx also names its request (`request_id`, as every
 * answer's `x-request-id` header does: the id of the server's log line about it).
 */
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    request_id: Type.Optional(
      Type.String({ description: "5xx only: the request's id (x-request-id), as the server logged it" }),
    ),
  },
  { title: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** Per-network details the web needs beyond the reference ConfigResponse (Michelscope extension). */
export const NetworkInfo = Type.Object(
  {
    name: Type.String(),
    rpc_endpoint: Type.String({ description: 'Node RPC URL for browsers' }),
    stats_enabled: Type.Boolean({ description: 'Whether a statistics service exists (Statistics tab)' }),
    explorer_url: Type.Optional(Type.String({ description: 'External block explorer' })),
  },
  { title: 'NetworkInfo' },
);
export type NetworkInfo = Static<typeof NetworkInfo>;

/** `GET /v1/config`. */
export const ConfigResponse = Type.Object(
  {
    networks: Type.Array(Type.String(), { description: 'mainnet first, then the others by name descending' }),
    rpc_endpoints: Type.Record(Type.String(), Type.String(), {
      description: 'network → public node RPC URL',
    }),
    sentry_dsn: Type.String(),
    oauth_enabled: Type.Boolean({ description: 'always false' }),
    ga_enabled: Type.Boolean(),
    sandbox_mode: Type.Boolean(),
    mempool_enabled: Type.Boolean(),
    ipfs_gateway: Type.String({
      description:
        'IPFS gateway for token images and ipfs:// links: `{ipfs_gateway}/{cid}` (e.g. https://ipfs.io/ipfs)',
    }),
    network_info: Type.Array(NetworkInfo, { description: 'Michelscope extension: same order as `networks`' }),
  },
  { title: 'ConfigResponse' },
);
export type ConfigResponse = Static<typeof ConfigResponse>;

/** `GET /v1/head` items and `GET /v1/head/{network}`. */
/** A network's history backfills (issue 32): the adopted addresses whose past is read below its forward floor. */
export const BackfillSummary = Type.Object(
  {
    pending: Type.Integer({ minimum: 0, description: 'addresses waiting for their turn' }),
    running: Type.Integer({ minimum: 0, description: 'addresses being backfilled' }),
    done: Type.Integer({ minimum: 0, description: 'addresses whose history is complete' }),
    failed: Type.Integer({
      minimum: 0,
      description: 'addresses whose backfill failed (retried later; its message says why)',
    }),
    levels_done: Type.Integer({
      minimum: 0,
      description: 'levels the backfills have covered, summed over the addresses',
    }),
    levels_total: Type.Integer({
      minimum: 0,
      description:
        "levels the backfills cover in all, summed over the addresses: from each address's origin (every level below its ceiling while the origin is unknown) to its ceiling",
    }),
  },
  {
    title: 'BackfillSummary',
    description: 'Michelscope extension: absent when the network has no history backfill',
  },
);
export type BackfillSummary = Static<typeof BackfillSummary>;

export const Head = Type.Object(
  {
    network: Type.String(),
    level: Type.Integer(),
    time: Timestamp,
    protocol: Type.String({ description: 'protocol hash; empty when nothing is indexed yet' }),
    ...HeadSyncFields,
    backfill: Type.Optional(BackfillSummary),
  },
  { title: 'Head' },
);
export type Head = Static<typeof Head>;

/** Cumulative counters of a network (`stats` of a Block). */
export const BlockStats = Type.Object(
  {
    contracts_count: Type.Integer(),
    smart_rollups_count: Type.Integer(),
    global_constants_count: Type.Integer(),
    operations_count: Type.Integer(),
    events_count: Type.Integer(),
    tx_count: Type.Integer(),
    originations_count: Type.Integer(),
    sr_originations_count: Type.Integer(),
    sr_executes_count: Type.Integer(),
    register_global_constants_count: Type.Integer(),
    transfer_tickets_count: Type.Integer(),
  },
  { title: 'BlockStats' },
);
export type BlockStats = Static<typeof BlockStats>;

/** A block with its protocol constants (`GET /v1/stats` items, with `stats`). */
export const Block = Type.Object(
  {
    network: Type.String(),
    hash: Type.String(),
    level: Type.Integer(),
    predecessor: Type.String(),
    chain_id: Type.String(),
    timestamp: Timestamp,
    protocol: Type.String(),
    cost_per_byte: Type.Integer(),
    hard_gas_limit_per_operation: Type.Integer(),
    hard_storage_limit_per_operation: Type.Integer(),
    time_between_blocks: Type.Integer(),
    stats: Type.Optional(BlockStats),
  },
  { title: 'Block' },
);
export type Block = Static<typeof Block>;

export const HeadList = Type.Array(Head);
export type HeadList = Static<typeof HeadList>;
export const StatsResponse = Type.Array(Block);
export type StatsResponse = Static<typeof StatsResponse>;

/** The zero time of the reference API (Go's zero `time.Time`). */
export const ZERO_TIME = '0001-01-01T00:00:00Z';
