-- Chain data written by the indexer, one network per row (see packages/db/README.md "Tables").
-- Every row written for a block carries that block's `level` (or its first level), so that a reorg
-- deletes what the block created; rows a block changed but did not create are restored from `undo_log`.

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- Addresses seen on chain. type: account (tz…), contract (KT1…), smart_rollup (sr1…), rollup (txr1…), ghost
-- (a KT1 referenced without a known script). level = first level seen.
CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  address text NOT NULL,
  type text NOT NULL,
  level integer NOT NULL,
  last_action timestamptz NOT NULL,
  operations_count bigint NOT NULL DEFAULT 0,
  migrations_count bigint NOT NULL DEFAULT 0,
  events_count bigint NOT NULL DEFAULT 0,
  ticket_updates_count bigint NOT NULL DEFAULT 0,
  UNIQUE (network, address)
);
CREATE INDEX accounts_last_action ON accounts (network, type, last_action DESC);
CREATE INDEX accounts_level ON accounts (network, level);

-- Manager operations (and their internal operations, events, implicit operations) of every kind.
-- kind: transaction, origination, delegation, reveal, register_global_constant, transfer_ticket, event,
-- smart_rollup_originate, smart_rollup_execute_outbox_message, other smart_rollup_* and manager kinds as
-- the node names them. status: applied | backtracked | failed | skipped. hash NULL = implicit operation.
CREATE TABLE operations (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  protocol_id integer NOT NULL,
  hash text,
  counter bigint,
  content_index integer NOT NULL,
  nonce integer,
  internal boolean NOT NULL DEFAULT false,
  kind text NOT NULL,
  status text NOT NULL,
  source text,
  destination text,
  initiator text,
  delegate text,
  fee bigint NOT NULL DEFAULT 0,
  gas_limit bigint NOT NULL DEFAULT 0,
  storage_limit bigint NOT NULL DEFAULT 0,
  amount numeric NOT NULL DEFAULT 0,
  consumed_gas bigint NOT NULL DEFAULT 0,
  storage_size bigint NOT NULL DEFAULT 0,
  paid_storage_size_diff bigint NOT NULL DEFAULT 0,
  burned bigint NOT NULL DEFAULT 0,
  allocated_destination_contract_burned bigint NOT NULL DEFAULT 0,
  allocated_destination_contract boolean NOT NULL DEFAULT false,
  entrypoint text,
  tag text,
  tags integer NOT NULL DEFAULT 0,
  parameters jsonb,
  storage jsonb,
  payload jsonb,
  payload_type jsonb,
  errors jsonb,
  big_map_diffs_count integer NOT NULL DEFAULT 0,
  ticket_updates_count integer NOT NULL DEFAULT 0
);
CREATE INDEX operations_level ON operations (network, level);
CREATE INDEX operations_hash ON operations (network, hash, counter, content_index);
CREATE INDEX operations_source ON operations (network, source, id);
CREATE INDEX operations_destination ON operations (network, destination, id);
CREATE INDEX operations_destination_applied ON operations (network, destination, id) WHERE status = 'applied' AND storage IS NOT NULL;
CREATE INDEX operations_kind ON operations (network, kind, id);
CREATE INDEX operations_entrypoint ON operations (network, destination, entrypoint);
CREATE INDEX operations_hash_trgm ON operations USING gin (hash gin_trgm_ops);

-- Scripts stored once per network by hash (sha-256 hex of the code JSON, constants expanded).
CREATE TABLE scripts (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  hash text NOT NULL,
  level integer NOT NULL,
  code jsonb NOT NULL,
  parameter jsonb NOT NULL,
  storage jsonb NOT NULL,
  views jsonb NOT NULL DEFAULT '[]'::jsonb,
  entrypoints text[] NOT NULL DEFAULT '{}',
  fail_strings text[] NOT NULL DEFAULT '{}',
  annotations text[] NOT NULL DEFAULT '{}',
  hardcoded text[] NOT NULL DEFAULT '{}',
  constants text[] NOT NULL DEFAULT '{}',
  tags integer NOT NULL DEFAULT 0,
  UNIQUE (network, hash)
);
CREATE INDEX scripts_hash ON scripts (hash);
CREATE INDEX scripts_level ON scripts (network, level);

