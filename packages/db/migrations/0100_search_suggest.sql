-- Bounded suggestions (POST /search/v1/suggest, issue 7; plans and figures in bench/RESULTS.md "API"):
-- every strategy of a suggestion reads an index range cut by a LIMIT, never every match of a broad query.
-- (Migrations 0101–0104 of the unreleased work are folded into this one.)

-- Key prefixes (addresses, address:token_id, expr… hashes), case-insensitive as `key ILIKE 'q%'`: a btree
-- range in byte order. The trigram index answered "KT1…" by reading the posting lists of trigrams that every
-- key holds ("kt1"): 3.5 ms for a 10-character prefix on 75,000 documents.
CREATE INDEX search_documents_key_lower ON search_documents ((lower(key) COLLATE "C"));

-- The words of each document (the lexemes of its tsvector), one row per word, kept by the trigger below: a
-- word's newest documents are an index range (`term = w ORDER BY level DESC LIMIT n`) and a word prefix the
-- first entries of a range in term order. The tsvector's GIN index returns every match of a word as a
-- bitmap (20,000 documents for "transfer", 70,000 for "t:*"), which suggestions can no longer afford.
CREATE TABLE search_terms (
  doc_id bigint NOT NULL,
  network text NOT NULL,
  kind text NOT NULL,
  level integer NOT NULL,
  term text COLLATE "C" NOT NULL
);
CREATE INDEX search_terms_term ON search_terms (term, level DESC, doc_id DESC) INCLUDE (network, kind);
CREATE INDEX search_terms_doc ON search_terms (doc_id);

CREATE FUNCTION search_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM search_terms WHERE doc_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO search_terms (doc_id, network, kind, level, term)
    SELECT NEW.id, NEW.network, NEW.kind, NEW.level, w FROM unnest(tsvector_to_array(NEW.tsv)) w;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION search_terms_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE search_terms;
  RETURN NULL;
END $$;

CREATE TRIGGER search_terms_sync AFTER INSERT OR DELETE OR UPDATE OF network, kind, level, title, body
  ON search_documents FOR EACH ROW EXECUTE FUNCTION search_terms_sync();
CREATE TRIGGER search_terms_clear AFTER TRUNCATE ON search_documents
  FOR EACH STATEMENT EXECUTE FUNCTION search_terms_clear();

INSERT INTO search_terms (doc_id, network, kind, level, term)
  SELECT d.id, d.network, d.kind, d.level, w FROM search_documents d, unnest(tsvector_to_array(d.tsv)) w;

-- Suggestion reads as plpgsql functions with generic plans: PostgreSQL parsed and planned the suggestion query
-- (a UNION of index ranges, the ranking) on every call, 0.5 ms for 0.2 ms of execution. A plpgsql function
-- prepares each query once per connection, and `plan_cache_mode = force_generic_plan` keeps that plan: prefixes
-- are given as ranges (`>= lo AND < hi`), which a generic plan turns into index bounds (a `LIKE` pattern only
-- becomes one when its value is known at planning); the tsquery and lower(q) are computed once per call, not
-- per candidate (in a generic plan a function of a parameter is not constant-folded).

-- Big-map keys of a search by key hash (searchBigMapKeys, packages/db/src/read/search.ts). hashes: the key
-- hashes; nets: networks (null: any); only_ptr: one big map (null: any); active_only: without removed keys;
-- n: at most this many, newest first.
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

-- A suggestion (suggestReads): its documents (src 0: network … matched) and big-map keys (src 1: network, ptr …
-- contract) from one call, one round trip. The semantics: searchDocuments with rankWindow.
--
-- q: the query; like_prefix / like_contains: LIKE patterns of the query (escaped) for `key ILIKE` and
-- `title ILIKE`; tsq: the to_tsquery text (null without words); words: the words before the last, each
-- matched whole; last_word: the last word, matched as a prefix (null without words); nets / kinds: filters
-- (null: any); n: candidates per strategy; and_n: with several words, the newest documents of each word
-- checked for every word; size / skip: the page; hashes, only_ptr, active_only, key_n: the big-map keys
-- (search_big_map_keys; none when hashes is empty).
--
-- Candidates: keys by prefix (the first n in byte order: an exact key first) and, with one word, the word as a
-- prefix (its first n terms in byte order, each term newest first); with several words, instead of the
-- words alone, each word's newest documents (at most and_n read) that hold every word, the first n. The
-- candidates that match as /search matches are ranked as /search ranks. Each shape is its own query (one
-- plan each): a query's executor is set up whole at every call, and the branches of the other shape cost
-- as much to set up as to run. A document's body (for its highlight) only when the body is what matched.
CREATE FUNCTION search_suggest_page(
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
    FROM search_documents d
    WHERE d.id IN (
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
      -- each candidate checked as /search matches (IS TRUE: a check, never a bitmap of every match)
      AND (d.key ILIKE like_prefix OR d.title ILIKE like_contains OR d.tsv @@ tsq_q) IS TRUE
      AND (nets IS NULL OR d.network = ANY (nets)) AND (kinds IS NULL OR d.kind = ANY (kinds))
    ORDER BY (lower(d.key) = key_lo) DESC, ts_rank(d.tsv, tsq_q) DESC NULLS LAST,
      similarity(d.title, q) DESC, d.level DESC, d.id DESC
    LIMIT size OFFSET skip;
  ELSE
    RETURN QUERY
    SELECT 0, d.network, d.kind, d.key, d.title,
      CASE WHEN d.key ILIKE like_prefix OR d.title ILIKE like_contains THEN '' ELSE left(d.body, 2000) END,
      d.level,
      CASE WHEN d.key ILIKE like_prefix THEN 'key' WHEN d.title ILIKE like_contains THEN 'title' ELSE 'body' END,
      NULL::bigint, NULL::text, NULL::jsonb, NULL::boolean, NULL::timestamptz, NULL::text
    FROM search_documents d
    WHERE d.id IN (
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
      AND (d.key ILIKE like_prefix OR d.title ILIKE like_contains OR d.tsv @@ tsq_q) IS TRUE
      AND (nets IS NULL OR d.network = ANY (nets)) AND (kinds IS NULL OR d.kind = ANY (kinds))
    ORDER BY (lower(d.key) = key_lo) DESC, ts_rank(d.tsv, tsq_q) DESC NULLS LAST,
      similarity(d.title, q) DESC, d.level DESC, d.id DESC
    LIMIT size OFFSET skip;
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

-- The documents of a suggestion alone (searchDocuments with rankWindow, when no big-map key is looked up).
CREATE FUNCTION search_suggest(
  q text, like_prefix text, like_contains text, tsq text, words text[], last_word text, nets text[], kinds text[],
  n integer, and_n integer, size integer, skip integer
) RETURNS TABLE (network text, kind text, key text, title text, body text, level integer, matched text)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
  RETURN QUERY
  SELECT p.network, p.kind, p.key, p.title, p.body, p.level, p.matched
  FROM search_suggest_page(q, like_prefix, like_contains, tsq, words, last_word, nets, kinds, n, and_n, size, skip,
    '{}'::text[], NULL::bigint, false, 0) p;
END $$;
