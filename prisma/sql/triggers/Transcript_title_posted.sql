-- A transcript's new title: its passages' impacts again (verbatim_transcript_title_posted).
CREATE OR REPLACE TRIGGER "Transcript_title_posted" AFTER UPDATE OF "title" ON "Transcript"
FOR EACH ROW WHEN (OLD."title" IS DISTINCT FROM NEW."title") EXECUTE FUNCTION verbatim_transcript_title_posted();
