-- Shared simulations private and bounded by what they cost (issue 34 item 3). No list any more (GET /v1/shares
-- is gone: a link's id is its secret), so the index by creation date goes. Each row keeps the bytes the database
-- stores for it (`stored_bytes`: the state's column as stored — compressed or moved out of line — with the
-- row's other columns, its header and its index entries; measured after the insert), which the store's bound
-- counts, and when it was last opened (`last_opened_at`, set at creation, renewed by GET /v1/shares/{id} at
-- most every ten minutes): past the bound the least recently opened rows are deleted. Rows stored before keep
-- the same measure (db/shares STORED_BYTES), and their creation date as last opened.
ALTER TABLE shared_simulations ADD COLUMN IF NOT EXISTS stored_bytes integer;
UPDATE shared_simulations
SET stored_bytes = pg_column_size(state) + octet_length(id) + octet_length(network) + octet_length(address)
  + octet_length(entrypoint) + 160
  + CASE WHEN pg_column_size(state) > 2000 THEN ceil(pg_column_size(state) / 1996.0)::integer * 60 ELSE 0 END
WHERE stored_bytes IS NULL;
ALTER TABLE shared_simulations ALTER COLUMN stored_bytes SET NOT NULL;
ALTER TABLE shared_simulations ADD COLUMN IF NOT EXISTS last_opened_at timestamptz;
UPDATE shared_simulations SET last_opened_at = created_at WHERE last_opened_at IS NULL;
ALTER TABLE shared_simulations ALTER COLUMN last_opened_at SET DEFAULT now();
ALTER TABLE shared_simulations ALTER COLUMN last_opened_at SET NOT NULL;
DROP INDEX IF EXISTS shared_simulations_created;
CREATE INDEX IF NOT EXISTS shared_simulations_opened ON shared_simulations (last_opened_at, id);
-- The stored bytes of new shared simulations per client (the request's address as the rate limiter sees it)
-- and clock hour: POST /v1/shares answers 429 past `ApiOptions.sharesClientBytesPerHour`. Rows of past hours
-- are deleted by the next write, so an address is kept an hour at most.
CREATE TABLE IF NOT EXISTS shared_simulation_quota (
  client text NOT NULL,
  hour timestamptz NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (client, hour)
);
