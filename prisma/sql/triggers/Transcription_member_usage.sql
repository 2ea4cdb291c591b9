-- "MemberUsageHour" follows every insert, delete and change of a history entry that per-member usage reads.
CREATE OR REPLACE TRIGGER "Transcription_member_usage"
AFTER INSERT OR DELETE OR UPDATE OF "userId", "actorId", "state", "totalSeconds", "createdAt" ON "Transcription"
FOR EACH ROW EXECUTE FUNCTION verbatim_member_usage();
