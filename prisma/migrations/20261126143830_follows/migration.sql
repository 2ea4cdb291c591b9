-- Follows: a show checked on a schedule, and one row per item it has listed (the unique (followId, guid) is
-- what makes each item transcribed and charged once).
-- CreateTable
CREATE TABLE "Follow" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT,
    "state" TEXT NOT NULL DEFAULT 'active',
    "note" TEXT,
    "lang" TEXT NOT NULL DEFAULT 'en',
    "format" TEXT NOT NULL DEFAULT 'json',
    "publish" BOOLEAN NOT NULL DEFAULT false,
    "webhookUrl" TEXT,
    "etag" TEXT,
    "lastModified" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "itemsSeen" INTEGER NOT NULL DEFAULT 0,
    "lastCheckedAt" TIMESTAMP(3),
    "nextCheckAt" TIMESTAMP(3),
    "checkJobId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Follow_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FollowItem" (
    "id" TEXT NOT NULL,
    "followId" TEXT NOT NULL,
    "guid" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "durationSeconds" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "jobId" TEXT,
    "transcriptId" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FollowItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Follow_userId_createdAt_idx" ON "Follow"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Follow_userId_url_key" ON "Follow"("userId", "url");

-- CreateIndex
CREATE INDEX "FollowItem_followId_status_idx" ON "FollowItem"("followId", "status");

-- CreateIndex
CREATE INDEX "FollowItem_followId_createdAt_idx" ON "FollowItem"("followId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "FollowItem_followId_guid_key" ON "FollowItem"("followId", "guid");

-- AddForeignKey
ALTER TABLE "Follow" ADD CONSTRAINT "Follow_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FollowItem" ADD CONSTRAINT "FollowItem_followId_fkey" FOREIGN KEY ("followId") REFERENCES "Follow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
