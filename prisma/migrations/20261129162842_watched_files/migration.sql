-- CreateTable
CREATE TABLE "WatchedFile" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "sizeBytes" BIGINT NOT NULL,
    "mtimeMs" DOUBLE PRECISION NOT NULL,
    "state" TEXT NOT NULL,
    "claimedUntil" TIMESTAMP(3),
    "objectPath" TEXT,
    "jobId" TEXT,
    "transcriptId" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WatchedFile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WatchedFile_userId_path_idx" ON "WatchedFile"("userId", "path");

-- CreateIndex
CREATE INDEX "WatchedFile_state_idx" ON "WatchedFile"("state");

-- CreateIndex
CREATE UNIQUE INDEX "WatchedFile_userId_sha256_key" ON "WatchedFile"("userId", "sha256");

-- AddForeignKey
ALTER TABLE "WatchedFile" ADD CONSTRAINT "WatchedFile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
