-- A team account's requests and seconds per member and UTC hour in "MemberUsageHour", kept in the same transaction as
-- the entry's write (trigger "Transcription_member_usage"): only entries with an actor and not in error count, as
-- GET /v1/teams/{team_id}/usage counts them, so an entry that fails, recovers or changes its seconds moves its row.
CREATE OR REPLACE FUNCTION verbatim_member_usage() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."actorId" IS NOT NULL AND OLD."state" <> 'error' THEN
    UPDATE "MemberUsageHour" SET "requests" = "requests" - 1, "seconds" = "seconds" - OLD."totalSeconds"
    WHERE "userId" = OLD."userId" AND "hour" = date_trunc('hour', OLD."createdAt") AND "actorId" = OLD."actorId";
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."actorId" IS NOT NULL AND NEW."state" <> 'error' THEN
    INSERT INTO "MemberUsageHour" ("userId", "hour", "actorId", "requests", "seconds")
    VALUES (NEW."userId", date_trunc('hour', NEW."createdAt"), NEW."actorId", 1, NEW."totalSeconds")
    ON CONFLICT ("userId", "hour", "actorId") DO UPDATE
    SET "requests" = "MemberUsageHour"."requests" + 1, "seconds" = "MemberUsageHour"."seconds" + EXCLUDED."seconds";
  END IF;
  RETURN NULL;
END
$$;
