// The local runner on the embedded database: in-memory PGlite with the real migrations. PGlite is one
// connection in this process: `FOR UPDATE SKIP LOCKED` parses and runs (there is simply nothing to
// skip), transactions are serialised with other queries, and new jobs arrive by the in-process signal.
import { EventEmitter } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { pipelinesByName } from "@/lib/jobs/pipeline";
import { startLocalRunner } from "@/lib/jobs/drivers/local";
import { claimJob } from "@/lib/jobs/store";
import { countBy, waitFor } from "@/test/jobs/helpers";
import { CREATE_EFFECTS_TABLE, effects, makeTestPipeline } from "@/test/jobs/test-pipeline";
import { migratedPglite } from "@/test/shared-fixtures";
import { WAIT_TIMEOUT_MS, waitUntil } from "@/test/wait";

let pglite: PGlite;
let db: PrismaClient;
let userId: string;
const pipeline = makeTestPipeline("pglite-test", async () => db);
const pipelines = pipelinesByName([pipeline]);

beforeAll(async () => {
  pglite = await migratedPglite();
  await pglite.exec(CREATE_EFFECTS_TABLE);
  db = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  userId = (await db.user.create({ data: { email: "pglite-jobs@example.test" } })).id;
});

afterAll(async () => {
  await db?.$disconnect();
  await pglite?.close();
});

describe("local runner on PGlite", () => {
  it("runs the claim statement (FOR UPDATE SKIP LOCKED) as on PostgreSQL", async () => {
    expect(await claimJob(db, "nobody", 1_000)).toBeNull();
    const job = await enqueueJob(db, { userId, pipeline, context: { trail: [] }, driver: "local" });
    const claimed = await claimJob(db, "somebody", 1_000);
    expect(claimed).toMatchObject({ id: job.id, status: "running", leaseOwner: "somebody", attempts: 1 });
    expect(claimed!.leaseUntil!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await claimJob(db, "another", 1_000)).toBeNull();
    await db.job.delete({ where: { id: job.id } });
  });

  it("runs 20 jobs two at a time, each step once, woken by the in-process signal", async () => {
    const settled = new EventEmitter();
    const runner = await startLocalRunner({
      pipelines,
      db,
      owner: "pglite",
      concurrency: 2,
      // No safety-net poll within the wait: a lost wake-up fails the test instead of being covered.
      pollMs: 10 * WAIT_TIMEOUT_MS,
      listenUrl: null,
      log: () => {},
      onSettled: () => settled.emit("settled"),
    });
    try {
      const jobs = await Promise.all(
        Array.from({ length: 20 }, () =>
          enqueueJob(db, { userId, pipeline, context: { trail: [], stepMs: 5 }, driver: "local" }),
        ),
      );
      const ids = jobs.map((j) => j.id);
      // Each settled job wakes the next look (PGlite is one connection: a fast poll would compete with the runner).
      await waitUntil(
        "the 20 jobs to be done",
        async () => (await db.job.count({ where: { id: { in: ids }, status: "done" } })) === 20,
        {
          everyMs: 1_000,
          wakeOn: (wake) => {
            settled.on("settled", wake);
            return () => settled.off("settled", wake);
          },
          state: () => db.job.groupBy({ by: ["status"], where: { id: { in: ids } }, _count: true }),
        },
      );
      const all = (await effects(db)).filter((e) => ids.includes(e.job_id));
      for (const id of ids) {
        expect(
          countBy(
            all.filter((e) => e.job_id === id),
            (e) => e.kind,
          ),
        ).toEqual({ one: 1, "two-start": 1, two: 1, three: 1, charge: 1 });
      }
    } finally {
      await runner.stop();
    }
  });

  it("retries with backoff and finishes failures with onFailure in the same transaction", async () => {
    const runner = await startLocalRunner({
      pipelines,
      db,
      owner: "pglite-retry",
      pollMs: 60_000,
      listenUrl: null,
      backoff: { baseMs: 30 },
      log: () => {},
    });
    try {
      const retried = await enqueueJob(db, { userId, pipeline, context: { trail: [], failTimes: 1 }, driver: "local" });
      const permanent = await enqueueJob(db, {
        userId,
        pipeline,
        context: { trail: [], permanent: true },
        driver: "local",
      });
      const finished = (id: string) =>
        waitFor(async () => {
          const row = await db.job.findUniqueOrThrow({ where: { id } });
          return row.status === "done" || row.status === "error" ? row : null;
        });
      expect(await finished(retried.id)).toMatchObject({ status: "done", attempts: 2 });
      expect(await finished(permanent.id)).toMatchObject({ status: "error", errorCode: "invalid_job_context" });
      expect(countBy(await effects(db, permanent.id), (e) => e.kind)).toEqual({
        one: 1,
        "two-start": 1,
        "two-permanent": 1,
        refund: 1,
      });
    } finally {
      await runner.stop();
    }
  });
});
