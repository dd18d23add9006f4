-- The script a contract had before an `update` migration (§6.12), so its code under an older protocol can still
-- be shown (`/contract/{network}/{address}/code?protocol=`). NULL for the other kinds, and for update rows
-- written before this column existed (their earlier script was not kept with them).
ALTER TABLE migrations ADD COLUMN prev_script_id bigint;
