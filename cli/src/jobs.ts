import type { Schemas } from "./api";
import type { Context } from "./context";
import { CliError, EXIT, exitCodeFor } from "./errors";
import { createProgress, stopAllProgress } from "./progress";

// Waiting for a speech-recognition job: poll GET /v1/jobs/{id} every couple of seconds with a progress
// display of its stage. Ctrl-C leaves the job running on the server and says how to pick it up again.

export type JobState = Schemas["JobResponse"];
export type TranscriptFormat = Schemas["Transcript"]["format"];

const POLL_MS = 1500;
const waiting = new Set<string>();
let interruptHandlerInstalled = false;

function onInterrupt(out: Context["out"]): void {
  if (interruptHandlerInstalled) return;
  interruptHandlerInstalled = true;
  process.once("SIGINT", () => {
    stopAllProgress();
    for (const id of waiting) out.info(`Left job ${id} running on the server. Resume with: verbatim job ${id}`);
    process.exit(EXIT.interrupted);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function readJob(ctx: Context, jobId: string, format: TranscriptFormat): Promise<JobState> {
  return ctx.api.ok(
    ctx.api.client.GET("/v1/jobs/{job_id}", { params: { path: { job_id: jobId }, query: { format } } }),
  );
}

/** Polls until the job is done (its transcript) or failed (a CliError with the job's code). */
export async function waitForJob(
  ctx: Context,
  jobId: string,
  format: TranscriptFormat,
  resumed = false,
): Promise<JobState & { transcript: Schemas["Transcript"] }> {
  waiting.add(jobId);
  onInterrupt(ctx.out);
  let progress: ReturnType<typeof createProgress> | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      const job = await readJob(ctx, jobId, format);
      if (!progress && job.status !== "done" && job.status !== "error") {
        ctx.out.info(
          `Job ${jobId} ${resumed ? "is still running" : "started"}; Ctrl-C leaves it running (resume with \`verbatim job ${jobId}\`).`,
        );
        progress = createProgress(ctx.out, "Transcribing", 100);
      }
      progress?.update(Math.round(job.progress * 100), job.stage ?? job.status);
      if (job.status === "done" && job.transcript) return { ...job, transcript: job.transcript };
      if (job.status === "error") {
        const code = job.error?.code ?? "job_failed";
        throw new CliError(
          `Job ${jobId} failed: ${job.error?.message ?? "no reason given"}`,
          exitCodeFor(null, code),
          code,
        );
      }
      await sleep(attempt === 0 ? 500 : POLL_MS);
    }
  } finally {
    progress?.stop();
    waiting.delete(jobId);
  }
}

export function assertJobId(jobId: string): void {
  if (!/^[\w-]{1,64}$/.test(jobId)) throw new CliError(`Not a job id: ${jobId}`, EXIT.usage);
}
