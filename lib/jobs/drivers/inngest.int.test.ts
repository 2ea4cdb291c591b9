// The Inngest driver with @inngest/test: the function runs each pipeline step inside step.run, once,
// keeps the job row current, and its failure handler ends the job and refunds exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InngestTestEngine, mockCtx } from "@inngest/test";
import { Inngest, NonRetriableError } from "inngest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { JOB_REQUESTED } from "@/lib/jobs/drivers/inngest-client";
import {
  createRunPipelineFunction,
  failPipelineJob,
  PER_USER_CONCURRENCY,
  RUN_PIPELINE_RETRIES,
} from "@/lib/jobs/drivers/inngest";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { pipelinesByName } from "@/lib/jobs/pipeline";
import { countBy } from "@/test/jobs/helpers";
import { waitUntil, withDeadline } from "@/test/wait";
import { CREATE_EFFECTS_TABLE, effects, makeTestPipeline, type TestContext } from "@/test/jobs/test-pipeline";

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let userId: string;
const pipeline = makeTestPipeline("inngest-test", async () => database.db);
const pipelines = pipelinesByName([pipeline]);

beforeAll(async () => {
  database = await useTestDatabase();
  await database.db.$executeRawUnsafe(CREATE_EFFECTS_TABLE);
  userId = (await createUser(database.db)).id;
});

afterAll(async () => {
  await database?.teardown();
});

// The app's client but quiet: the SDK logs every step error, which these tests cause on purpose.
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const inngest = new Inngest({ id: "verbatim", logger: quiet, internalLogger: quiet });
const fn = () => createRunPipelineFunction(inngest, { pipelines, db: async () => database.db });

async function newJob(context: Partial<TestContext> = {}) {
  // Inserted as the app would; "local" only so that nothing is sent to an Inngest server here.
  return enqueueJob(database.db, { userId, pipeline, context: { trail: [], ...context }, driver: "local" });
}

function requested(jobId: string) {
  return { name: JOB_REQUESTED, data: { jobId, userId } };
}

async function kinds(id: string) {
  return countBy(await effects(database.db, id), (e) => e.kind);
}

