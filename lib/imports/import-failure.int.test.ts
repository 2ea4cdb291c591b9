import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { waitUntil } from "@/test/wait";

// An import whose job has used up its attempts (the local runner fails it the moment it claims it again) must
// end the batch in a state that adds up: nothing left queued or running, items whose transcription ended
// settled as usual, the rest failed with a note, the batch partial (or error when nothing got through).

let world: ImportWorld;
let getRoute: typeof import("@/app/v1/import/[batch_id]/route").GET;

beforeAll(async () => {
  world = await startImportWorld("import-failure");
  getRoute = (await import("@/app/v1/import/[batch_id]/route")).GET;
});

afterAll(async () => {
  await world?.close();
});

const STOPPED = "The podcast host kept answering 503.";

/** A transcription job in a given state (never claimed by the runner: final, or leased far into the future). */
async function transcriptionJob(userId: string, status: "done" | "error" | "running") {
  const { db } = world.ctx;
  return db.job.create({
    data: {
      userId,
      status,
      input: { pipeline: "transcribe", context: {} },
      ...(status === "error"
        ? { errorCode: "media_unreadable", errorMessage: "The file is not audio ffprobe can read." }
        : {}),
      ...(status === "running" ? { leaseOwner: "another-runner", leaseUntil: new Date(Date.now() + 3_600_000) } : {}),
    },
  });
}

async function exhaustedImport(userId: string, items: { status: string; jobId?: string }[]) {
  const { db } = world.ctx;
  const batch = await db.importBatch.create({
    data: { userId, sourceUrl: "https://feeds.example.org/show.xml", status: "running", total: items.length },
  });
  await db.importItem.createMany({
    data: items.map((item, position) => ({
      batchId: batch.id,
      guid: `ep-${position}`,
      title: `Episode ${position}`,
      audioUrl: `https://media.example.org/${position}.mp3`,
      position,
      ...item,
    })),
  });
  // The chain's current link after its last attempt failed: the next claim finds it out of attempts.
  const context = { batchId: batch.id, userId, url: batch.sourceUrl, lang: "en" };
  const job = await db.job.create({
    data: {
      userId,
      input: { pipeline: "import", context },
      attempts: 5,
      maxAttempts: 5,
      errorCode: "upstream_failed",
      errorMessage: STOPPED,
    },
  });
  await waitUntil(
    `the runner to fail the import job ${job.id}`,
    async () => (await db.job.findUniqueOrThrow({ where: { id: job.id } })).status === "error" || null,
    { everyMs: 100, state: () => db.job.findUnique({ where: { id: job.id } }) },
  );
  return batch.id;
}

describe("an import job out of attempts", () => {
  it("settles finished items, fails the queued and still-running ones with a note, and ends partial", async () => {
    const { userId, headers } = await world.caller();
    const done = await transcriptionJob(userId, "done");
    const failed = await transcriptionJob(userId, "error");
    const running = await transcriptionJob(userId, "running");
    const batchId = await exhaustedImport(userId, [
      { status: "done" },
      { status: "running", jobId: done.id },
      { status: "running", jobId: failed.id },
      { status: "running", jobId: running.id },
      { status: "queued" },
      { status: "skipped" },
    ]);

    const res = await callRoute(getRoute, `/v1/import/${batchId}`, { headers, params: { batch_id: batchId } });
    expect(res.json).toMatchObject({ total: 6, done: 2, failed: 3, skipped: 1, status: "partial", note: STOPPED });
    const items = await world.ctx.db.importItem.findMany({ where: { batchId }, orderBy: { position: "asc" } });
    expect(items.map((i) => i.status)).toEqual(["done", "done", "failed", "failed", "failed", "skipped"]);
    expect(items[2]!.note).toBe("The file is not audio ffprobe can read.");
    expect(items[3]!.note).toBe(
      `The import stopped before this item's transcription finished (it may still appear in your history): ${STOPPED}`,
    );
    expect(items[4]!.note).toBe(`The import stopped: ${STOPPED}`);
    // Nothing of this user's holds an import concurrency slot any more.
    expect(
      await world.ctx.db.importItem.count({ where: { status: { in: ["queued", "running"] }, batch: { userId } } }),
    ).toBe(0);
  });

  it("ends in error when nothing got through", async () => {
    const { userId, headers } = await world.caller();
    const running = await transcriptionJob(userId, "running");
    const batchId = await exhaustedImport(userId, [{ status: "running", jobId: running.id }, { status: "queued" }]);
    const res = await callRoute(getRoute, `/v1/import/${batchId}`, { headers, params: { batch_id: batchId } });
    expect(res.json).toMatchObject({ total: 2, done: 0, failed: 2, skipped: 0, status: "error", note: STOPPED });
  });
});
