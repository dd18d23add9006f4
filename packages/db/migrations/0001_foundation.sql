-- Foundation: protocols, blocks, indexer head state and per-network counters.
CREATE TABLE protocols (
  id serial PRIMARY KEY,
  network text NOT NULL,
  hash text NOT NULL,
  start_level integer NOT NULL,
  end_level integer,
  chain_id text NOT NULL,
  cost_per_byte bigint NOT NULL DEFAULT 0,
  hard_gas_limit_per_operation bigint NOT NULL DEFAULT 0,
  hard_storage_limit_per_operation bigint NOT NULL DEFAULT 0,
  time_between_blocks integer NOT NULL DEFAULT 0,
  constants jsonb NOT NULL DEFAULT '{}'::jsonb,
  UNIQUE (network, hash)
);

CREATE TABLE blocks (
  network text NOT NULL,
  level integer NOT NULL,
  hash text NOT NULL,
  predecessor text NOT NULL,
  timestamp timestamptz NOT NULL,
  protocol_id integer NOT NULL REFERENCES protocols (id),
  chain_id text NOT NULL,
  PRIMARY KEY (network, level)
);
CREATE UNIQUE INDEX blocks_network_hash ON blocks (network, hash);

-- Where each network's indexer stands; written in the same transaction as the block.
CREATE TABLE indexer_state (
  network text PRIMARY KEY,
  level integer NOT NULL,
  hash text NOT NULL,
  timestamp timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Cumulative counters per network (the `stats` object of GET /v1/stats).
CREATE TABLE stats (
  network text PRIMARY KEY,
  contracts_count bigint NOT NULL DEFAULT 0,
  smart_rollups_count bigint NOT NULL DEFAULT 0,
  global_constants_count bigint NOT NULL DEFAULT 0,
  operations_count bigint NOT NULL DEFAULT 0,
  events_count bigint NOT NULL DEFAULT 0,
  tx_count bigint NOT NULL DEFAULT 0,
  originations_count bigint NOT NULL DEFAULT 0,
  sr_originations_count bigint NOT NULL DEFAULT 0,
  sr_executes_count bigint NOT NULL DEFAULT 0,
  register_global_constants_count bigint NOT NULL DEFAULT 0,
  transfer_tickets_count bigint NOT NULL DEFAULT 0
);
