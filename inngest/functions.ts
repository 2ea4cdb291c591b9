// Every Inngest function this app serves (app/api/inngest/route.ts).
import { runPipeline } from "@/inngest/run-pipeline";

export const functions = [runPipeline];
