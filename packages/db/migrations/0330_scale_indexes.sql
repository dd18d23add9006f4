-- Mainnet-sized data (issue 36, bench/RESULTS.md "Mainnet-sized data"): the keys filter of a big map
-- (`GET /v1/bigmap/…/keys?search=`, its export, the search's key listing) as index reads. The filter matches
-- a key hash, or the readable key text (`key_text`), or the key JSON of keys whose text is unknown; with no
-- index for the text arms, a rare match walked the whole big map (a 2,000,000-key map: seconds a request).
-- Trigrams of the key text, and of the key JSON only where the text is null (keys indexed before 0140 or of
-- an unknown type: a small index on data the indexer writes today). Cheap on an empty database.
CREATE INDEX big_map_states_key_text_trgm ON big_map_states USING gin (key_text gin_trgm_ops);
CREATE INDEX big_map_states_key_json_trgm ON big_map_states USING gin ((key::text) gin_trgm_ops) WHERE key_text IS NULL;
