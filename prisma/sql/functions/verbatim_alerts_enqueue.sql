-- A transcript newly in an account's reach queues one alert check (lib/alerts, pipeline `alerts-match`) in the
-- transaction that puts it there, whichever code path did: a history entry becoming done (a link, an upload, an
-- import, a followed episode), a publication going live, a correction that search begins to serve, and a followed
-- show's item marked done (after its entry: a follows alert reads the item). Nothing is
-- queued while no alert is active. The job row is the local runner's, woken by NOTIFY (and its poll); under
-- Inngest the relay (lib/jobs/drivers/inngest-relay.ts), woken the same way, hands it over (`dispatchedAt` null).
CREATE OR REPLACE FUNCTION verbatim_alerts_enqueue() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
DECLARE
  reason text;
  account text;
BEGIN
  IF TG_TABLE_NAME = 'Transcription' THEN
    IF NEW."state" <> 'done' OR NEW."transcriptId" IS NULL THEN RETURN NULL; END IF;
    IF TG_OP = 'UPDATE' AND OLD."state" = 'done' AND OLD."transcriptId" IS NOT DISTINCT FROM NEW."transcriptId" THEN
      RETURN NULL;
    END IF;
    account := NEW."userId";
    reason := 'library';
  ELSIF TG_TABLE_NAME = 'Publication' THEN
    IF NEW."publishedAt" IS NULL OR (TG_OP = 'UPDATE' AND OLD."publishedAt" IS NOT NULL) THEN RETURN NULL; END IF;
    account := NEW."userId";
    reason := 'published';
  ELSIF TG_TABLE_NAME = 'FollowItem' THEN
    IF NEW."status" <> 'done' OR NEW."transcriptId" IS NULL THEN RETURN NULL; END IF;
    IF TG_OP = 'UPDATE' AND OLD."status" = 'done' AND OLD."transcriptId" IS NOT DISTINCT FROM NEW."transcriptId" THEN
      RETURN NULL;
    END IF;
    SELECT f."userId" INTO account FROM "Follow" f WHERE f."id" = NEW."followId";
    reason := 'library';
  ELSE
    IF NEW."indexedAt" IS NULL OR (TG_OP = 'UPDATE' AND OLD."indexedAt" IS NOT NULL) THEN RETURN NULL; END IF;
    account := NEW."userId";
    reason := 'corrected';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "Alert" WHERE "pausedAt" IS NULL) THEN RETURN NULL; END IF;
  INSERT INTO "Job" ("id", "userId", "input", "maxAttempts", "updatedAt")
  VALUES (
    'alrt' || replace(gen_random_uuid()::text, '-', ''),
    account,
    jsonb_build_object('pipeline', 'alerts-match', 'context',
      jsonb_build_object('transcriptId', NEW."transcriptId", 'accountId', account, 'reason', reason)),
    3,
    now()
  );
  PERFORM pg_notify('verbatim_jobs', '');
  RETURN NULL;
END
$$;
