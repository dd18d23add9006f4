-- The calls of an entrypoint (searchEntrypointCalls, packages/db/src/read/search-operations.ts): how many (with
-- `counted`, up to `cap` per network) and one page of them (`skip`, `lim`), newest first over `nets`, top-level
-- and internal, with their statuses among `statuses` (null: any; then among each network's newest `cap` calls).
-- Every /search of a word or an address prefix asks (a name of up to 31 letters, digits, `_ . @` may be one),
-- and as two prepared statements each was planned again at every call. The count comes first, as a row whose
-- `total` is set (the others' is null). The entrypoint is a range of one value and the order names it: with `=`
-- the planner drops the column from the order and may walk the primary key backwards filtering every operation;
-- this order only the index `operations_entrypoint_search` has.
CREATE FUNCTION search_entrypoint_calls(nets text[], ep text, statuses text[], skip integer, lim integer,
  cap integer, counted boolean)
RETURNS TABLE (total bigint, network text, id bigint, hash text, counter bigint, level integer, ts timestamptz,
  kind text, status text, destination text, entrypoint text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  -- per network its newest calls (at most `cap` read with a status filter), those with a status in `statuses`
  IF counted THEN
    RETURN QUERY SELECT count(*), NULL::text, NULL::bigint, NULL::text, NULL::bigint, NULL::integer,
      NULL::timestamptz, NULL::text, NULL::text, NULL::text, NULL::text
    FROM unnest(nets) AS n(net) CROSS JOIN LATERAL (
      SELECT o.status FROM operations o
      WHERE o.network = n.net AND o.entrypoint >= ep AND o.entrypoint <= ep AND o.hash IS NOT NULL
      ORDER BY o.entrypoint DESC, o.id DESC LIMIT cap) w
    WHERE statuses IS NULL OR w.status = ANY (statuses);
  END IF;
  IF lim > 0 THEN
    RETURN QUERY SELECT NULL::bigint, o.network, o.id, o.hash, o.counter, o.level, o.timestamp, o.kind, o.status,
      o.destination, o.entrypoint
    FROM (SELECT c.id FROM unnest(nets) AS n(net) CROSS JOIN LATERAL (
        SELECT w.id FROM (SELECT o.id, o.status FROM operations o
          WHERE o.network = n.net AND o.entrypoint >= ep AND o.entrypoint <= ep AND o.hash IS NOT NULL
          ORDER BY o.entrypoint DESC, o.id DESC LIMIT CASE WHEN statuses IS NULL THEN skip + lim ELSE cap END) w
        WHERE statuses IS NULL OR w.status = ANY (statuses) ORDER BY w.id DESC LIMIT skip + lim) c
      ORDER BY c.id DESC OFFSET skip LIMIT lim) p
    JOIN operations o ON o.id = p.id
    ORDER BY o.id DESC;
  END IF;
END $$;
