import { z } from "zod";
import type { Pipeline } from "@/lib/jobs/pipeline";
import { checkTranscript, type AlertCheck } from "@/lib/alerts/match-transcript";

/**
 * One transcript newly in an account's reach, checked against the alerts (match-transcript.ts). Queued by the
 * database in the transaction that put it there (prisma/sql/functions/verbatim_alerts_enqueue.sql), so no path
 * that makes a transcript ready, published or corrected can forget it. Safe to run again: a match is a unique
 * row per alert and transcript, written with its webhook messages.
 */
export const alertMatchPipeline: Pipeline<AlertCheck> = {
  name: "alerts-match",
  context: z.object({
    transcriptId: z.string(),
    accountId: z.string(),
    reason: z.enum(["library", "published", "corrected"]),
  }),
  maxAttempts: 3,
  steps: [
    {
      name: "match",
      async run(ctx) {
        await checkTranscript(ctx);
      },
    },
  ],
  async onFailure() {},
};
