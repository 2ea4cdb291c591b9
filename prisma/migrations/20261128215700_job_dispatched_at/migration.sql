-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "dispatchedAt" TIMESTAMP(3);

-- Jobs queued before this column existed were handed to Inngest when they were enqueued (when Inngest runs
-- them) or are the local runner's; only the alert checks the database queued were never handed over.
UPDATE "Job" SET "dispatchedAt" = "createdAt"
WHERE "status" = 'queued' AND "input"->>'pipeline' IS DISTINCT FROM 'alerts-match';
