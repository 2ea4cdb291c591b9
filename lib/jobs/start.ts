// The app process's jobs: for instrumentation.ts. With Inngest configured, Inngest runs jobs (through
// app/api/inngest) and nothing starts here; otherwise the local runner runs in this process.
import "@/lib/jobs/pipelines";
import { inngestConfigured } from "@/inngest/settings";
import { ensureLocalRunner, type LocalRunner, type LocalRunnerOptions } from "@/lib/jobs/local-runner";

export async function startAppJobs(options: LocalRunnerOptions = {}): Promise<LocalRunner | null> {
  if (inngestConfigured()) return null;
  return ensureLocalRunner(options);
}
