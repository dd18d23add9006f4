-- Watch rules and their webhook deliveries (issue 39 part 1): the second table set the API writes (after
-- shared_simulations). A rule names a network, a target address (a contract or any account), its condition
-- (JSON, api-types WatchCondition), the webhook URL and the per-rule secret that signs each delivery. The
-- management token printed at creation is never stored: only its SHA-256 (hex), which finds its rules.
CREATE TABLE IF NOT EXISTS watch_rules (
  id text PRIMARY KEY,
  network text NOT NULL,
  address text NOT NULL,
  condition jsonb NOT NULL,
  url text NOT NULL,
  secret text NOT NULL,
  token_hash text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS watch_rules_token ON watch_rules (token_hash, created_at);
CREATE INDEX IF NOT EXISTS watch_rules_target ON watch_rules (network, address) WHERE enabled;
-- One row per matching fact and rule, written before the first attempt (at-least-once): the idempotency key is
-- unique per rule, so API processes evaluating the same block create it once (INSERT … ON CONFLICT DO NOTHING).
-- status: pending (next_attempt_at: when it is due; a claimed row's lease) | delivered | failed (given up).
CREATE TABLE IF NOT EXISTS watch_deliveries (
  id bigserial PRIMARY KEY,
  rule_id text NOT NULL REFERENCES watch_rules (id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  level integer NOT NULL,
  operation_hash text,
  body jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status_code integer,
  last_error text,
  latency_ms integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (rule_id, idempotency_key)
);
CREATE INDEX IF NOT EXISTS watch_deliveries_due ON watch_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS watch_deliveries_rule ON watch_deliveries (rule_id, id);
