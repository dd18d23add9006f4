-- No read looks big-map diffs up by contract (key history goes by pointer and key hash, an operation's diffs
-- by operation id, the indexer's own reads by level), while each of the ~1,500 diffs of a dense block paid for
-- this index: ~25 % of the PostgreSQL CPU of inserting them (bench/RESULTS.md, indexer).
DROP INDEX IF EXISTS big_map_diffs_contract;
