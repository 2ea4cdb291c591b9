-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "periodStart" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "stripeReadAt" TIMESTAMP(3);
