-- Bounded suggestions (POST /search/v1/suggest, issue 7; plans and figures in bench/RESULTS.md "API"):
-- every strategy of a suggestion reads an index range cut by a LIMIT, never every match of a broad query.

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
ANALYZE search_terms;
