-- Big-map keys of a search by key hash (searchBigMapKeys, packages/db/src/read/search.ts) as a function with a
-- generic plan, as search_suggest (0101): every suggestion runs it, and planning the query cost more than the
-- index lookup (big_map_states_key_hash, 0090). hashes: the key hashes; nets: networks (null: any); only_ptr:
-- one big map (null: any); active_only: without removed keys; n: at most this many, newest first.
CREATE FUNCTION search_big_map_keys(hashes text[], nets text[], only_ptr bigint, active_only boolean, n integer)
RETURNS TABLE (network text, ptr bigint, key_hash text, key jsonb, removed boolean, last_update_time timestamptz,
  contract text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  SELECT s.network, s.ptr, s.key_hash, s.key, s.removed, s.last_update_time, s.contract
  FROM big_map_states s
  WHERE s.key_hash = ANY (hashes) AND (nets IS NULL OR s.network = ANY (nets))
    AND (only_ptr IS NULL OR s.ptr = only_ptr) AND (NOT active_only OR NOT s.removed)
  ORDER BY s.id DESC LIMIT n;
END $$;
