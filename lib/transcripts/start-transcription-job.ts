import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { errors } from "@/lib/http/errors";
import { currentActor, currentTeamKey } from "@/lib/membership/actor";
import { limitUser } from "@/lib/http/rate-limits";
import { allowanceRefusal, chargeSeconds } from "@/lib/usage/charge";
import { lockEntry } from "@/lib/transcripts/history-queries";
import { transcribePipeline, type TranscribeContext } from "@/lib/transcripts/transcribe-pipeline";

export interface StartedJob {
  jobId: string;
  status: "queued" | "running";
}

type JobRequest = Omit<TranscribeContext, "periodStart" | "audioPath" | "durationSeconds" | "transcriptId"> & {
  /** Best duration estimate at submission (0 when unknown: settled once the audio is measured). */
  estimateSeconds: number;
  /** Imports apply their own limits (IMPORT_CONCURRENCY) instead of the `job` rate-limit row. */
  skipJobRateLimit?: boolean;
  /**
   * Runs first in the transaction that charges: what must still hold for the job to start (a follow not paused
   * or deleted meanwhile). Throwing rolls everything back; rows it locks stay locked until the charge commits.
   */
  guard?: (tx: Prisma.TransactionClient) => Promise<void>;
};

/**
 * Reserves the allowance, creates (or re-arms) the history entry and enqueues the job, all in one
 * transaction. A job already queued or running for the same user, source and language is returned instead.
 *
 * One job, one charge: the history entry (unique per user, source and language) is created if missing and
 * then locked before anything is decided, so concurrent submissions queue on that row; the first one
 * reserves and enqueues, the others then find its job and return it without charging.
 */
export async function startTranscriptionJob(request: JobRequest): Promise<StartedJob> {
  const { estimateSeconds, skipJobRateLimit, guard, ...context } = request;
  if (!skipJobRateLimit) await limitUser("job", request.userId); // 429 before anything is reserved
  const db = await getDb();
  return db.$transaction(
    async (tx) => {
      await guard?.(tx);
      const key = { userId: request.userId, platform: request.platform, videoId: request.videoId, lang: request.lang };
      // ON CONFLICT DO NOTHING waits for a concurrent insert of the same entry to commit or roll back.
      await tx.transcription.createMany({
        data: [{ ...key, origin: "asr", state: "in_progress", actorId: currentActor(), teamKeyId: currentTeamKey() }],
        skipDuplicates: true,
      });
      const entry = await lockEntry(tx, key);
      if (entry?.state === "in_progress" && entry.jobId) {
        const running = await tx.job.findUnique({ where: { id: entry.jobId }, select: { id: true, status: true } });
        if (running && (running.status === "queued" || running.status === "running"))
          return { jobId: running.id, status: running.status };
      }
      // At least one second, so a user with nothing left is refused now rather than after the download.
      const reserve = Math.max(1, Math.ceil(estimateSeconds));
      const period = await chargeSeconds(tx, request.userId, reserve);
      if (!period) {
        throw errors.allowanceExhausted(await allowanceRefusal(tx, request.userId, "This source is about", reserve));
      }
      const job = await enqueueJob(tx, {
        userId: request.userId,
        pipeline: transcribePipeline,
        context: { ...context, periodStart: period.start.toISOString() },
        reservedSecs: reserve,
        periodStart: period.start,
      });
      const fields = {
        origin: "asr",
        jobId: job.id,
        state: "in_progress",
        transcriptId: null,
        durationSeconds: 0,
        totalSeconds: reserve,
        errorCode: null,
        errorMessage: null,
        actorId: currentActor(),
        teamKeyId: currentTeamKey(),
        ...(request.title ? { title: request.title } : {}),
      };
      await tx.transcription.update({ where: { userId_platform_videoId_lang: key }, data: fields });
      return { jobId: job.id, status: "queued" as const };
    },
    { timeout: 20_000, maxWait: 20_000 },
  );
}
