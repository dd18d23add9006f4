-- A big map's keys are listed in chain order: the level a key first appeared at, newest first, then the order
-- in which the keys of one level were stored (issue 32). On a network indexed forward this is the id order it
-- replaces; on one whose history is backfilled below its forward floor, a key's state row is stored when the
-- backfill first writes it (after newer blocks, as its pages come), so id order alone put the backfilled keys
-- in another order than an index from genesis gives.
CREATE INDEX big_map_states_ptr_level_id ON big_map_states (network, ptr, level DESC, id DESC);
