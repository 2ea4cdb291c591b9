// A local runner in a process of its own, for the tests that kill it or run two at once:
//   DATABASE_URL=... RUNNER_OWNER=a LEASE_MS=1000 POLL_MS=60000 node --import tsx test/jobs/runner-child.ts
// Prints "ready" once it listens. SIGTERM stops it gracefully.
import { getDb } from "@/lib/db/client";
import { pipelinesByName } from "@/lib/jobs/pipeline";
import { startLocalRunner } from "@/lib/jobs/drivers/local";
import { makeTestPipeline } from "@/test/jobs/test-pipeline";

const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

const pipelines = pipelinesByName([makeTestPipeline(process.env.PIPELINE_NAME ?? "test", getDb)]);
const db = await getDb();
const runner = await startLocalRunner({
  pipelines,
  db,
  owner: process.env.RUNNER_OWNER,
  leaseMs: number("LEASE_MS", 30_000),
  pollMs: number("POLL_MS", 5_000),
  concurrency: number("CONCURRENCY", 2),
  backoff: { baseMs: number("BACKOFF_MS", 1_000) },
  log: (line) => process.stderr.write(`[${process.env.RUNNER_OWNER ?? "child"}] ${line}\n`),
});

process.on("SIGTERM", () => {
  runner
    .stop({ timeoutMs: 10_000 })
    .then(() => db.$disconnect())
    .then(() => process.exit(0));
});
process.stdout.write("ready\n");
