-- AlterTable
ALTER TABLE "Transcript" ADD COLUMN     "channel" TEXT,
ADD COLUMN     "chapters" JSONB,
ADD COLUMN     "publishedAt" TEXT,
ADD COLUMN     "servedBy" TEXT;
