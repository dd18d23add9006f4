-- Failed metadata rows (status 2) are retried after a long back-off (packages/indexer metadata resolver):
-- the resolver looks up the due ones like the pending ones (contract_metadata_pending, token_metadata_pending).
CREATE INDEX contract_metadata_failed ON contract_metadata (network, next_attempt_at) WHERE status = 2;
CREATE INDEX token_metadata_failed ON token_metadata (network, next_attempt_at) WHERE status = 2;
