-- What a publisher's own file lost in reading, said where the transcript is shown.
-- (The schema engine's diff also dropped the indexes Prisma cannot describe, kept in migrations only: left out.)
ALTER TABLE "Transcript" ADD COLUMN     "sourceNote" TEXT;
