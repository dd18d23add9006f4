-- Operation hashes are searched by prefix only (`hash LIKE 'oo…%'`: the search service, the operations tab's
-- search box). The trigram GIN index served that, but it adds ~50 trigram entries per stored operation: on a
-- dense chain it was ~40 % of the PostgreSQL CPU spent inserting operations (bench/RESULTS.md, indexer
-- "Where the index time goes"). A btree in pattern order serves a prefix LIKE with far less write work.
DROP INDEX IF EXISTS operations_hash_trgm;
CREATE INDEX operations_hash_prefix ON operations (hash text_pattern_ops);
