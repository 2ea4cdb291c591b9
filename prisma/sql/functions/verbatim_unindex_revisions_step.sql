-- One step of removing the passages search no longer serves (lib/edits/revision-index.ts): those of a
-- correction that is not served ("indexedAt" NULL) and that a newer correction of the same transcript replaced
-- (the one served before it, or one replaced before it was indexed). One passage at a time (its postings by the
-- passages' trigger) until `budget_ms` has passed, at least one. Answers how many it removed (0: none is left).
CREATE OR REPLACE FUNCTION verbatim_unindex_revisions_step(budget_ms INTEGER) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  began TIMESTAMPTZ := clock_timestamp();
  removed INTEGER := 0;
  stale TEXT;
  n INTEGER;
BEGIN
  FOR stale IN
    SELECT r."id" FROM "TranscriptRevision" r
    WHERE r."indexedAt" IS NULL
      AND EXISTS (SELECT 1 FROM "RevisionPassage" rp WHERE rp."revisionId" = r."id")
      AND EXISTS (SELECT 1 FROM "TranscriptRevision" nr
                  WHERE nr."userId" = r."userId" AND nr."transcriptId" = r."transcriptId"
                    AND (nr."createdAt", nr."id") > (r."createdAt", r."id"))
  LOOP
    LOOP
      DELETE FROM "RevisionPassage" WHERE "revisionId" = stale
        AND "seq" = (SELECT min(rp."seq") FROM "RevisionPassage" rp WHERE rp."revisionId" = stale);
      GET DIAGNOSTICS n = ROW_COUNT;
      EXIT WHEN n = 0;
      removed := removed + n;
      IF clock_timestamp() - began >= budget_ms * INTERVAL '1 millisecond' THEN RETURN removed; END IF;
    END LOOP;
  END LOOP;
  RETURN removed;
END
$$;
