-- WebSub push for followed shows: the hub and topic a source names, the subscription's secret, state, lease,
-- note and when it was last asked for.
-- AlterTable
ALTER TABLE "Follow" ADD COLUMN     "pushHub" TEXT,
ADD COLUMN     "pushLeaseEndsAt" TIMESTAMP(3),
ADD COLUMN     "pushNote" TEXT,
ADD COLUMN     "pushRequestedAt" TIMESTAMP(3),
ADD COLUMN     "pushSecret" TEXT,
ADD COLUMN     "pushState" TEXT,
ADD COLUMN     "pushTopic" TEXT;
