-- AlterTable
ALTER TABLE "Publication" ADD COLUMN     "publishedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Publication_publishedAt_id_idx" ON "Publication"("publishedAt" DESC, "id" DESC);
