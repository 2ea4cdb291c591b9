-- An inverted file of the passages' vectors where the database has no pgvector (lib/search/vector-lists.ts): each
-- vector's list, and each embedder's centroids.

-- AlterTable
ALTER TABLE "PassageEmbedding" ADD COLUMN     "list" INTEGER;

-- CreateTable
CREATE TABLE "PassageVectorList" (
    "model" TEXT NOT NULL,
    "list" INTEGER NOT NULL,
    "centroid" BYTEA NOT NULL,
    "trainedOn" INTEGER NOT NULL,
    "trainedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PassageVectorList_pkey" PRIMARY KEY ("model","list")
);

-- CreateIndex
CREATE INDEX "PassageEmbedding_list_idx" ON "PassageEmbedding"("list");