describe("run-pipeline (Inngest)", () => {
  it("is triggered by verbatim/job.requested with per-user concurrency and retries", () => {
    const { opts } = fn();
    expect(opts.id).toBe("run-pipeline");
    expect(opts.triggers).toEqual([{ event: "verbatim/job.requested" }]);
    expect(opts.concurrency).toEqual({ key: "event.data.userId", limit: PER_USER_CONCURRENCY });
    expect(opts.retries).toBe(RUN_PIPELINE_RETRIES);
    expect(typeof opts.onFailure).toBe("function");
  });

  it("runs every pipeline step once inside step.run, then finishes the job with onSuccess once", async () => {
    const job = await newJob();
    const t = new InngestTestEngine({ function: fn(), events: [requested(job.id)] });
    const { result, error, ctx } = await t.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ jobId: job.id, finished: true });

    const stepIds = (ctx.step.run as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((call) => call[0]);
    expect(stepIds).toEqual(["start-job", "one", "two", "three", "finish-job"]);
    // Inngest replays the handler once per step; memoized steps are not run again.
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 1, two: 1, three: 1, charge: 1 });

    const row = await database.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "done", progress: 1, chargedSecs: 7, attempts: 1 });
    expect(Object.keys(row.checkpoints as object).sort()).toEqual(["one", "three", "two"]);
    expect((await effects(database.db, job.id)).find((e) => e.kind === "charge")?.detail).toBe("one,two,three");
  });

  it("a repeated event for a finished job runs nothing", async () => {
    const job = await newJob();
    await new InngestTestEngine({ function: fn(), events: [requested(job.id)] }).execute();
    const again = await new InngestTestEngine({ function: fn(), events: [requested(job.id)] }).execute();
    expect(again.result).toEqual({ jobId: job.id, skipped: "done" });
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 1, two: 1, three: 1, charge: 1 });
  });

  it("a PermanentError stops the run without retries; the failure handler ends the job and refunds once", async () => {
    const job = await newJob({ permanent: true });
    const { error } = await new InngestTestEngine({ function: fn(), events: [requested(job.id)] }).execute();
    expect(error).toMatchObject({ name: "NonRetriableError", message: "The input can never work" });
    const running = await database.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(running).toMatchObject({ status: "running", errorCode: "invalid_job_context" });
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 1, "two-permanent": 1 });

    // What Inngest does next: it runs the function's onFailure handler for inngest/function.failed.
    // (@inngest/test does not run onFailure itself, so the same handler is mounted on a test function.)
    const failedEvent = {
      name: "inngest/function.failed",
      data: {
        function_id: "verbatim-run-pipeline",
        run_id: "01TESTRUN",
        error: { name: "NonRetriableError", message: "The input can never work" },
        event: requested(job.id),
      },
    };
    const onFailure = inngest.createFunction(
      { id: "run-pipeline-failure-under-test", triggers: [{ event: "inngest/function.failed" }] },
      fn().opts.onFailure as never,
    );
    const failureEngine = new InngestTestEngine({
      function: onFailure,
      events: [failedEvent],
      transformCtx: (raw) => ({ ...mockCtx(raw), error: new NonRetriableError("The input can never work") }),
    });
    const handled = await failureEngine.execute();
    expect(handled.error).toBeUndefined();
    expect(handled.result).toEqual({
      failed: true,
      failure: { code: "invalid_job_context", message: "The input can never work" },
    });

    const failed = await database.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(failed).toMatchObject({
      status: "error",
      errorCode: "invalid_job_context",
      errorMessage: "The input can never work",
    });
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 1, "two-permanent": 1, refund: 1 });

    // A second failure notification (Inngest retrying the handler) changes nothing.
    expect(await failPipelineJob(database.db, pipelines, job.id, new Error("again"))).toEqual({ failed: false });
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 1, "two-permanent": 1, refund: 1 });
  });

  it("a context that does not fit the pipeline's schema stops the run without retries, before the step runs", async () => {
    const job = await newJob({ trail: "not a list" as unknown as string[] });
    const { error } = await new InngestTestEngine({ function: fn(), events: [requested(job.id)] }).execute();
    expect(error).toMatchObject({ name: "NonRetriableError" });
    const row = await database.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "running", errorCode: "invalid_job_context" });
    expect(await kinds(job.id)).toEqual({});
  });

  it("a retryable error is rethrown for Inngest to retry, with its code recorded on the job", async () => {
    const job = await newJob({ failTimes: 1 });
    const { error } = await new InngestTestEngine({ function: fn(), events: [requested(job.id)] }).execute();
    expect(error).toMatchObject({ message: "Transient trouble" });
    expect(error).not.toMatchObject({ name: "NonRetriableError" });
    const row = await database.db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "running", errorCode: "job_failed", errorMessage: "Transient trouble" });

    // Inngest's retry: a new execution with the step "one" memoized runs only from "two" on.
    const { result } = await new InngestTestEngine({
      function: fn(),
      events: [requested(job.id)],
      steps: [{ id: "one", handler: () => ({ trail: ["one"] }) }],
    }).execute();
    expect(result).toEqual({ jobId: job.id, finished: true });
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 2, "two-fail": 1, two: 1, three: 1, charge: 1 });
    expect(await database.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "done",
      errorCode: null,
    });
  });

  it("a step still running when the steps' signal aborts is stopped and fails retryably", async () => {
    const job = await newJob({ sleepMs: 600_000 });
    const steps = new AbortController();
    const run = new InngestTestEngine({
      function: createRunPipelineFunction(inngest, { pipelines, db: async () => database.db, signal: steps.signal }),
      events: [requested(job.id)],
    }).execute();
    await waitUntil(`step two of job ${job.id} to start`, async () => (await kinds(job.id))["two-start"] === 1);
    steps.abort(new Error("Stopped from outside"));
    const { error } = await withDeadline(`job ${job.id}'s run to end once its step was stopped`, run);
    // The test pipeline's pause is node's abortable sleep, which rejects with an AbortError.
    expect(error).toMatchObject({ name: "AbortError" });
    expect(await kinds(job.id)).toEqual({ one: 1, "two-start": 1 });
    expect(await database.db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "running" });
  });
});
