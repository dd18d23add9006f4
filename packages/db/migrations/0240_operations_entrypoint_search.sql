-- The search service finds the calls of an entrypoint by its name ("transfer", "increment"; issue 33): per
-- network, the newest calls first, a page at a time. The index `operations_entrypoint` (network, destination,
-- entrypoint) needs the destination; this one reads one network's calls of one entrypoint newest first, cut by
-- the page's LIMIT, and counts them (up to the search's cap) from the index alone (status included for the
-- status filter). Only operations that call an entrypoint and belong to a group are in it.
CREATE INDEX operations_entrypoint_search ON operations (network, entrypoint, id) INCLUDE (status)
  WHERE entrypoint IS NOT NULL AND hash IS NOT NULL;
