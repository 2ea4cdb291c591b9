-- AlterTable
ALTER TABLE "Follow" ADD COLUMN     "pushSeen" TEXT[] DEFAULT ARRAY[]::TEXT[];
