// The Inngest client ("verbatim"). Only used when Inngest is configured (see ./settings.ts); the
// function definitions import it too, which is harmless: nothing is sent or served without settings.
import { Inngest } from "inngest";
import { inngestSettings, type InngestSettings } from "@/lib/jobs/drivers/inngest-settings";

/** The event that asks for a job to be run: `{ jobId, userId }` (userId keys per-user concurrency). */
export const JOB_REQUESTED = "verbatim/job.requested";

export interface JobRequestedData {
  jobId: string;
  userId: string;
  /** X-Request-Id of the request that enqueued the job (for its log lines). */
  requestId?: string;
}

export function createInngestClient(settings: InngestSettings = inngestSettings()) {
  const devUrl = settings.dev && /^https?:\/\//.test(settings.dev) ? settings.dev : undefined;
  return new Inngest({
    id: "verbatim",
    ...(settings.eventKey ? { eventKey: settings.eventKey } : {}),
    ...(settings.signingKey ? { signingKey: settings.signingKey } : {}),
    ...(settings.baseUrl || devUrl ? { baseUrl: settings.baseUrl ?? devUrl } : {}),
    ...(settings.dev ? { isDev: true } : {}),
  });
}

export const inngest = createInngestClient();
