// enqueueJob with Inngest configured: the job row is inserted and `verbatim/job.requested` is sent to
// Inngest's event API (a local stand-in here); if that send fails, the job ends in error and its
// pipeline's onFailure (the refund) runs once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { CREATE_EFFECTS_TABLE, effects, makeTestPipeline } from "@/test/jobs/test-pipeline";
import { countBy } from "@/test/jobs/helpers";

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let userId: string;
let server: Server;
let status = 200;
const received: { url: string; body: unknown }[] = [];
const PIPELINE = "dispatch-test";
const pipeline = makeTestPipeline(PIPELINE, async () => database.db);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ url: req.url ?? "", body: body ? JSON.parse(body) : null });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(status === 200 ? { ids: ["01EVENT"], status: 200 } : { error: "nope", status }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Read once by lib/jobs/drivers/inngest-settings.ts and the SDK when the modules below are first imported.
  process.env.INNGEST_EVENT_KEY = "test-event-key";
  process.env.INNGEST_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  database = await useTestDatabase();
  await database.db.$executeRawUnsafe(CREATE_EFFECTS_TABLE);
  userId = (await createUser(database.db)).id;
});

afterAll(async () => {
  delete process.env.INNGEST_EVENT_KEY;
  delete process.env.INNGEST_BASE_URL;
  await database?.teardown();
  await new Promise((resolve) => server?.close(resolve));
});

describe("enqueueJob with Inngest configured", () => {
  it("inserts the job and sends verbatim/job.requested with its id and user", async () => {
    const { enqueueJob } = await import("@/lib/jobs/enqueue");
    const job = await enqueueJob(database.db, { userId, pipeline, context: { trail: [] }, reservedSecs: 60 });
    expect(job).toMatchObject({
      status: "queued",
      reservedSecs: 60,
      input: { pipeline: PIPELINE, context: { trail: [] } },
    });
    const sent = received.at(-1)!;
    expect(sent.url).toBe("/e/test-event-key");
    expect(sent.body).toEqual([
      expect.objectContaining({ name: "verbatim/job.requested", data: { jobId: job.id, userId } }),
    ]);
  });

  it("a job due later is sent with that time as the event's ts, which Inngest schedules the run for", async () => {
    const { enqueueJob } = await import("@/lib/jobs/enqueue");
    const runAt = new Date(Date.now() + 3_600_000);
    const job = await enqueueJob(database.db, { userId, pipeline, context: { trail: [] }, runAt });
    expect(received.at(-1)!.body).toEqual([
      expect.objectContaining({ name: "verbatim/job.requested", data: { jobId: job.id, userId }, ts: runAt.getTime() }),
    ]);
  });

  it("a failed send ends the job in error with onFailure run once, and rethrows", async () => {
    const { enqueueJob } = await import("@/lib/jobs/enqueue");
    status = 500;
    try {
      await expect(
        enqueueJob(database.db, { userId, pipeline, context: { trail: [], tag: "fail" } }),
      ).rejects.toThrow();
    } finally {
      status = 200;
    }
    const job = await database.db.job.findFirstOrThrow({
      where: { input: { path: ["context", "tag"], equals: "fail" } },
    });
    expect(job).toMatchObject({ status: "error", errorCode: "dispatch_failed" });
    expect(countBy(await effects(database.db, job.id), (e) => e.kind)).toEqual({ refund: 1 });
  });
});
