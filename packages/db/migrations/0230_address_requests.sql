-- Addresses asked for that the index did not hold (issue 32, capability 1): a page or an API call named an
-- address of a network indexed from a later level than its origination. The API inserts a row (pending); the
-- network's indexer reads what its node knows of the address at its stored head and writes it through its
-- write path (the contract, its script, account and big-map pointers, level = that head), then sets the row's
-- state: adopted (level = the level read), unknown (the node does not know the address at level), failed
-- (message). A revert of the level an adoption was read at deletes what it wrote and puts the row back to
-- pending. The API is the one writer of new rows, the indexer the one writer of their state.
CREATE TABLE IF NOT EXISTS address_requests (
  network text NOT NULL,
  address text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  level integer,
  message text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, address)
);
CREATE INDEX IF NOT EXISTS address_requests_pending ON address_requests (network, requested_at) WHERE state = 'pending';
