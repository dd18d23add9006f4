-- Indexes for API reads measured with bench/api-load.ts (issue 7; query plans in bench/RESULTS.md "API").
-- Numbered after the chain-data migration: a fresh database applies migrations in name order and these
-- index tables that 0010 creates.

-- GET /v1/bigmap/{network}/{ptr}/keys lists a big map's keys newest first (ORDER BY id DESC): without this,
-- a big map with many keys was read whole and sorted for every page.
CREATE INDEX big_map_states_ptr_id ON big_map_states (network, ptr, id);

-- Search (suggest/search) looks big-map keys up by key hash across every big map and network.
CREATE INDEX big_map_states_key_hash ON big_map_states (key_hash);
