-- Entries per user, platform and state in "HistoryCount", kept in the same transaction as the entry's write:
-- the history's `total` without a filter is a sum of a few rows, exact (trigger "Transcription_count").
CREATE OR REPLACE FUNCTION verbatim_history_count() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "HistoryCount" SET "n" = "n" - 1
    WHERE "userId" = OLD."userId" AND "platform" = OLD."platform" AND "state" = OLD."state";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO "HistoryCount" ("userId", "platform", "state", "n") VALUES (NEW."userId", NEW."platform", NEW."state", 1)
    ON CONFLICT ("userId", "platform", "state") DO UPDATE SET "n" = "HistoryCount"."n" + 1;
  END IF;
  RETURN NULL;
END
$$;
