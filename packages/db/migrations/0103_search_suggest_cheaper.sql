-- search_suggest (0101) again, cheaper per call (measured with 1,000 calls in one session on bench/api-data's
-- 75,000 documents): the tsquery and lower(q) are computed once instead of for every candidate (in a generic
-- plan a function of a parameter is not constant-folded), and the windows intersected for several words
-- (500 rows per word) are no longer filtered row by row by network and kind: the intersection is, with the
-- other candidates. Same answers except that with a network or kind filter, several words intersect their
-- newest documents of every network and kind.
CREATE OR REPLACE FUNCTION search_suggest(
  q text, like_prefix text, like_contains text, tsq text, words text[], last_word text, nets text[], kinds text[],
  n integer, and_n integer, size integer, skip integer
) RETURNS TABLE (network text, kind text, key text, title text, body text, level integer, matched text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  -- a prefix p as the range [p, p || U+10FFFF) in byte order
  key_lo text := lower(q);
  key_hi text := lower(q) || chr(1114111);
  last_lo text := last_word;
  last_hi text := last_word || chr(1114111);
  -- with several words, each word alone adds a few candidates only (most lack the other words)
  one_n integer := CASE WHEN cardinality(words) > 0 THEN greatest(n / 5, 1) ELSE n END;
  -- computed once, not for every candidate (a parameter of the generic plan is not constant-folded)
  tsq_q tsquery := to_tsquery('simple', tsq);
BEGIN
  RETURN QUERY
  SELECT d.network, d.kind, d.key, d.title, left(d.body, 2000), d.level,
    CASE WHEN d.key ILIKE like_prefix THEN 'key' WHEN d.title ILIKE like_contains THEN 'title' ELSE 'body' END
  FROM search_documents d
  WHERE d.id IN (
      (SELECT k.id FROM search_documents k
        WHERE lower(k.key) COLLATE "C" >= key_lo COLLATE "C" AND lower(k.key) COLLATE "C" < key_hi COLLATE "C"
          AND (nets IS NULL OR k.network = ANY (nets)) AND (kinds IS NULL OR k.kind = ANY (kinds))
        ORDER BY lower(k.key) COLLATE "C" LIMIT n)
      UNION
      (SELECT x.doc_id FROM unnest(words) w(word), LATERAL (
          SELECT t.doc_id FROM search_terms t
          WHERE t.term = w.word COLLATE "C"
            AND (nets IS NULL OR t.network = ANY (nets)) AND (kinds IS NULL OR t.kind = ANY (kinds))
          ORDER BY t.level DESC, t.doc_id DESC LIMIT one_n) x)
      UNION
      (SELECT t.doc_id FROM search_terms t
        WHERE t.term >= last_lo COLLATE "C" AND t.term < last_hi COLLATE "C"
          AND (nets IS NULL OR t.network = ANY (nets)) AND (kinds IS NULL OR t.kind = ANY (kinds))
        ORDER BY t.term, t.level DESC, t.doc_id DESC LIMIT one_n)
      UNION
      -- (the filters apply to the intersection: a test per row of 500-row windows cost more than the rest)
      (SELECT y.doc_id FROM (
          SELECT x.doc_id FROM unnest(words) w(word), LATERAL (
            SELECT t.doc_id FROM search_terms t
            WHERE t.term = w.word COLLATE "C"
            ORDER BY t.level DESC, t.doc_id DESC LIMIT and_n) x
          UNION ALL
          -- distinct: a document may hold several words with this prefix
          SELECT DISTINCT p.doc_id FROM (SELECT t.doc_id FROM search_terms t
            WHERE t.term >= last_lo COLLATE "C" AND t.term < last_hi COLLATE "C"
            ORDER BY t.term, t.level DESC, t.doc_id DESC LIMIT and_n) p
        ) y
        WHERE cardinality(words) > 0
        GROUP BY y.doc_id HAVING count(*) = cardinality(words) + 1
        ORDER BY y.doc_id DESC LIMIT n)
    )
    -- each candidate checked as /search matches (IS TRUE: a check, never a bitmap of every match)
    AND (d.key ILIKE like_prefix OR d.title ILIKE like_contains OR d.tsv @@ tsq_q) IS TRUE
    AND (nets IS NULL OR d.network = ANY (nets)) AND (kinds IS NULL OR d.kind = ANY (kinds))
  ORDER BY (lower(d.key) = key_lo) DESC, ts_rank(d.tsv, tsq_q) DESC NULLS LAST,
    similarity(d.title, q) DESC, d.level DESC, d.id DESC
  LIMIT size OFFSET skip;
END $$;

-- A suggestion's documents (search_suggest) and big-map keys (search_big_map_keys, 0102) from one call: the
-- client's statement is then a single function call, cheaper to parse and plan on every request than the
-- UNION ALL of the two (0.30–0.40 ms of backend CPU per call instead of 0.45–0.52). src 0: a document
-- (network … matched), src 1: a key (network, ptr … contract).
CREATE FUNCTION search_suggest_page(
  q text, like_prefix text, like_contains text, tsq text, words text[], last_word text, nets text[], kinds text[],
  n integer, and_n integer, size integer, skip integer,
  hashes text[], only_ptr bigint, active_only boolean, key_n integer
) RETURNS TABLE (src integer, network text, kind text, key text, title text, body text, level integer,
  matched text, ptr bigint, key_hash text, bkey jsonb, removed boolean, updated timestamptz, contract text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY
  SELECT 0, s.network, s.kind, s.key, s.title, s.body, s.level, s.matched, NULL::bigint, NULL::text, NULL::jsonb,
    NULL::boolean, NULL::timestamptz, NULL::text
  FROM search_suggest(q, like_prefix, like_contains, tsq, words, last_word, nets, kinds, n, and_n, size, skip) s;
  IF cardinality(hashes) > 0 THEN
    RETURN QUERY
    SELECT 1, b.network, NULL::text, NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, b.ptr,
      b.key_hash, b.key, b.removed, b.last_update_time, b.contract
    FROM search_big_map_keys(hashes, nets, only_ptr, active_only, key_n) b;
  END IF;
END $$;
