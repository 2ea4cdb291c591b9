import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import type { FakePodcastServer } from "@/test/fakes/podcasts/server";
import { waitUntil } from "@/test/wait";

// GET /v1/import/{batch_id}/items against real imports: the local runner lists feeds from the fake podcast host
// and transcribes each episode through the real speech-recognition path (the OpenAI-compatible fake answers at
// once), real PostgreSQL. Items come in listing order with their states; finished ones link to their transcript.

let world: ImportWorld;
let ctx: ImportWorld["ctx"];
let fake: FakePodcastServer;
let routes: {
  start: typeof import("@/app/v1/import/route").POST;
  get: typeof import("@/app/v1/import/[batch_id]/route").GET;
  items: typeof import("@/app/v1/import/[batch_id]/items/route").GET;
  transcript: typeof import("@/app/v1/transcripts/[id]/route").GET;
  retry: typeof import("@/app/v1/import/[batch_id]/items/retry/route").POST;
};

beforeAll(async () => {
  world = await startImportWorld("import-items");
  ({ ctx, podcasts: fake } = world);
  routes = {
    start: (await import("@/app/v1/import/route")).POST,
    get: (await import("@/app/v1/import/[batch_id]/route")).GET,
    items: (await import("@/app/v1/import/[batch_id]/items/route")).GET,
    transcript: (await import("@/app/v1/transcripts/[id]/route")).GET,
    retry: (await import("@/app/v1/import/[batch_id]/items/retry/route")).POST,
  };
});

afterAll(async () => {
  await world?.close();
});

async function caller() {
  const { userId, headers } = await world.caller();
  return { user: { id: userId }, auth: headers };
}

interface Item {
  guid: string;
  title: string;
  url: string;
  position: number;
  status: string;
  note: string | null;
  job_id: string | null;
  transcript_id: string | null;
}
interface Page {
  items: Item[];
  next_cursor: string | null;
}

async function startImport(auth: Record<string, string>, url: string): Promise<string> {
  const res = await callRoute(routes.start, "/v1/import", { headers: auth, body: { url } });
  expect(res.status).toBe(200);
  return (res.json as { batch_id: string }).batch_id;
}

async function waitForBatch(
  auth: Record<string, string>,
  id: string,
): Promise<{ status: string; done: number; failed: number; skipped: number }> {
  return waitUntil(
    `batch ${id} to finish`,
    async () => {
      const batch = (await callRoute(routes.get, `/v1/import/${id}`, { headers: auth, params: { batch_id: id } }))
        .json as { status: string; done: number; failed: number; skipped: number };
      return ["done", "partial", "error"].includes(batch.status) ? batch : null;
    },
    { timeoutMs: 120_000, everyMs: 100 },
  );
}

function listItems(auth: Record<string, string>, id: string, search = "") {
  return callRoute(routes.items, `/v1/import/${id}/items${search}`, { headers: auth, params: { batch_id: id } });
}

