-- Search ranking (issue 36 part 1).
--
-- A page is ranked first and read after: the ranking sorts each candidate's id and sort keys only, and the page's
-- texts (a body's first 2,000 characters, where the match was) are computed for the page's rows alone. PostgreSQL
-- computed every output column below the sort, for each of the 500 candidates of a broad word (the body read and
-- cut for each): 2.6 → 1.9 ms for a word's window at 10× mainnet; checking a candidate's words before its title's
-- ILIKE (a word's candidates all hold it): 1.9 → 1.5 ms.
--
-- /search's bounded ranking of an address-shaped query (searchDocuments' `boundedRanked`): the
-- same statement as a function with a generic plan. As a prepared statement PostgreSQL planned it at every call
-- (its generic plan, where to_tsquery and lower() of a parameter are computed per row, was costed higher): 1.0 ms
-- of planning for 0.2 ms of execution, about a third of the database's work for a search of an address or its
-- prefix. Here lower(q), the prefix's upper bound and the tsquery are computed once per call, and the plan is
-- the one a custom plan of such a query takes (a BitmapOr of the key range, the title's trigrams and the words).
-- Only for address-shaped queries (the caller checks): a short or common text is planned with its values, where a
-- generic plan would build the bitmap of every match.
--
-- q: the query; like_contains: `%q%` escaped for ILIKE; tsq: its to_tsquery text; nets / kinds: filters (null:
-- any); twins: a contract's `contract` document gives way to its matching `contract_metadata` twin; bound: at
-- most this many matches are counted and, when no more match, ranked; size / skip: the page. Returns the count
-- (`n`, up to bound + 1) with the page's documents, or one row with only `n` when more than `bound` match.
CREATE FUNCTION search_bounded(q text, like_contains text, tsq text, nets text[], kinds text[], twins boolean,
  bound integer, size integer, skip integer)
RETURNS TABLE (n bigint, network text, kind text, key text, title text, body text, level integer, matched text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
DECLARE
  -- a prefix p as the range [p, p || U+10FFFF) in byte order
  key_lo text := lower(q);
  key_hi text := lower(q) || chr(1114111);
  tsq_q tsquery := to_tsquery('simple', tsq);
BEGIN
  RETURN QUERY
  WITH m AS MATERIALIZED (
    SELECT d.id FROM search_documents d
    WHERE (lower(d.key) COLLATE "C" >= key_lo COLLATE "C" AND lower(d.key) COLLATE "C" < key_hi COLLATE "C"
        OR d.title ILIKE like_contains OR d.tsv @@ tsq_q)
      AND (nets IS NULL OR d.network = ANY (nets)) AND (kinds IS NULL OR d.kind = ANY (kinds))
      AND NOT (twins AND d.kind = 'contract' AND EXISTS (SELECT 1 FROM search_documents t
        WHERE t.network = d.network AND t.kind = 'contract_metadata' AND t.key = d.key
          AND (lower(t.key) COLLATE "C" >= key_lo COLLATE "C" AND lower(t.key) COLLATE "C" < key_hi COLLATE "C"
            OR t.title ILIKE like_contains OR t.tsv @@ tsq_q)))
    LIMIT bound + 1)
  SELECT c.n, p.* FROM (SELECT count(*) AS n FROM m) c
  LEFT JOIN LATERAL (
    SELECT d.network, d.kind, d.key, d.title, left(d.body, 2000), d.level,
      CASE WHEN lower(d.key) COLLATE "C" >= key_lo COLLATE "C" AND lower(d.key) COLLATE "C" < key_hi COLLATE "C"
        THEN 'key' WHEN d.title ILIKE like_contains THEN 'title' ELSE 'body' END
    FROM (SELECT x.id, lower(x.key) = key_lo AS exact, ts_rank(x.tsv, tsq_q) AS rnk, similarity(x.title, q) AS sim,
          x.level AS lvl
        FROM search_documents x JOIN m ON m.id = x.id
        WHERE c.n <= bound
        ORDER BY 2 DESC, 3 DESC, 4 DESC, 5 DESC, 1 DESC
        LIMIT size OFFSET skip) top
    JOIN search_documents d ON d.id = top.id
    ORDER BY top.exact DESC, top.rnk DESC, top.sim DESC, top.lvl DESC, top.id DESC) p ON TRUE;
END $$;

-- A suggestion's page (migration 0100), its page ranked first and read after (above).
CREATE OR REPLACE FUNCTION search_suggest_page(
  q text, like_prefix text, like_contains text, tsq text, words text[], last_word text, nets text[], kinds text[],
  n integer, and_n integer, size integer, skip integer,
  hashes text[], only_ptr bigint, active_only boolean, key_n integer
) RETURNS TABLE (src integer, network text, kind text, key text, title text, body text, level integer,
  matched text, ptr bigint, key_hash text, bkey jsonb, removed boolean, updated timestamptz, contract text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  -- a prefix p as the range [p, p || U+10FFFF) in byte order
  key_lo text := lower(q);
  key_hi text := lower(q) || chr(1114111);
  last_lo text := last_word;
  last_hi text := last_word || chr(1114111);
  tsq_q tsquery := to_tsquery('simple', tsq);
BEGIN
  IF cardinality(words) = 0 THEN
    RETURN QUERY
    SELECT 0, d.network, d.kind, d.key, d.title,
      CASE WHEN d.key ILIKE like_prefix OR d.title ILIKE like_contains THEN '' ELSE left(d.body, 2000) END,
      d.level,
      CASE WHEN d.key ILIKE like_prefix THEN 'key' WHEN d.title ILIKE like_contains THEN 'title' ELSE 'body' END,
      NULL::bigint, NULL::text, NULL::jsonb, NULL::boolean, NULL::timestamptz, NULL::text
    FROM (SELECT x.id, lower(x.key) = key_lo AS exact, ts_rank(x.tsv, tsq_q) AS rnk, similarity(x.title, q) AS sim,
        x.level AS lvl
      FROM search_documents x
      WHERE x.id IN (
        (SELECT k.id FROM search_documents k
          WHERE lower(k.key) COLLATE "C" >= key_lo COLLATE "C" AND lower(k.key) COLLATE "C" < key_hi COLLATE "C"
            AND (nets IS NULL OR k.network = ANY (nets)) AND (kinds IS NULL OR k.kind = ANY (kinds))
          ORDER BY lower(k.key) COLLATE "C" LIMIT n)
        UNION
        (SELECT t.doc_id FROM search_terms t
          WHERE t.term >= last_lo COLLATE "C" AND t.term < last_hi COLLATE "C"
            AND (nets IS NULL OR t.network = ANY (nets)) AND (kinds IS NULL OR t.kind = ANY (kinds))
          ORDER BY t.term, t.level DESC, t.doc_id DESC LIMIT n)
      )
      -- each candidate checked as /search matches (IS TRUE: a check, never a bitmap of every match); its words
      -- first: a word's candidates hold it, and the title's ILIKE is then not computed
      AND (x.tsv @@ tsq_q OR x.key ILIKE like_prefix OR x.title ILIKE like_contains) IS TRUE
      AND (nets IS NULL OR x.network = ANY (nets)) AND (kinds IS NULL OR x.kind = ANY (kinds))
      ORDER BY 2 DESC, 3 DESC NULLS LAST, 4 DESC, 5 DESC, 1 DESC
      LIMIT size OFFSET skip) top
    JOIN search_documents d ON d.id = top.id
    ORDER BY top.exact DESC, top.rnk DESC NULLS LAST, top.sim DESC, top.lvl DESC, top.id DESC;
  ELSE
    RETURN QUERY
    SELECT 0, d.network, d.kind, d.key, d.title,
      CASE WHEN d.key ILIKE like_prefix OR d.title ILIKE like_contains THEN '' ELSE left(d.body, 2000) END,
      d.level,
      CASE WHEN d.key ILIKE like_prefix THEN 'key' WHEN d.title ILIKE like_contains THEN 'title' ELSE 'body' END,
      NULL::bigint, NULL::text, NULL::jsonb, NULL::boolean, NULL::timestamptz, NULL::text
    FROM (SELECT x.id, lower(x.key) = key_lo AS exact, ts_rank(x.tsv, tsq_q) AS rnk, similarity(x.title, q) AS sim,
        x.level AS lvl
      FROM search_documents x
      WHERE x.id IN (
        (SELECT k.id FROM search_documents k
          WHERE lower(k.key) COLLATE "C" >= key_lo COLLATE "C" AND lower(k.key) COLLATE "C" < key_hi COLLATE "C"
            AND (nets IS NULL OR k.network = ANY (nets)) AND (kinds IS NULL OR k.kind = ANY (kinds))
          ORDER BY lower(k.key) COLLATE "C" LIMIT n)
        UNION
        -- each word's newest documents (at most and_n read) that hold every word, the first n
        (SELECT y.doc_id FROM unnest(words) w(word), LATERAL (
            SELECT t.doc_id FROM (SELECT t.doc_id FROM search_terms t WHERE t.term = w.word COLLATE "C"
                ORDER BY t.level DESC, t.doc_id DESC LIMIT and_n) t,
              LATERAL (SELECT 1 FROM search_documents m WHERE m.id = t.doc_id AND m.tsv @@ tsq_q) ok
            LIMIT n) y)
        UNION
        (SELECT t.doc_id FROM (SELECT t.doc_id FROM search_terms t
              WHERE t.term >= last_lo COLLATE "C" AND t.term < last_hi COLLATE "C"
              ORDER BY t.term, t.level DESC, t.doc_id DESC LIMIT and_n) t,
            LATERAL (SELECT 1 FROM search_documents m WHERE m.id = t.doc_id AND m.tsv @@ tsq_q) ok
          LIMIT n)
      )
      AND (x.tsv @@ tsq_q OR x.key ILIKE like_prefix OR x.title ILIKE like_contains) IS TRUE
      AND (nets IS NULL OR x.network = ANY (nets)) AND (kinds IS NULL OR x.kind = ANY (kinds))
      ORDER BY 2 DESC, 3 DESC NULLS LAST, 4 DESC, 5 DESC, 1 DESC
      LIMIT size OFFSET skip) top
    JOIN search_documents d ON d.id = top.id
    ORDER BY top.exact DESC, top.rnk DESC NULLS LAST, top.sim DESC, top.lvl DESC, top.id DESC;
  END IF;
  IF cardinality(hashes) > 0 THEN
    RETURN QUERY
    SELECT 1, s.network, NULL::text, NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, s.ptr,
      s.key_hash, s.key, s.removed, s.last_update_time, s.contract
    FROM big_map_states s
    WHERE s.key_hash = ANY (hashes) AND (nets IS NULL OR s.network = ANY (nets))
      AND (only_ptr IS NULL OR s.ptr = only_ptr) AND (NOT active_only OR NOT s.removed)
    ORDER BY s.id DESC LIMIT key_n;
  END IF;
END $$;
