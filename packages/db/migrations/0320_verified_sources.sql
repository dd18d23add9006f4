-- Verified source code (issue 38): the third table the API writes (after shared_simulations and watch rules).
-- One row per submission's content (id: sha256 hex of the canonical JSON of compiler, version, options, main
-- and the files sorted by name) and script hash: the same sources for the same script are compiled once
-- (idempotent), and contracts with the same script hash, in any network, share the result ("same contracts").
-- status: verified | failed; difference (JSON, api-types SourceDifference) and compiled (the compiled Michelson
-- text) only when failed; files: [{name, size, sha256}] (listed without reading the sources), contents: the
-- files' texts in the same order; source_map (api-types SourceMapEntry[]) only when verified.
CREATE TABLE IF NOT EXISTS verified_sources (
  id text NOT NULL,
  script_hash text NOT NULL,
  network text NOT NULL,
  address text NOT NULL,
  status text NOT NULL,
  compiler text NOT NULL,
  version text NOT NULL,
  options jsonb NOT NULL,
  main text NOT NULL,
  files jsonb NOT NULL,
  contents jsonb NOT NULL,
  source_map jsonb,
  difference jsonb,
  compiled text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, script_hash)
);
CREATE INDEX IF NOT EXISTS verified_sources_script ON verified_sources (script_hash, created_at);
