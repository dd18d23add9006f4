-- A big map's key counts, kept with its keys (issue 36 part 3): GET /v1/bigmap/{network}/{ptr}/count, the big
-- map's page and the contract's storage counted every row of big_map_states of the pointer, 1.8–3.3 s on a map of
-- 2,000,000 keys, holding the database while other pages waited. Per network, pointer and contract (a pointer's
-- keys are kept per contract, 0110): every key ever written (`total`, removed ones included, as the API counts
-- them) and those not removed (`active`).
--
-- Every writer of big_map_states keeps them: the indexer's upserts and COPY, a protocol migration re-pointing
-- rows, a reorg's deletes and restored before-images, an adopted history, tests and the benchmark's generator. So
-- the counts are kept by the table itself, with statement triggers over the rows each statement changed (one
-- grouped upsert a statement, not one a row); a statement that leaves the counts as they were (a key's new value,
-- its key text) writes nothing. Count rows are upserted in key order, so two writers never wait on each other in
-- opposite orders.
CREATE TABLE big_map_key_counts (
  network text NOT NULL,
  ptr bigint NOT NULL,
  contract text NOT NULL,
  total bigint NOT NULL,
  active bigint NOT NULL,
  PRIMARY KEY (network, ptr, contract)
);

INSERT INTO big_map_key_counts (network, ptr, contract, total, active)
SELECT network, ptr, contract, count(*), count(*) FILTER (WHERE NOT removed)
FROM big_map_states GROUP BY network, ptr, contract;

CREATE FUNCTION big_map_key_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO big_map_key_counts AS c (network, ptr, contract, total, active)
    SELECT network, ptr, contract, count(*), count(*) FILTER (WHERE NOT removed)
    FROM new_rows GROUP BY network, ptr, contract ORDER BY network, ptr, contract
    ON CONFLICT (network, ptr, contract) DO UPDATE
    SET total = c.total + excluded.total, active = c.active + excluded.active;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO big_map_key_counts AS c (network, ptr, contract, total, active)
    SELECT network, ptr, contract, -count(*), -count(*) FILTER (WHERE NOT removed)
    FROM old_rows GROUP BY network, ptr, contract ORDER BY network, ptr, contract
    ON CONFLICT (network, ptr, contract) DO UPDATE
    SET total = c.total + excluded.total, active = c.active + excluded.active;
  ELSE
    -- only the rows whose counted columns changed: a key's new value or key text changes no count
    INSERT INTO big_map_key_counts AS c (network, ptr, contract, total, active)
    SELECT network, ptr, contract, sum(total), sum(active)
    FROM (
      SELECT x.* FROM old_rows o JOIN new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.network, o.ptr, o.contract, -1, -(NOT o.removed)::int),
        (n.network, n.ptr, n.contract, 1, (NOT n.removed)::int)) AS x(network, ptr, contract, total, active)
      WHERE (o.network, o.ptr, o.contract, o.removed) IS DISTINCT FROM (n.network, n.ptr, n.contract, n.removed)
    ) d
    GROUP BY network, ptr, contract HAVING sum(total) <> 0 OR sum(active) <> 0 ORDER BY network, ptr, contract
    ON CONFLICT (network, ptr, contract) DO UPDATE
    SET total = c.total + excluded.total, active = c.active + excluded.active;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER big_map_key_counts_insert AFTER INSERT ON big_map_states
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION big_map_key_counts_changed();
CREATE TRIGGER big_map_key_counts_update AFTER UPDATE ON big_map_states
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION big_map_key_counts_changed();
CREATE TRIGGER big_map_key_counts_delete AFTER DELETE ON big_map_states
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION big_map_key_counts_changed();

CREATE FUNCTION big_map_key_counts_cleared() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM big_map_key_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER big_map_key_counts_truncate AFTER TRUNCATE ON big_map_states
  FOR EACH STATEMENT EXECUTE FUNCTION big_map_key_counts_cleared();
