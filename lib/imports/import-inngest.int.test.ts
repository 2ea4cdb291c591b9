// The import pipeline on the Inngest driver (@inngest/test): each link of the chain (list-items + advance,
// then the next job onSuccess enqueued) runs through the same run-pipeline function as every other job.
// The episodes publish Podcasting 2.0 transcripts, so each item completes on the captions path at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { Inngest } from "inngest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakePodcastServer;

beforeAll(async () => {
  fake = await startFakePodcastServer();
  Object.assign(process.env, {
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    RATE_LIMIT_MULTIPLIER: "0",
    IMPORT_CONCURRENCY: "2",
  });
  delete process.env.ASR_OPENAI_BASE_URL;
  database = await useTestDatabase();
});

afterAll(async () => {
  await fake?.close();
  await database?.teardown();
});

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

describe("imports on the Inngest driver", () => {
  it("every link of the chain runs through run-pipeline; the batch completes with the right counts", async () => {
    // Imported here, after the settings above: the Inngest client reads them when loaded.
    const { JOB_REQUESTED } = await import("@/lib/jobs/drivers/inngest-client");
    const { createRunPipelineFunction } = await import("@/lib/jobs/drivers/inngest");
    const { appPipelines } = await import("@/lib/app/pipelines");
    const { startImport } = await import("@/lib/imports/start-import");
    const { createOutbound } = await import("@/lib/http/outbound");
    const inngest = new Inngest({ id: "verbatim", logger: quiet, internalLogger: quiet });
    const fn = createRunPipelineFunction(inngest, { pipelines: appPipelines, db: async () => database.db });
    const user = await createUser(database.db);
    // An account webhook endpoint: import.completed is queued in the transaction that ends the batch, on this driver too.
    const { sealSecret } = await import("@/lib/auth/secret-box");
    const { generateWebhookSecret } = await import("@/lib/webhooks/signing-secret");
    await database.db.webhookEndpoint.create({
      data: {
        userId: user.id,
        url: "https://hooks.example.com/x",
        eventTypes: ["import.completed"],
        secretCipher: sealSecret("webhook", generateWebhookSecret()),
      },
    });
    const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1" });
    const { batch_id } = await startImport(
      user.id,
      { url: `${fake.origin}/generated/5.xml?prefix=inngest&transcripts=1`, lang: "en" },
      { outbound },
    );

    let links = 0;
    for (; links < 20; links++) {
      const next = await database.db.job.findFirst({
        where: { userId: user.id, status: "queued" },
        orderBy: { createdAt: "asc" },
      });
      if (!next) break;
      const { error } = await new InngestTestEngine({
        function: fn,
        events: [{ name: JOB_REQUESTED, data: { jobId: next.id, userId: user.id } }],
      }).execute();
      expect(error).toBeUndefined();
    }
    expect(links).toBeGreaterThanOrEqual(1);
    const batch = await database.db.importBatch.findUniqueOrThrow({ where: { id: batch_id } });
    expect(batch).toMatchObject({ status: "done", total: 5, done: 5, failed: 0, skipped: 0 });
    const entries = await database.db.transcription.findMany({ where: { userId: user.id } });
    expect(entries).toHaveLength(5);
    expect(entries.every((e) => e.origin === "captions" && e.state === "done")).toBe(true);
    const jobs = await database.db.job.findMany({ where: { userId: user.id } });
    expect(jobs.every((j) => j.status === "done")).toBe(true);
    expect(jobs).toHaveLength(links);
    const deliveries = await database.db.webhookDelivery.findMany({ where: { userId: user.id } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      eventType: "import.completed",
      status: "pending",
      url: "https://hooks.example.com/x",
    });
    expect((deliveries[0]!.payload as { data: unknown }).data).toMatchObject({
      batch_id,
      status: "done",
      total: 5,
      done: 5,
      failed: 0,
      skipped: 0,
    });
  });
});
