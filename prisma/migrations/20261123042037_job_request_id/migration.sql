-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "requestId" TEXT;
