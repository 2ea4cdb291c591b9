// A composition root: every pipeline the app runs, in one list, handed to the job drivers by their entry points
// (instrumentation.ts, `npm run worker`, app/api/inngest), so that lib/jobs knows no domain and a job found in
// the queue after a restart always finds its pipeline. A new pipeline is one line here; its name and step names
// are stored in jobs and must never change.
import { transcribePipeline } from "@/lib/transcripts/transcribe-pipeline";
import { importPipeline } from "@/lib/imports/import-pipeline";
import { batchPipeline } from "@/lib/batches/batch-pipeline";
import { followCheckPipeline } from "@/lib/follows/check-pipeline";
import { alertMatchPipeline } from "@/lib/alerts/match-pipeline";
import { alertDigestPipeline } from "@/lib/alerts/digest-pipeline";
import { pipelinesByName } from "@/lib/jobs/pipeline";

export const appPipelines = pipelinesByName([
  transcribePipeline,
  importPipeline,
  batchPipeline,
  followCheckPipeline,
  alertMatchPipeline,
  alertDigestPipeline,
]);
