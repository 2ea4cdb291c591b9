// The local runner against real PostgreSQL: crash recovery, two runners, retries, permanent failures,
// prompt pick-up, lost leases, graceful stop. Child runners are real processes (runner-child.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { pipelinesByName } from "@/lib/jobs/pipeline";
import { startLocalRunner, type LocalRunner, type LocalRunnerOptions } from "@/lib/jobs/drivers/local";
import { countBy, spawnChildRunner, spawnWorker, waitFor, type ChildRunner } from "@/test/jobs/helpers";
import { WAIT_TIMEOUT_MS } from "@/test/wait";
import { CREATE_EFFECTS_TABLE, effects, makeTestPipeline, type TestContext } from "@/test/jobs/test-pipeline";

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let userId: string;
const runners: LocalRunner[] = [];
const children: ChildRunner[] = [];
const pipeline = makeTestPipeline("test", async () => database.db);

beforeAll(async () => {
  database = await useTestDatabase();
  await database.db.$executeRawUnsafe(CREATE_EFFECTS_TABLE);
  userId = (await createUser(database.db)).id;
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop({ timeoutMs: 2_000 })));
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    await c.exited;
  }
});

afterAll(async () => {
  await database?.teardown();
});

async function runner(options: Partial<LocalRunnerOptions> = {}) {
  const r = await startLocalRunner({
    pipelines: pipelinesByName([pipeline]),
    db: database.db,
    listenUrl: null,
    log: () => {},
    ...options,
  });
  runners.push(r);
  return r;
}

async function child(env: Record<string, string>) {
  const c = await spawnChildRunner(database.url, env);
  children.push(c);
  return c;
}

function enqueue(context: Partial<TestContext> = {}, extra: { maxAttempts?: number } = {}) {
  return enqueueJob(database.db, { userId, pipeline, context: { trail: [], ...context }, driver: "local", ...extra });
}

async function job(id: string) {
  return database.db.job.findUniqueOrThrow({ where: { id } });
}

/**
 * What "woken at once" means beside the other suites on two cores: well under the 60 s poll these runners are given,
 * so a job done within it was woken by a signal (NOTIFY or the in-process one), not found by the poll.
 */
const WOKEN_WITHIN_MS = 20_000;

async function settled(id: string, timeoutMs = WAIT_TIMEOUT_MS) {
  return waitFor(async () => {
    const row = await job(id);
    return row.status === "done" || row.status === "error" ? row : null;
  }, timeoutMs);
}

async function kinds(id: string) {
  return countBy(await effects(database.db, id), (e) => e.kind);
}

