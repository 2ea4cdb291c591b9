// Every pipeline module, imported for its `registerPipeline(...)` side effect. The local runner
// (app process and `npm run worker`) and the Inngest route import this file, so a job found in the
// queue after a restart always finds its pipeline. One import line per pipeline module.
import "@/lib/transcripts/transcribe-pipeline";
import "@/lib/imports/import-pipeline";
