import { useTestRunner } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { waitUntil } from "@/test/wait";

/**
 * What the speech-recognition job suites share once their fakes listen: the app's files in `dataDir`, speech
 * detected first, the fakes on 127.0.0.1 let through, `env` (the recogniser's settings), a database of their own,
 * the local runner running the app's pipelines, and the routes that start a transcription and read its job.
 */
export async function startTranscribeJobs(dataDir: string, env: Record<string, string>) {
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    // The integration config turns the detector off for the tone fixtures.
    ASR_VAD: "silero",
    ...env,
  });
  // Each run of a job the runner settles wakes the waits below at once.
  const settled = new Set<() => void>();
  const ctx = await useTestRunner({ onSettled: () => settled.forEach((wake) => wake()) });
  const routes = {
    transcript: (await import("@/app/v1/transcript/route")).POST,
    job: (await import("@/app/v1/jobs/[job_id]/route")).GET,
  };
  return {
    ctx,
    routes,
    keys: await import("@/lib/auth/api-keys"),
    getSubscription: (await import("@/lib/usage/get-subscription")).getSubscription,
    /** GET /v1/jobs/{id} (the transcript in `format`) until the job is done or failed. */
    async waitForJob(jobId: string, auth: Record<string, string>, format = "json") {
      return waitUntil(
        `job ${jobId} to be done or failed`,
        async () => {
          const res = await callRoute(routes.job, `/v1/jobs/${jobId}?format=${format}`, {
            headers: auth,
            params: { job_id: jobId },
          });
          const body = res.json as { status: string };
          return body.status === "done" || body.status === "error" ? res : null;
        },
        {
          everyMs: 250,
          timeoutMs: 120_000,
          wakeOn: (wake) => (settled.add(wake), () => settled.delete(wake)),
          state: () => ctx.db.job.findUnique({ where: { id: jobId } }),
        },
      );
    },
    /** The words of the transcript speech recognition stored last. */
    async lastStoredWords() {
      const stored = await ctx.db.transcript.findFirstOrThrow({
        where: { origin: "asr" },
        orderBy: { createdAt: "desc" },
      });
      return (stored.segments as Array<{ words?: Array<{ start: number; end: number; text: string }> }>).flatMap(
        (s) => s.words ?? [],
      );
    },
    stop: ctx.stop,
  };
}

export type TranscribeJobs = Awaited<ReturnType<typeof startTranscribeJobs>>;
