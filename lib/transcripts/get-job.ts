import { getDb } from "@/lib/db/client";
import type { Format } from "@/lib/formats";
import { errors } from "@/lib/http/errors";
import { asSeenBy, serializeTranscript } from "@/lib/transcripts/read";
import type { JobResponse } from "@/lib/transcripts/schemas";

/** GET /v1/jobs/{job_id}: the owner's job; anyone else's, or an unknown id, is a 404. */
export async function getJob(userId: string, jobId: string, format: Format): Promise<JobResponse> {
  const db = await getDb();
  const job = await db.job.findUnique({ where: { id: jobId }, include: { transcript: true } });
  if (!job || job.userId !== userId) throw errors.notFound("No job with this id.");
  return {
    job_id: job.id,
    status: job.status,
    stage: job.stage,
    progress: job.status === "done" ? 1 : Math.min(1, Math.max(0, job.progress)),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    error:
      job.status === "error"
        ? { code: job.errorCode ?? "job_failed", message: job.errorMessage ?? "The job failed." }
        : null,
    transcript:
      job.status === "done" && job.transcript
        ? serializeTranscript(await asSeenBy(userId, job.transcript), format)
        : null,
  };
}
