import { useTestRunner } from "@/test/app-db";
import { callRoute } from "@/test/request";

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
  const ctx = await useTestRunner();
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
      for (let i = 0; i < 600; i++) {
        const res = await callRoute(routes.job, `/v1/jobs/${jobId}?format=${format}`, {
          headers: auth,
          params: { job_id: jobId },
        });
        const body = res.json as { status: string };
        if (body.status === "done" || body.status === "error") return res;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`job ${jobId} did not finish`);
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
