-- search_suggest (0103) with several words: instead of intersecting each word's newest 500 documents, which
-- finds nothing when one word's newest documents are all of another kind ("plenty swap": the newest
-- "plenty" are 5,000 tokens, the "swap" are 500 contract names), each word's newest documents (at most
-- and_n) are checked for every word (the tsvector of the document) and the first n that hold them all are
-- candidates; a word alone no longer adds candidates then. Bounded as before: at most and_n documents
-- checked per word.
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
  -- with several words, each word alone gives no candidates: the words' documents checked below do
  one_n integer := CASE WHEN cardinality(words) > 0 THEN 0 ELSE n END;
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
      -- several words: each word's newest documents (at most and_n read) that hold every word, the first n
      (SELECT y.doc_id FROM unnest(words) w(word), LATERAL (
          SELECT t.doc_id FROM (SELECT t.doc_id FROM search_terms t WHERE t.term = w.word COLLATE "C"
              ORDER BY t.level DESC, t.doc_id DESC LIMIT and_n) t,
            LATERAL (SELECT 1 FROM search_documents m WHERE m.id = t.doc_id AND m.tsv @@ tsq_q) ok
          LIMIT n) y)
      UNION
      (SELECT t.doc_id FROM (SELECT t.doc_id FROM search_terms t
            WHERE t.term >= last_lo COLLATE "C" AND t.term < last_hi COLLATE "C" AND cardinality(words) > 0
            ORDER BY t.term, t.level DESC, t.doc_id DESC LIMIT and_n) t,
          LATERAL (SELECT 1 FROM search_documents m WHERE m.id = t.doc_id AND m.tsv @@ tsq_q) ok
        LIMIT n)
    )
    -- each candidate checked as /search matches (IS TRUE: a check, never a bitmap of every match)
    AND (d.key ILIKE like_prefix OR d.title ILIKE like_contains OR d.tsv @@ tsq_q) IS TRUE
    AND (nets IS NULL OR d.network = ANY (nets)) AND (kinds IS NULL OR d.kind = ANY (kinds))
  ORDER BY (lower(d.key) = key_lo) DESC, ts_rank(d.tsv, tsq_q) DESC NULLS LAST,
    similarity(d.title, q) DESC, d.level DESC, d.id DESC
  LIMIT size OFFSET skip;
END $$;
