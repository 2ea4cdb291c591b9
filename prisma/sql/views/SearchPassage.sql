-- What search reads (lib/search): every transcript's passages (editorId NULL) and every served correction's
-- (editorId = its author, revisionId set), one shape, with each passage's id (pid: its postings, "SearchPosting").
-- A correction is served once all its passages are written ("indexedAt", lib/edits/revision-index.ts): until
-- then the one served before it (or the transcript's own passages). Who may see which is decided when searching.
CREATE OR REPLACE VIEW "SearchPassage" AS
  SELECT p."transcriptId", p."seq", p."segFrom", p."segTo", p."start", p."end", p."config", p."tsv",
         NULL::text AS "editorId", NULL::text AS "revisionId", p."pid"
  FROM "TranscriptPassage" p
  UNION ALL
  SELECT r."transcriptId", rp."seq", rp."segFrom", rp."segTo", rp."start", rp."end", rp."config", rp."tsv",
         r."userId" AS "editorId", r."id" AS "revisionId", rp."pid"
  FROM "RevisionPassage" rp JOIN "TranscriptRevision" r ON r."id" = rp."revisionId"
  WHERE r."indexedAt" IS NOT NULL;
