-- AlterTable
ALTER TABLE "ImportBatch" ADD COLUMN     "lang" TEXT NOT NULL DEFAULT 'en';

-- CreateIndex
CREATE INDEX "ImportItem_batchId_position_id_idx" ON "ImportItem"("batchId", "position", "id");
