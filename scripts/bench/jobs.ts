// The job machinery's own overhead, with an instant one-step pipeline on the local runner:
// - enqueue → done latency, p50 / p95 over 50 jobs enqueued one after another, for a runner in the same
//   process (woken by the in-process signal), a runner woken only by NOTIFY (as `npm run worker` is),
//   and the embedded PGlite database;
// - 200 jobs enqueued at once: all done, none lost or run twice, total seconds (runner concurrency 2 and 8).
// "done" is when the runner has committed the job's final status.
// Run directly: `npx tsx scripts/bench/jobs.ts`; the main bench script can import benchJobs().
import { performance } from "node:perf_hooks";
import { PGLITE_EXTENSIONS } from "../../lib/db/pglite-extensions";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../../lib/generated/prisma/client";
import { applyMigrations, pgliteExecutor } from "../../lib/db/migrate";
import { enqueueJob } from "../../lib/jobs/enqueue";
import { z } from "zod";
import { definePipeline, pipelinesByName } from "../../lib/jobs/pipeline";
import { startLocalRunner, type LocalRunnerOptions, type SettledEvent } from "../../lib/jobs/drivers/local";
import { createMigratedTestDatabase } from "../../test/pg";

const PIPELINE = "bench-noop";
const SEQUENTIAL = 50;
const BURST = 200;

const runs = new Map<string, number>();
const noop = definePipeline<Record<string, never>>({
  name: PIPELINE,
  context: z.record(z.string(), z.never()),
  steps: [
    {
      name: "noop",
      run: async (_ctx, io) => {
        runs.set(io.jobId, (runs.get(io.jobId) ?? 0) + 1);
      },
    },
  ],
  onFailure: async () => {},
});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** A runner whose settled jobs resolve waiters keyed by job id. */
async function runnerWithWaiters(db: PrismaClient, options: Partial<LocalRunnerOptions>) {
  const waiters = new Map<string, (event: SettledEvent) => void>();
  const early = new Map<string, SettledEvent>();
  const settled: SettledEvent[] = [];
  const runner = await startLocalRunner({
    pipelines: pipelinesByName([noop]),
    db,
    log: () => {},
    pollMs: 60_000,
    ...options,
    onSettled: (event) => {
      settled.push(event);
      const waiter = waiters.get(event.jobId);
      if (waiter) waiter(event);
      else early.set(event.jobId, event);
    },
  });
  const done = (jobId: string) =>
    new Promise<SettledEvent>((resolve) => {
      const seen = early.get(jobId);
      if (seen) resolve(seen);
      else waiters.set(jobId, resolve);
    });
  return { runner, done, settled };
}

async function latency(
  db: PrismaClient,
  userId: string,
  options: Partial<LocalRunnerOptions>,
): Promise<{ p50: number; p95: number }> {
  const { runner, done } = await runnerWithWaiters(db, options);
  try {
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL + 5; i++) {
      const t0 = performance.now();
      const job = await enqueueJob(db, { userId, pipeline: noop, context: {}, driver: "local" });
      await done(job.id);
      if (i >= 5) times.push(performance.now() - t0); // the first few warm up connections and code paths
    }
    return { p50: percentile(times, 50), p95: percentile(times, 95) };
  } finally {
    await runner.stop();
  }
}

async function burst(db: PrismaClient, userId: string, concurrency: number) {
  runs.clear();
  const { runner, done, settled } = await runnerWithWaiters(db, { concurrency });
  try {
    const t0 = performance.now();
    const jobs = await Promise.all(
      Array.from({ length: BURST }, () => enqueueJob(db, { userId, pipeline: noop, context: {}, driver: "local" })),
    );
    await Promise.all(jobs.map((job) => done(job.id)));
    const seconds = (performance.now() - t0) / 1000;
    const ids = jobs.map((j) => j.id);
    const doneRows = await db.job.count({ where: { id: { in: ids }, status: "done" } });
    return {
      seconds,
      done: doneRows,
      lost: BURST - doneRows,
      runTwice: ids.filter((id) => (runs.get(id) ?? 0) > 1).length,
      nonDoneOutcomes: settled.filter((e) => e.outcome !== "done").length,
    };
  } finally {
    await runner.stop();
  }
}

export async function benchJobs(): Promise<Record<string, number>> {
  const results: Record<string, number> = {};

  const database = await createMigratedTestDatabase();
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 10 }) });
  try {
    const { id: userId } = await db.user.create({ data: { email: "bench-jobs@example.test" } });

    const inProcess = await latency(db, userId, { listenUrl: null });
    results["PostgreSQL, in-process signal: enqueue→done p50 ms"] = inProcess.p50;
    results["PostgreSQL, in-process signal: enqueue→done p95 ms"] = inProcess.p95;

    const notify = await latency(db, userId, { listenUrl: database.url, inProcessSignal: false });
    results["PostgreSQL, NOTIFY only: enqueue→done p50 ms"] = notify.p50;
    results["PostgreSQL, NOTIFY only: enqueue→done p95 ms"] = notify.p95;

    for (const concurrency of [2, 8]) {
      const b = await burst(db, userId, concurrency);
      results[`PostgreSQL, ${BURST} at once, concurrency ${concurrency}: total s`] = b.seconds;
      results[`PostgreSQL, ${BURST} at once, concurrency ${concurrency}: jobs/s`] = BURST / b.seconds;
      results[`PostgreSQL, ${BURST} at once, concurrency ${concurrency}: done`] = b.done;
      results[`PostgreSQL, ${BURST} at once, concurrency ${concurrency}: lost`] = b.lost;
      results[`PostgreSQL, ${BURST} at once, concurrency ${concurrency}: run twice`] = b.runTwice;
    }
  } finally {
    await db.$disconnect();
    await database.drop();
  }

  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  await applyMigrations(pgliteExecutor(pglite));
  const embedded = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  try {
    const { id: userId } = await embedded.user.create({ data: { email: "bench-jobs@example.test" } });
    const lat = await latency(embedded, userId, { listenUrl: null });
    results["PGlite (in memory): enqueue→done p50 ms"] = lat.p50;
    results["PGlite (in memory): enqueue→done p95 ms"] = lat.p95;
    const b = await burst(embedded, userId, 2);
    results[`PGlite, ${BURST} at once, concurrency 2: total s`] = b.seconds;
    results[`PGlite, ${BURST} at once, concurrency 2: lost`] = b.lost;
    results[`PGlite, ${BURST} at once, concurrency 2: run twice`] = b.runTwice;
  } finally {
    await embedded.$disconnect();
    await pglite.close();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await benchJobs();
  for (const [label, value] of Object.entries(figures)) {
    console.log(`${label.padEnd(60)} ${Number.isInteger(value) ? value : value.toFixed(value < 10 ? 3 : 1)}`);
  }
}