describe("local runner", () => {
  it("a runner killed during step two: another recovers the lease, skips step one, finishes and charges once", async () => {
    const doomed = await child({ RUNNER_OWNER: "doomed", LEASE_MS: "1000", POLL_MS: "60000" });
    const { id } = await enqueue({ sleepMs: 60_000, sleepOnAttempt: 1 });
    await waitFor(async () => (await effects(database.db, id)).some((e) => e.kind === "two-start"));
    doomed.child.kill("SIGKILL");
    expect(await doomed.exited).toBeNull();

    const orphan = await job(id);
    expect(orphan).toMatchObject({ status: "running", leaseOwner: "doomed", attempts: 1 });
    expect(Object.keys(orphan.checkpoints as object)).toEqual(["one"]);

    // The rescuer's own lease is long: a heartbeat late on a loaded machine must not hand the job on again.
    await runner({ owner: "rescuer", leaseMs: 5_000, pollMs: 60_000 });
    const done = await settled(id);
    expect(done).toMatchObject({ status: "done", progress: 1, attempts: 2, leaseOwner: null, chargedSecs: 7 });
    expect(Object.keys(done.checkpoints as object).sort()).toEqual(["one", "three", "two"]);
    // Step one ran once (checkpointed); step two was interrupted, so it started twice and finished once.
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 2, two: 1, three: 1, charge: 1 });
    const all = await effects(database.db, id);
    expect(all.find((e) => e.kind === "one")?.owner).toBe("doomed");
    expect(all.find((e) => e.kind === "two")?.owner).toBe("rescuer");
    // The context was rebuilt from the checkpoint: step three saw one, two in order.
    expect(all.find((e) => e.kind === "three")?.detail).toBe("one,two");
    expect(all.find((e) => e.kind === "charge")?.detail).toBe("one,two,three");
  });

  it("two runner processes on 30 jobs never run the same job twice", async () => {
    await Promise.all([
      // No safety-net poll within the wait: a lost NOTIFY fails the test instead of being covered.
      child({ RUNNER_OWNER: "alpha", CONCURRENCY: "3", POLL_MS: "600000" }),
      child({ RUNNER_OWNER: "beta", CONCURRENCY: "3", POLL_MS: "600000" }),
    ]);
    const jobs = await Promise.all(Array.from({ length: 30 }, () => enqueue({ stepMs: 15 })));
    const ids = jobs.map((j) => j.id);
    await waitFor(
      async () => (await database.db.job.count({ where: { id: { in: ids }, status: "done" } })) === 30,
      undefined,
      50,
    );

    const all = (await effects(database.db)).filter((e) => ids.includes(e.job_id));
    for (const id of ids) {
      const mine = all.filter((e) => e.job_id === id);
      expect(countBy(mine, (e) => e.kind)).toEqual({ one: 1, "two-start": 1, two: 1, three: 1, charge: 1 });
      // One owner ran every step of a job.
      expect(new Set(mine.filter((e) => e.kind !== "charge").map((e) => e.owner)).size).toBe(1);
    }
    const byOwner = countBy(
      all.filter((e) => e.kind === "one"),
      (e) => e.owner ?? "none",
    );
    expect(Object.keys(byOwner).sort()).toEqual(["alpha", "beta"]);
    expect((await database.db.job.findMany({ where: { id: { in: ids } } })).every((j) => j.attempts === 1)).toBe(true);
  });

  it("keeps a slot for an account with nothing running: another's job starts while one account's fill the rest", async () => {
    // The runner's statements, counted: with the kept slot free and only the busy account's jobs due, it must wait
    // for a slot to free, not claim again and again.
    let statements = 0;
    const db = new Proxy(database.db, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (key === "$queryRaw") statements++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const r = await startLocalRunner({
      pipelines: pipelinesByName([pipeline]),
      db,
      listenUrl: null,
      log: () => {},
      owner: "one-slot",
      concurrency: 1,
      pollMs: 60_000,
    });
    const [busyAccount, other] = [(await createUser(database.db)).id, (await createUser(database.db)).id];
    const start = (account: string, context: Partial<TestContext>) =>
      enqueueJob(database.db, { userId: account, pipeline, context: { trail: [], ...context }, driver: "local" });
    const busy: { id: string }[] = [];
    try {
      for (let i = 0; i < 3; i++) busy.push(await start(busyAccount, { sleepMs: 60_000 }));
      await waitFor(async () => (await job(busy[0]!.id)).status === "running");
      const single = await start(other, {});
      await waitFor(async () => (await job(single.id)).status === "done");
      // The kept slot is not the busy account's: its other jobs still wait for the one slot.
      const statuses = await Promise.all(busy.map(async ({ id }) => (await job(id)).status));
      expect(statuses).toEqual(["running", "queued", "queued"]);
      const before = statements;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(statements - before).toBeLessThan(5);
    } finally {
      await r.stop({ timeoutMs: 0 });
      await database.db.job.deleteMany({ where: { userId: busyAccount } });
    }
  });

  it("a transient failure is retried with exponential backoff, then succeeds", async () => {
    await runner({ owner: "retry", backoff: { baseMs: 150 }, pollMs: 60_000 });
    const { id } = await enqueue({ failTimes: 2 });
    const done = await settled(id);
    expect(done).toMatchObject({ status: "done", attempts: 3, errorCode: null, errorMessage: null });
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 3, "two-fail": 2, two: 1, three: 1, charge: 1 });

    const all = await effects(database.db, id);
    const starts = all.filter((e) => e.kind === "two-start");
    const fails = all.filter((e) => e.kind === "two-fail");
    expect(starts.map((e) => e.attempt)).toEqual([1, 2, 3]);
    // Attempt 2 waited ≥ 150 ms after failure 1, attempt 3 ≥ 300 ms after failure 2.
    expect(starts[1]!.at.getTime() - fails[0]!.at.getTime()).toBeGreaterThanOrEqual(140);
    expect(starts[2]!.at.getTime() - fails[1]!.at.getTime()).toBeGreaterThanOrEqual(290);
    // …and not much longer: the runner woke for the due time, not the (60 s) poll.
    expect(starts[2]!.at.getTime() - fails[1]!.at.getTime()).toBeLessThan(1_500);
  });

  it("retries stop at maxAttempts: the job ends in error and onFailure runs once", async () => {
    await runner({ owner: "exhaust", backoff: { baseMs: 20 }, pollMs: 60_000 });
    const { id } = await enqueue({ failTimes: 100 }, { maxAttempts: 3 });
    const failed = await settled(id);
    expect(failed).toMatchObject({
      status: "error",
      attempts: 3,
      errorCode: "job_failed",
      errorMessage: "Transient trouble",
      leaseOwner: null,
    });
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 3, "two-fail": 3, refund: 1 });
  });

  it("a permanent failure ends in error at once and onFailure (the refund) runs exactly once", async () => {
    await runner({ owner: "permanent", pollMs: 60_000 });
    const { id } = await enqueue({ permanent: true });
    const failed = await settled(id);
    expect(failed).toMatchObject({
      status: "error",
      attempts: 1,
      errorCode: "invalid_job_context",
      errorMessage: "The input can never work",
    });
    // Give a wrongly scheduled retry the chance to show up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 1, "two-permanent": 1, refund: 1 });
    expect((await effects(database.db, id)).find((e) => e.kind === "refund")?.detail).toBe("invalid_job_context");
  });

  it("a runner in another process picks a new job up through NOTIFY, long before its 60 s poll", async () => {
    await child({ RUNNER_OWNER: "listener", POLL_MS: "60000" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const { id } = await enqueue();
    const done = await settled(id, WOKEN_WITHIN_MS);
    const all = await effects(database.db, id);
    expect(done.status).toBe("done");
    expect(all[0]?.owner).toBe("listener");
    // From enqueue to the first step, in the other process: about 10-40 ms when idle, seconds beside the other suites
    // on two cores. Without NOTIFY nothing would wake it for 60 s.
    expect(all[0]!.at.getTime() - started).toBeLessThan(WOKEN_WITHIN_MS);
  });

  it("a runner in this process picks a new job up through the in-process signal (no LISTEN)", async () => {
    await runner({ owner: "local", pollMs: 60_000, listenUrl: null });
    const started = Date.now();
    const { id } = await enqueue();
    const all = await effects(database.db, (await settled(id, WOKEN_WITHIN_MS)).id);
    expect(all[0]!.at.getTime() - started).toBeLessThan(WOKEN_WITHIN_MS);
  });

  it("a job enqueued inside a transaction is picked up when it commits (NOTIFY), and not at all if it rolls back", async () => {
    await runner({ owner: "tx", pollMs: 60_000, listenUrl: database.url });
    let committedAt = 0;
    const enqueued = await database.db.$transaction(async (tx) => {
      const created = await enqueueJob(tx, { userId, pipeline, context: { trail: [] }, driver: "local" });
      await new Promise((resolve) => setTimeout(resolve, 300)); // the in-process signal fires too early
      committedAt = Date.now();
      return created;
    });
    const all = await effects(database.db, (await settled(enqueued.id, WOKEN_WITHIN_MS)).id);
    expect(all[0]!.at.getTime()).toBeGreaterThanOrEqual(committedAt - 50);
    expect(all[0]!.at.getTime() - committedAt).toBeLessThan(WOKEN_WITHIN_MS);

    const marker = `rolled-back-${Date.now()}`;
    await expect(
      database.db.$transaction(async (tx) => {
        await enqueueJob(tx, { userId, pipeline, context: { trail: [], marker }, driver: "local" });
        throw new Error("caller failed");
      }),
    ).rejects.toThrow("caller failed");
    expect(await database.db.job.count({ where: { input: { path: ["context", "marker"], equals: marker } } })).toBe(0);
  });

  it("a runner that lost its lease stops: no checkpoint, no completion from it", async () => {
    // The heartbeat finds the takeover; the lease is long enough that, once the job is recovered, a heartbeat late
    // on a loaded machine does not let the lease run out again (which would rightly run step two a third time).
    const first = await runner({ owner: "loser", leaseMs: 5_000, heartbeatMs: 50, pollMs: 60_000 });
    const { id } = await enqueue({ sleepMs: 2_000, sleepOnAttempt: 1 });
    await waitFor(async () => (await effects(database.db, id)).some((e) => e.kind === "two-start"));
    // Another runner takes the job over (what a claim after an expired lease does).
    await database.db
      .$executeRaw`UPDATE "Job" SET "leaseOwner" = 'thief', "attempts" = "attempts" + 1 WHERE "id" = ${id}`;
    await waitFor(async () => first.running === 0);
    const row = await job(id);
    expect(row).toMatchObject({ status: "running", leaseOwner: "thief" });
    expect(Object.keys(row.checkpoints as object)).toEqual(["one"]);
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 1 });

    // The thief "dies"; its lease expires and the first runner recovers the job.
    await database.db
      .$executeRaw`UPDATE "Job" SET "leaseUntil" = (now() AT TIME ZONE 'UTC') - interval '1 second' WHERE "id" = ${id}`;
    first.wake();
    const done = await settled(id);
    expect(done.status).toBe("done");
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 2, two: 1, three: 1, charge: 1 });
  });

  it("stop() lets the running step finish, checkpoints it and hands the job back uncounted", async () => {
    const first = await runner({ owner: "leaving", pollMs: 60_000 });
    const { id } = await enqueue({ sleepMs: 400, sleepOnAttempt: 1 });
    await waitFor(async () => (await effects(database.db, id)).some((e) => e.kind === "two-start"));
    runners.splice(runners.indexOf(first), 1);
    await first.stop();
    const released = await job(id);
    expect(released).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null, leaseUntil: null });
    expect(Object.keys(released.checkpoints as object).sort()).toEqual(["one", "two"]);

    await runner({ owner: "next", pollMs: 60_000 });
    const done = await settled(id);
    expect(done).toMatchObject({ status: "done", attempts: 1 });
    expect(await kinds(id)).toEqual({ one: 1, "two-start": 1, two: 1, three: 1, charge: 1 });
  });

  it("a job whose context does not fit its pipeline's schema ends in error at once, without running a step", async () => {
    await runner({ owner: "schema", pollMs: 60_000 });
    const { id } = await enqueue({ trail: "not a list" as unknown as string[] }, { maxAttempts: 3 });
    const row = await settled(id);
    expect(row).toMatchObject({ status: "error", attempts: 1, errorCode: "invalid_job_context" });
    expect(row.errorMessage).toMatch(/does not fit pipeline "test": trail: /);
    expect(await kinds(id)).toEqual({ refund: 1 });
  });

  it("a job whose pipeline is not known is retried, then ends in error", async () => {
    const events: string[] = [];
    await runner({
      owner: "unknown",
      pollMs: 60_000,
      backoff: { baseMs: 20 },
      onSettled: (e) => events.push(e.outcome),
    });
    const { id } = await database.db.job.create({
      data: { userId, input: { pipeline: "not-known", context: {} }, maxAttempts: 2 },
    });
    (await import("@/lib/jobs/signal")).signalJobsAvailable(id);
    expect(await settled(id)).toMatchObject({ status: "error", attempts: 2, errorCode: "unknown_pipeline" });
    // onSettled is told after the row is written, so the row can be read first.
    await waitFor(async () => events.length >= 2);
    expect(events).toEqual(["retry", "error"]);
  });

  it("recovers expired leases at start", async () => {
    const { id } = await enqueue();
    await database.db.$executeRaw`
      UPDATE "Job" SET "status" = 'running', "leaseOwner" = 'gone', "attempts" = 1,
        "leaseUntil" = (now() AT TIME ZONE 'UTC') - interval '1 second' WHERE "id" = ${id}`;
    await runner({ owner: "starter", pollMs: 60_000 });
    expect(await settled(id)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("npm run worker starts and exits cleanly on SIGTERM", async () => {
    const worker = await spawnWorker(database.url, ["--poll-ms", "60000"]);
    children.push(worker);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toMatch(/SIGTERM: stopping/);
  });
});
