-- Suggestions (0100) as one function with generic plans: PostgreSQL parsed and planned the suggestion query
-- (a UNION of index ranges, the ranking) on every call, 0.5 ms for 0.2 ms of execution. A plpgsql function
-- prepares its query once per connection, and `plan_cache_mode = force_generic_plan` keeps that plan: the
-- prefixes are given as ranges (`>= lo AND < hi`), which a generic plan turns into index bounds (a `LIKE`
-- pattern only becomes one when its value is known at planning).
--
-- q: the query; like_prefix / like_contains: LIKE patterns of the query (escaped) for `key ILIKE` and
-- `title ILIKE`; tsq: the to_tsquery text (null without words); words: the words before the last, each
-- matched whole; last_word: the last word, matched as a prefix (null without words); nets / kinds: filters
-- (null: any); n: candidates per strategy; and_n: per word, the newest documents intersected when there
-- are several words; size / skip: the page. The semantics: searchDocuments (packages/db/src/read/search.ts).
CREATE FUNCTION search_suggest(
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
      (SELECT y.doc_id FROM (
          SELECT x.doc_id FROM unnest(words) w(word), LATERAL (
            SELECT t.doc_id FROM search_terms t
            WHERE t.term = w.word COLLATE "C"
              AND (nets IS NULL OR t.network = ANY (nets)) AND (kinds IS NULL OR t.kind = ANY (kinds))
            ORDER BY t.level DESC, t.doc_id DESC LIMIT and_n) x
          UNION ALL
          -- distinct: a document may hold several words with this prefix
          SELECT DISTINCT p.doc_id FROM (SELECT t.doc_id FROM search_terms t
            WHERE t.term >= last_lo COLLATE "C" AND t.term < last_hi COLLATE "C"
              AND (nets IS NULL OR t.network = ANY (nets)) AND (kinds IS NULL OR t.kind = ANY (kinds))
            ORDER BY t.term, t.level DESC, t.doc_id DESC LIMIT and_n) p
        ) y
        WHERE cardinality(words) > 0
        GROUP BY y.doc_id HAVING count(*) = cardinality(words) + 1
        ORDER BY y.doc_id DESC LIMIT n)
    )
    -- each candidate checked as /search matches (IS TRUE: a check, never a bitmap of every match)
    AND (d.key ILIKE like_prefix OR d.title ILIKE like_contains OR d.tsv @@ to_tsquery('simple', tsq)) IS TRUE
    AND (nets IS NULL OR d.network = ANY (nets)) AND (kinds IS NULL OR d.kind = ANY (kinds))
  ORDER BY (lower(d.key) = lower(q)) DESC, ts_rank(d.tsv, to_tsquery('simple', tsq)) DESC NULLS LAST,
    similarity(d.title, q) DESC, d.level DESC, d.id DESC
  LIMIT size OFFSET skip;
END $$;
