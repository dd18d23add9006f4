-- Backfilled blocks reverted with a forward block written before them (their before-images came after its):
-- stored again by the backfill.
CREATE TABLE IF NOT EXISTS history_redo (
  network text NOT NULL,
  level integer NOT NULL,
  PRIMARY KEY (network, level)
);
