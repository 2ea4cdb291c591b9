-- AlterTable
ALTER TABLE "Transcription" ADD COLUMN     "errorCode" TEXT,
ADD COLUMN     "errorMessage" TEXT,
ADD COLUMN     "title" TEXT;
