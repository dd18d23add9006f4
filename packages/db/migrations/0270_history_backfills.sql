-- The history of an adopted address (issue 32, part 2's consumer): the levels below the level it was read at
-- (address_requests.level) where a history source says it appears are read from the node and stored as whole
-- blocks through the indexer's write path, below the network's forward range. One row per address: the
-- source's cursor after the last page whose blocks are all stored (a restart resumes there; blocks already
-- stored are skipped), the levels covered of the range [from_level, to_level], the blocks written, and the
-- state: pending (waits for its turn) | running | done | failed (message; retried later).
CREATE TABLE IF NOT EXISTS history_backfills (
  network text NOT NULL,
  address text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  source text,
  cursor text,
  -- the ceiling: the level below the one the address was read at, and below the network's forward range
  to_level integer NOT NULL,
  -- the address's origin as the source knows it (null until asked)
  from_level integer,
  -- levels of [from_level, to_level] the walk has finished (each level where the address appears is stored)
  covered integer NOT NULL DEFAULT 0,
  -- blocks this backfill wrote (a block already stored is not counted)
  blocks integer NOT NULL DEFAULT 0,
  levels_found integer NOT NULL DEFAULT 0,
  message text,
  retry_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network, address)
);
CREATE INDEX IF NOT EXISTS history_backfills_open ON history_backfills (network, created_at) WHERE state IN ('pending', 'running', 'failed');
-- Per network, the lowest level of its forward range, fixed when its first backfill starts: backfilled
-- operations take ids (level - floor_level) * 2^20 + position - slot * 2^49 (negative below it), so ids still
-- sort by (level, position) across the two ranges, a block written twice gets the same ids, and two networks'
-- ids (one sequence, one primary key) never meet: each network has its own slot.
CREATE SEQUENCE IF NOT EXISTS history_floor_slot_seq MINVALUE 0 START 0;
CREATE TABLE IF NOT EXISTS history_floor (
  network text PRIMARY KEY,
  floor_level integer NOT NULL,
  slot integer NOT NULL DEFAULT nextval('history_floor_slot_seq')
);
