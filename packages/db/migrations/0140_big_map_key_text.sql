-- The readable text of a big-map key (addresses, key hashes, keys, signatures, chain ids in base58, timestamps
-- in RFC 3339: `Pair "tz1…" 1`), written by the indexer from the key and its type, so that the keys filter
-- of a big map matches what the page shows (prefixes of addresses, strings, numbers) rather than the packed
-- bytes of the stored key. NULL for keys indexed before this column or whose type is unknown: the filter
-- still matches their key JSON.
ALTER TABLE big_map_states ADD COLUMN key_text text;
