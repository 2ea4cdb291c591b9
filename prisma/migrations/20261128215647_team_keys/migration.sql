-- CreateEnum
CREATE TYPE "KeyScope" AS ENUM ('read', 'transcribe', 'publish', 'manage');

-- CreateTable
CREATE TABLE "TeamKey" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scopes" "KeyScope"[],
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "TeamKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TeamKey_hash_key" ON "TeamKey"("hash");

-- CreateIndex
CREATE INDEX "TeamKey_teamId_createdAt_idx" ON "TeamKey"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "TeamKey_createdById_idx" ON "TeamKey"("createdById");

-- AddForeignKey
ALTER TABLE "TeamKey" ADD CONSTRAINT "TeamKey_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TeamKey" ADD CONSTRAINT "TeamKey_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
