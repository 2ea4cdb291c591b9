-- CreateTable
CREATE TABLE "ExportDestination" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "secretCipher" TEXT,
    "createdById" TEXT,
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "failingSince" TIMESTAMP(3),
    "lastError" TEXT,
    "lastErrorAt" TIMESTAMP(3),
    "retryAt" TIMESTAMP(3),
    "lastDeliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExportDestination_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExportDelivery" (
    "id" TEXT NOT NULL,
    "destinationId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "transcriptId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "generation" INTEGER NOT NULL DEFAULT 1,
    "deliveredGeneration" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP,
    "lastAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "remoteRef" TEXT,
    "remoteDigest" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExportDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ExportDestination_userId_idx" ON "ExportDestination"("userId");

-- CreateIndex
CREATE INDEX "ExportDelivery_status_nextAttemptAt_idx" ON "ExportDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "ExportDelivery_transcriptId_idx" ON "ExportDelivery"("transcriptId");

-- CreateIndex
CREATE UNIQUE INDEX "ExportDelivery_destinationId_transcriptId_key" ON "ExportDelivery"("destinationId", "transcriptId");

-- AddForeignKey
ALTER TABLE "ExportDestination" ADD CONSTRAINT "ExportDestination_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExportDelivery" ADD CONSTRAINT "ExportDelivery_destinationId_fkey" FOREIGN KEY ("destinationId") REFERENCES "ExportDestination"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExportDelivery" ADD CONSTRAINT "ExportDelivery_transcriptId_fkey" FOREIGN KEY ("transcriptId") REFERENCES "Transcript"("id") ON DELETE CASCADE ON UPDATE CASCADE;
