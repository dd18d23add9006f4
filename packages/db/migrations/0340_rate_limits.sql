-- The API's per-client request counts, shared by every API process on one PostgreSQL (issue 36 part 4): one row
-- per client key (the route's scope and the client's address) with its fixed window's end (ms since the epoch,
-- the database's clock) and the requests counted in it. UNLOGGED: a crash empties it, which only forgives the
-- windows then open; no WAL per request, and not copied to replicas (only the primary counts).
CREATE UNLOGGED TABLE IF NOT EXISTS rate_limits (
  key text PRIMARY KEY,
  window_end bigint NOT NULL,
  count integer NOT NULL
);
