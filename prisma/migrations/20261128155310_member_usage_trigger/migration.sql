-- prisma/sql/functions/verbatim_member_usage.sql
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

-- prisma/sql/triggers/Transcription_member_usage.sql
-- "MemberUsageHour" follows every insert, delete and change of a history entry that per-member usage reads.
CREATE OR REPLACE TRIGGER "Transcription_member_usage"
AFTER INSERT OR DELETE OR UPDATE OF "userId", "actorId", "state", "totalSeconds", "createdAt" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_member_usage();

-- The entries written before the trigger, counted once: CREATE TRIGGER above holds a lock that keeps writes to
-- "Transcription" out until this migration commits, so none is counted twice or missed.
INSERT INTO "MemberUsageHour" ("userId", "hour", "actorId", "requests", "seconds")
SELECT "userId", date_trunc('hour', "createdAt"), "actorId", count(*), sum("totalSeconds")
FROM "Transcription" WHERE "actorId" IS NOT NULL AND "state" <> 'error'
GROUP BY 1, 2, 3
ON CONFLICT ("userId", "hour", "actorId") DO NOTHING;
