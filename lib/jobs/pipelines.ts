// Every pipeline the app runs, in one list: the local runner (app process and `npm run worker`) and the
// Inngest function are given it, so a job found in the queue after a restart always finds its pipeline.
// A new pipeline is one line here; its name and step names are stored in jobs and must never change.
import { transcribePipeline } from "@/lib/transcripts/transcribe-pipeline";
import { importPipeline } from "@/lib/imports/import-pipeline";
import { pipelinesByName } from "@/lib/jobs/pipeline";

export const appPipelines = pipelinesByName([transcribePipeline, importPipeline]);
