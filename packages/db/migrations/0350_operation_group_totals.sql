-- A group's totals on each of its rows (issue 36 part 1): the fees and burns of the operation group (hash and
-- counter; protocol-made rows: level and counter) and its internal operations, over the rows the API counts
-- (not attestations). The indexer writes a group's rows together, so it knows them at the write: the account
-- operation-group page (GET /contract/{network}/{address}/opg) reads them with the account's own rows instead of
-- looking every group up again by hash. Rows written before this migration have NULL, and the page sums their
-- group as before. Adding nullable columns without a default rewrites nothing.
ALTER TABLE operations ADD COLUMN IF NOT EXISTS group_cost bigint, ADD COLUMN IF NOT EXISTS group_internals integer;
