-- WebSub push for followed shows: the hub and topic a source names, the subscription's callback token and sealed
-- secret, its state, lease, note and when it was last asked for.
-- AlterTable
ALTER TABLE "Follow" ADD COLUMN     "pushHub" TEXT,
ADD COLUMN     "pushLeaseEndsAt" TIMESTAMP(3),
ADD COLUMN     "pushNote" TEXT,
ADD COLUMN     "pushRequestedAt" TIMESTAMP(3),
ADD COLUMN     "pushSecretCipher" TEXT,
ADD COLUMN     "pushState" TEXT,
ADD COLUMN     "pushToken" TEXT,
ADD COLUMN     "pushTopic" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Follow_pushToken_key" ON "Follow"("pushToken");