-- Contracts (KT1) with their current script; tags = script tags plus `delegator` (bit mask, §6.11).
CREATE TABLE contracts (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  address text NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  manager text,
  delegate text,
  script_id bigint NOT NULL REFERENCES scripts (id),
  script_hash text NOT NULL,
  tags integer NOT NULL DEFAULT 0,
  operation_id bigint,
  UNIQUE (network, address)
);
CREATE INDEX contracts_script ON contracts (script_id);
CREATE INDEX contracts_script_hash ON contracts (script_hash);
CREATE INDEX contracts_level ON contracts (network, level);
CREATE INDEX contracts_tags ON contracts (network, tags) WHERE tags <> 0;

CREATE TABLE global_constants (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  address text NOT NULL,
  value jsonb NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  operation_id bigint,
  UNIQUE (network, address)
);
CREATE INDEX global_constants_level ON global_constants (network, level);

-- Which global constants a script used (constants are expanded before hashing).
CREATE TABLE script_constants (
  network text NOT NULL,
  script_id bigint NOT NULL REFERENCES scripts (id) ON DELETE CASCADE,
  constant_address text NOT NULL,
  PRIMARY KEY (script_id, constant_address)
);
CREATE INDEX script_constants_address ON script_constants (network, constant_address);

-- Big maps (real pointers only) with their key/value types; removed_level set by a `remove` action.
CREATE TABLE big_maps (
  network text NOT NULL,
  ptr bigint NOT NULL,
  contract text NOT NULL,
  key_type jsonb NOT NULL,
  value_type jsonb NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  operation_id bigint,
  name text,
  PRIMARY KEY (network, ptr)
);
CREATE INDEX big_maps_contract ON big_maps (network, contract);

-- action: alloc | update | copy | remove; source_ptr NULL for a copy of a temporary big map.
CREATE TABLE big_map_actions (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  operation_id bigint NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  action text NOT NULL,
  source_ptr bigint,
  destination_ptr bigint,
  address text NOT NULL
);
CREATE INDEX big_map_actions_ptr ON big_map_actions (network, source_ptr);
CREATE INDEX big_map_actions_dst ON big_map_actions (network, destination_ptr);
CREATE INDEX big_map_actions_level ON big_map_actions (network, level);
CREATE INDEX big_map_actions_operation ON big_map_actions (operation_id);

-- One row per key update; value NULL = removal.
CREATE TABLE big_map_diffs (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  operation_id bigint NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  protocol_id integer NOT NULL,
  ptr bigint NOT NULL,
  contract text NOT NULL,
  key jsonb NOT NULL,
  key_hash text NOT NULL,
  value jsonb
);
CREATE INDEX big_map_diffs_ptr_key ON big_map_diffs (network, ptr, key_hash, id);
CREATE INDEX big_map_diffs_contract ON big_map_diffs (network, contract, ptr);
CREATE INDEX big_map_diffs_operation ON big_map_diffs (operation_id);
CREATE INDEX big_map_diffs_level ON big_map_diffs (network, level);

-- Current state per key; level = first level the key appeared (the row is deleted when that block is reverted).
CREATE TABLE big_map_states (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  ptr bigint NOT NULL,
  key_hash text NOT NULL,
  contract text NOT NULL,
  key jsonb NOT NULL,
  value jsonb,
  removed boolean NOT NULL DEFAULT false,
  last_update_level integer NOT NULL,
  last_update_time timestamptz NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  level integer NOT NULL,
  UNIQUE (network, ptr, key_hash)
);
CREATE INDEX big_map_states_contract ON big_map_states (network, contract);
CREATE INDEX big_map_states_update ON big_map_states (network, ptr, last_update_level DESC);
CREATE INDEX big_map_states_level ON big_map_states (network, level);

-- Tickets: hash = sha256 hex (content_type JSON ++ content JSON ++ ticketer).
CREATE TABLE tickets (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  hash text NOT NULL,
  ticketer text NOT NULL,
  content_type jsonb NOT NULL,
  content jsonb NOT NULL,
  level integer NOT NULL,
  updates_count bigint NOT NULL DEFAULT 0,
  UNIQUE (network, hash)
);
CREATE INDEX tickets_ticketer ON tickets (network, ticketer);

CREATE TABLE ticket_updates (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  operation_id bigint NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  ticket_id bigint NOT NULL,
  account text NOT NULL,
  amount numeric NOT NULL
);
CREATE INDEX ticket_updates_ticket ON ticket_updates (ticket_id, id);
CREATE INDEX ticket_updates_account ON ticket_updates (network, account, id);
CREATE INDEX ticket_updates_operation ON ticket_updates (operation_id);
CREATE INDEX ticket_updates_level ON ticket_updates (network, level);

