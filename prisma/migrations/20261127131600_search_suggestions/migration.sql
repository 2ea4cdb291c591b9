-- Search the way people type (lib/search/suggest.ts): the vocabulary of every passage ("SearchTerm") read by a
-- prefix while typing (a word's lexeme begun: "launc" → launch, launched, …; a CJK character → the bigrams it
-- starts) and by likeness for "did you mean" when nothing matches (pg_trgm's similarity, in every script the
-- database's trigram parser reads as letters: Latin, Cyrillic, Greek, CJK, …).
-- text_pattern_ops: a LIKE 'prefix%' range whatever the database's collation.
CREATE INDEX IF NOT EXISTS "SearchTerm_term_prefix_idx" ON "SearchTerm" ("term" text_pattern_ops);
CREATE INDEX IF NOT EXISTS "SearchTerm_term_trgm_idx" ON "SearchTerm" USING gin ("term" gin_trgm_ops);
