-- The reads beside a search page's hits (packages/db/src/read/search-enrichment.ts: its accounts' names and
-- verified marks, its tokens' metadata) as plpgsql functions with generic plans (issue 36 part 1). As named
-- prepared statements PostgreSQL planned them again at every call (0.35–0.6 ms of Bind for 0.03–0.06 ms of
-- execution at 10× mainnet): the custom plan of a two-element `unnest` always looked cheaper than the generic
-- one, estimated at 100 elements, so the generic plan was never kept. Both plans are the same index lookups per
-- element; `plan_cache_mode = force_generic_plan` keeps the one (as migration 0100's suggestion reads do).
-- Every /search and suggestion calls the first; pages with tokens the second.

-- Per account (nets[i], addrs[i]): its TZIP-16 contract metadata name (null without one) and whether its script
-- hash has a verified source (any network's submission).
CREATE FUNCTION search_account_fields(nets text[], addrs text[])
RETURNS TABLE (network text, address text, metadata text, verified boolean)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  SELECT a.network, a.address,
    (SELECT c.name FROM contract_metadata c
      WHERE c.network = a.network AND c.address = a.address AND c.name IS NOT NULL),
    EXISTS (SELECT 1 FROM contracts k
      WHERE k.network = a.network AND k.address = a.address
        AND EXISTS (SELECT 1 FROM verified_sources v WHERE v.script_hash = k.script_hash AND v.status = 'verified'))
  FROM unnest(nets, addrs) AS a(network, address);
END $$;

-- The resolved metadata of the tokens (nets[i], contracts[i], ids[i]) that have one.
CREATE FUNCTION search_token_metadata(nets text[], contracts text[], ids numeric[])
RETURNS TABLE (network text, contract text, token_id text, metadata jsonb)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  SELECT t.network, t.contract, t.token_id::text, t.metadata
  FROM token_metadata t
  JOIN unnest(nets, contracts, ids) AS q(network, contract, token_id)
    ON t.network = q.network AND t.contract = q.contract AND t.token_id = q.token_id
  WHERE t.status = 3 AND t.metadata IS NOT NULL;
END $$;
