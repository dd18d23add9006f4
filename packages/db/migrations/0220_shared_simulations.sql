-- Shared simulations (issue 20, capability 6): a simulation's input too long for a link's fragment, stored by
-- POST /v1/shares under a content-addressed id (the same state gives the same id: an insert of a known id does
-- nothing). Written by the API — the one table it writes (docs/ARCHITECTURE.md), never by the indexer, never
-- reverted by a reorg. Rows are never expired: GET /v1/shares lists them, newest first.
CREATE TABLE IF NOT EXISTS shared_simulations (
  id text PRIMARY KEY,
  network text NOT NULL,
  address text NOT NULL,
  entrypoint text NOT NULL,
  state jsonb NOT NULL,
  bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS shared_simulations_created ON shared_simulations (created_at DESC, id DESC);
