-- An operation's Micheline and node JSON (parameters, storage, payload and its type, errors) is only stored
-- and returned whole: no SQL reads into it. As json (the text, checked) instead of jsonb (parsed into a tree)
-- PostgreSQL no longer builds a tree of ~1 MB of Micheline per dense block: ~25 % less server CPU for the
-- operations COPY (bench/RESULTS.md, indexer). Readers get the same values (key order as the node gave it).
ALTER TABLE operations
  ALTER COLUMN parameters TYPE json USING parameters::json,
  ALTER COLUMN storage TYPE json USING storage::json,
  ALTER COLUMN payload TYPE json USING payload::json,
  ALTER COLUMN payload_type TYPE json USING payload_type::json,
  ALTER COLUMN errors TYPE json USING errors::json;
