-- A transcript new, corrected or followed in an account queues one delivery to each of the account's enabled
-- export destinations (lib/exports/destinations), in the transaction that makes it so, whichever code path did: a
-- history entry becoming done (a link, an upload, an import, a followed episode), a correction saved, a followed
-- show's item marked done. One row per destination and transcript: a transcript already queued or delivered is not
-- queued again when it is new a second time (a second entry, the followed item after its entry); a correction makes
-- it due again (`generation` + 1, so an attempt under way does not count as delivering it). Nothing is queued while
-- the account has no destination. The delivery runner is woken by NOTIFY (and its poll).
CREATE OR REPLACE FUNCTION verbatim_exports_enqueue() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
DECLARE
  reason text;
  account text;
  queued integer;
BEGIN
  IF TG_TABLE_NAME = 'Transcription' THEN
    IF NEW."state" <> 'done' OR NEW."transcriptId" IS NULL THEN RETURN NULL; END IF;
    IF TG_OP = 'UPDATE' AND OLD."state" = 'done' AND OLD."transcriptId" IS NOT DISTINCT FROM NEW."transcriptId" THEN
      RETURN NULL;
    END IF;
    account := NEW."userId";
    reason := 'new';
  ELSIF TG_TABLE_NAME = 'FollowItem' THEN
    IF NEW."status" <> 'done' OR NEW."transcriptId" IS NULL THEN RETURN NULL; END IF;
    IF TG_OP = 'UPDATE' AND OLD."status" = 'done' AND OLD."transcriptId" IS NOT DISTINCT FROM NEW."transcriptId" THEN
      RETURN NULL;
    END IF;
    SELECT f."userId" INTO account FROM "Follow" f WHERE f."id" = NEW."followId";
    reason := 'followed';
  ELSE
    account := NEW."userId";
    reason := 'corrected';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "ExportDestination" WHERE "userId" = account AND "disabledAt" IS NULL) THEN
    RETURN NULL;
  END IF;
  INSERT INTO "ExportDelivery" ("id", "destinationId", "userId", "transcriptId", "reason", "updatedAt")
  SELECT 'exd' || replace(gen_random_uuid()::text, '-', ''), d."id", account, NEW."transcriptId", reason, now()
  FROM "ExportDestination" d
  WHERE d."userId" = account AND d."disabledAt" IS NULL
  ON CONFLICT ("destinationId", "transcriptId") DO UPDATE
    SET "generation" = "ExportDelivery"."generation" + 1, "reason" = EXCLUDED."reason", "status" = 'pending',
      "attempts" = 0, "nextAttemptAt" = now(), "lastError" = NULL, "updatedAt" = now()
    WHERE EXCLUDED."reason" = 'corrected';
  GET DIAGNOSTICS queued = ROW_COUNT;
  IF queued > 0 THEN PERFORM pg_notify('verbatim_exports', ''); END IF;
  RETURN NULL;
END
$$;
