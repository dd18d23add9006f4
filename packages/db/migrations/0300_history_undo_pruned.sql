-- Backfilled blocks' before-images are kept only while a forward block that may still be reorganised (within
-- finality of the stored head) was written before them (db/write/undo.ts pruneBackfilled). undo_pruned_id is
-- the highest undo_log id of those dropped: a revert of a forward block written before it (its images' ids are
-- lower) would need images that are gone, and is refused instead of restoring rows without those blocks.
ALTER TABLE history_floor ADD COLUMN IF NOT EXISTS undo_pruned_id bigint NOT NULL DEFAULT 0;
