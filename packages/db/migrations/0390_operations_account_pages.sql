-- An account's operation groups (GET /contract/{network}/{address}/opg, issue 36 part 1) read the account's rows
-- newest first from (network, source, id) and (network, destination, id), then each row from the table. A busy
-- contract's rows are spread over the whole table (one in ten rows for a contract with 1,000,000 operations of
-- 10,000,000), so a page reached deep by `last_id` read 20–40 table pages at random, from the disk when the
-- database is larger than the memory: 1.4–2.8 s p99 at 50 connections. These two indexes hold every column the
-- page reads, so the page is an index-only scan over a few adjacent index pages. They replace the two plain ones
-- (same keys: every other read by account and id still uses them).
CREATE INDEX operations_source_rows ON operations (network, source, id)
  INCLUDE (hash, counter, level, timestamp, content_index, status, kind, entrypoint, destination, amount,
    group_cost, group_internals);
CREATE INDEX operations_destination_rows ON operations (network, destination, id)
  INCLUDE (hash, counter, level, timestamp, content_index, status, kind, entrypoint, source, amount,
    group_cost, group_internals);
DROP INDEX IF EXISTS operations_source;
DROP INDEX IF EXISTS operations_destination;
