-- Storage diff between two levels (GET /contract/{network}/{address}/storage/diff/big_map/{ptr}): the keys of
-- a big map written in a level range are read by (network, ptr, level), so the read is proportional to the
-- changes between the two levels, not to the big map's history (big_map_diffs_ptr_key) nor to every
-- contract's diffs in the range (big_map_diffs_level). One more index for each inserted diff.
CREATE INDEX IF NOT EXISTS big_map_diffs_ptr_level ON big_map_diffs (network, ptr, level);
