-- AlterTable
ALTER TABLE "Transcription" ADD COLUMN     "teamKeyId" TEXT;