CREATE TABLE ticket_balances (
  network text NOT NULL,
  ticket_id bigint NOT NULL,
  account text NOT NULL,
  amount numeric NOT NULL,
  level integer NOT NULL,
  PRIMARY KEY (network, ticket_id, account)
);
CREATE INDEX ticket_balances_account ON ticket_balances (network, account);

CREATE TABLE smart_rollups (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  address text NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  size bigint NOT NULL DEFAULT 0,
  genesis_commitment_hash text NOT NULL DEFAULT '',
  pvm_kind text NOT NULL DEFAULT '',
  kernel text NOT NULL DEFAULT '',
  type jsonb,
  operation_id bigint,
  UNIQUE (network, address)
);
CREATE INDEX smart_rollups_level ON smart_rollups (network, level);

-- kind: bootstrap | lambda | update. hash = operation group hash for lambda migrations.
CREATE TABLE migrations (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  level integer NOT NULL,
  timestamp timestamptz NOT NULL,
  protocol_id integer NOT NULL,
  prev_protocol_id integer,
  hash text,
  kind text NOT NULL,
  contract text NOT NULL,
  operation_id bigint
);
CREATE INDEX migrations_contract ON migrations (network, contract, level);
CREATE INDEX migrations_level ON migrations (network, level);

-- Daily series per network (UTC days), incremented per block like `stats`.
CREATE TABLE stats_daily (
  network text NOT NULL,
  day date NOT NULL,
  level integer NOT NULL,
  blocks bigint NOT NULL DEFAULT 0,
  operations bigint NOT NULL DEFAULT 0,
  contract_calls bigint NOT NULL DEFAULT 0,
  originations bigint NOT NULL DEFAULT 0,
  new_contracts bigint NOT NULL DEFAULT 0,
  events bigint NOT NULL DEFAULT 0,
  global_constants bigint NOT NULL DEFAULT 0,
  smart_rollups bigint NOT NULL DEFAULT 0,
  ticket_updates bigint NOT NULL DEFAULT 0,
  volume numeric NOT NULL DEFAULT 0,
  fees bigint NOT NULL DEFAULT 0,
  burned bigint NOT NULL DEFAULT 0,
  consumed_gas bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (network, day)
);

-- Search: one document per searchable object. kind: contract | global_constant | smart_rollup |
-- token | contract_metadata. key = address (or address:token_id). tsv over title + body; trigram on key/title.
CREATE TABLE search_documents (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  kind text NOT NULL,
  key text NOT NULL,
  level integer NOT NULL,
  title text NOT NULL DEFAULT '',
  body text NOT NULL DEFAULT '',
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || body)) STORED,
  UNIQUE (network, kind, key)
);
CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv);
CREATE INDEX search_documents_key_trgm ON search_documents USING gin (key gin_trgm_ops);
CREATE INDEX search_documents_title_trgm ON search_documents USING gin (title gin_trgm_ops);
CREATE INDEX search_documents_level ON search_documents (network, level);

-- TZIP-16 contract metadata and TZIP-12 token metadata, resolved in the background.
-- status: 1 pending, 2 failed (gave up), 3 resolved. level = level of the block that created the row.
CREATE TABLE contract_metadata (
  network text NOT NULL,
  address text NOT NULL,
  level integer NOT NULL,
  link text,
  status smallint NOT NULL DEFAULT 1,
  error text,
  retry_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  metadata jsonb,
  name text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, address)
);
CREATE INDEX contract_metadata_pending ON contract_metadata (status, next_attempt_at) WHERE status = 1;

CREATE TABLE token_metadata (
  network text NOT NULL,
  contract text NOT NULL,
  token_id numeric NOT NULL,
  level integer NOT NULL,
  link text,
  status smallint NOT NULL DEFAULT 1,
  error text,
  retry_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  token_info jsonb,
  metadata jsonb,
  name text,
  symbol text,
  decimals integer,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, contract, token_id)
);
CREATE INDEX token_metadata_pending ON token_metadata (status, next_attempt_at) WHERE status = 1;

-- Before-images of rows a block changed but did not create (restored when the block is reverted).
CREATE TABLE undo_log (
  id bigserial PRIMARY KEY,
  network text NOT NULL,
  level integer NOT NULL,
  tbl text NOT NULL,
  rows jsonb NOT NULL
);
CREATE INDEX undo_log_level ON undo_log (network, level);