describe("GET /v1/import/{batch_id}/items", () => {
  let owner: Awaited<ReturnType<typeof caller>>;
  let batchId: string;

  beforeAll(async () => {
    owner = await caller();
    // Two episodes first: the second import finds them in the history (skipped).
    const first = await startImport(owner.auth, `${fake.origin}/generated/2.xml?prefix=items&durations=0`);
    expect(await waitForBatch(owner.auth, first)).toMatchObject({ status: "done", done: 2 });
    // Free tier: 900 s a month; 2 used by the first import. Leave 2 s: two of the three new episodes fit.
    const { chargeSeconds } = await import("@/lib/usage/charge");
    await ctx.db.$transaction((tx) => chargeSeconds(tx, owner.user.id, 896));
    batchId = await startImport(owner.auth, `${fake.origin}/generated/5.xml?prefix=items&durations=0`);
    expect(await waitForBatch(owner.auth, batchId)).toMatchObject({
      status: "partial",
      done: 2,
      skipped: 2,
      failed: 1,
    });
  });

  it("the owner sees every item in listing order with its state, note, job and transcript", async () => {
    const res = await listItems(owner.auth, batchId);
    expect(res.status).toBe(200);
    const page = res.json as Page;
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((i) => i.position)).toEqual([0, 1, 2, 3, 4]);
    const rows = await ctx.db.importItem.findMany({ where: { batchId }, orderBy: { position: "asc" } });
    expect(page.items.map((i) => i.guid)).toEqual(rows.map((r) => r.guid));
    expect(page.items.every((i) => /^Episode \d$/.test(i.title) && i.url.startsWith(`${fake.origin}/ex/items-`))).toBe(
      true,
    );

    const byStatus = (status: string) => page.items.filter((i) => i.status === status);
    expect([byStatus("done").length, byStatus("skipped").length, byStatus("failed").length]).toEqual([2, 2, 1]);
    // The skipped ones are the first import's episodes.
    expect(
      byStatus("skipped")
        .map((i) => i.guid)
        .sort(),
    ).toEqual(["items-1", "items-2"]);
    expect(byStatus("skipped").every((i) => i.note === "Already in your history." && i.job_id === null)).toBe(true);
    const [failed] = byStatus("failed");
    expect(failed!.note).toMatch(/allowance/);
    expect(failed!.transcript_id).toBeNull();
    expect(byStatus("done").every((i) => i.job_id !== null && i.note === null)).toBe(true);

    // Done and skipped items name the transcript of their history entry, which the owner can open.
    const entries = await ctx.db.transcription.findMany({ where: { userId: owner.user.id, state: "done" } });
    const historyIds = new Set(entries.map((e) => e.transcriptId));
    const finished = [...byStatus("done"), ...byStatus("skipped")];
    expect(new Set(finished.map((i) => i.transcript_id)).size).toBe(4);
    for (const item of finished) {
      expect(historyIds.has(item.transcript_id)).toBe(true);
      const transcript = await callRoute(routes.transcript, `/v1/transcripts/${item.transcript_id}`, {
        headers: owner.auth,
        params: { id: item.transcript_id! },
      });
      expect(transcript.status).toBe(200);
      expect((transcript.json as { segments: { text: string }[] }).segments[0]!.text).toBe("Hello.");
    }
    // A done item's transcript is the one its job made.
    const doneEntry = entries.find((e) => e.transcriptId === byStatus("done")[0]!.transcript_id);
    expect(doneEntry?.jobId).toBe(byStatus("done")[0]!.job_id);
  });

  it("pages by cursor: no item repeated or left out", async () => {
    const all = ((await listItems(owner.auth, batchId)).json as Page).items;
    const seen: Item[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await listItems(
        owner.auth,
        batchId,
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.status).toBe(200);
      const page = res.json as Page;
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);

    expect((await listItems(owner.auth, batchId, "?cursor=not-a-cursor")).status).toBe(422);
    expect((await listItems(owner.auth, batchId, "?limit=0")).status).toBe(422);
    expect((await listItems(owner.auth, batchId, "?limit=201")).status).toBe(422);
  });

  it("another user's batch and an unknown id answer the same 404; no credentials → 401", async () => {
    const other = await caller();
    const res = await listItems(other.auth, batchId);
    expect(res.status).toBe(404);
    const unknown = await listItems(other.auth, "c000000000000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual(res.json);
    expect(
      (await callRoute(routes.items, `/v1/import/${batchId}/items`, { params: { batch_id: batchId } })).status,
    ).toBe(401);
  });

  it("a running item shows its job and no transcript yet; a queued one neither", async () => {
    const { user, auth } = await caller();
    const batch = await ctx.db.importBatch.create({
      data: { userId: user.id, sourceUrl: `${fake.origin}/generated/2.xml`, status: "running", total: 2 },
    });
    await ctx.db.importItem.createMany({
      data: [
        { batchId: batch.id, guid: "b", title: "Second", audioUrl: `${fake.origin}/ex/running-1.mp3`, position: 1 },
        {
          batchId: batch.id,
          guid: "a",
          title: "First",
          audioUrl: `${fake.origin}/ex/running-0.mp3`,
          position: 0,
          status: "running",
          jobId: "job-in-flight",
        },
      ],
    });
    const page = (await listItems(auth, batch.id)).json as Page;
    expect(page.items.map((i) => [i.title, i.status, i.job_id, i.transcript_id])).toEqual([
      ["First", "running", "job-in-flight", null],
      ["Second", "queued", null, null],
    ]);
  });

  // Last in this describe: it changes the shared batch.
  it("POST …/items/retry: a failed item is queued again, the ended batch runs again and finishes it", async () => {
    const retry = (auth: Record<string, string>, id: string, guid: string) =>
      callRoute(routes.retry, `/v1/import/${id}/items/retry`, {
        headers: auth,
        params: { batch_id: id },
        body: { guid },
      });
    const before = (await listItems(owner.auth, batchId)).json as Page;
    const failed = before.items.find((i) => i.status === "failed")!;
    const done = before.items.find((i) => i.status === "done")!;

    // Nothing changes for an item that did not fail, another user's batch, or an unknown guid.
    expect((await retry(owner.auth, batchId, done.guid)).json).toMatchObject({ guid: done.guid, status: "done" });
    const stranger = await caller();
    expect((await retry(stranger.auth, batchId, failed.guid)).status).toBe(404);
    expect((await retry(owner.auth, batchId, "no-such-guid")).status).toBe(404);
    expect((await ctx.db.importItem.findFirstOrThrow({ where: { batchId, guid: failed.guid } })).status).toBe("failed");

    // It failed for the allowance: free some, then retry.
    const { refundSeconds } = await import("@/lib/usage/charge");
    const { calendarMonth } = await import("@/lib/usage/allowance");
    await ctx.db.$transaction((tx) => refundSeconds(tx, owner.user.id, 896, calendarMonth().start));
    const res = await retry(owner.auth, batchId, failed.guid);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ guid: failed.guid, status: "queued", note: null, job_id: null });
    expect(await waitForBatch(owner.auth, batchId)).toMatchObject({ status: "done", done: 3, skipped: 2, failed: 0 });
    const after = (await listItems(owner.auth, batchId)).json as Page;
    expect(after.items.find((i) => i.guid === failed.guid)).toMatchObject({ status: "done", note: null });
    expect(after.items.find((i) => i.guid === failed.guid)!.transcript_id).not.toBeNull();
  });
});
