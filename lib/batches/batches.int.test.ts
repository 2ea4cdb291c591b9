import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { unzipSync, strFromU8 } from "fflate";
import { callRoute, handRequest } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { waitUntil } from "@/test/wait";

// A batch of links through the whole path: POST /v1/batches → the batch's chain of jobs on the local runner →
// captions from the YouTube fake (youtubei.js, YOUTUBE_BASE_URL), an episode's audio through speech recognition
// (the podcast host's fake and an OpenAI-compatible recogniser's) → GET shows the counts → retry → one zip.

const RECORDED_ID = "GJLlxj_dtq8"; // the recorded "Surface Go Review" player response
const LATER_ID = "Lt8rQ2wXy5K"; // unavailable at first, captioned once retried

let world: ImportWorld;
let youtube: FakeYoutube;
let routes: {
  create: typeof import("@/app/v1/batches/route").POST;
  get: typeof import("@/app/v1/batches/[batch_id]/route").GET;
  retry: typeof import("@/app/v1/batches/[batch_id]/retry/route").POST;
  download: typeof import("@/app/v1/batches/[batch_id]/download/route").GET;
};

beforeAll(async () => {
  youtube = await startFakeYoutube();
  youtube.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
  youtube.lookalikes.add(LATER_ID);
  youtube.scenarios.set(LATER_ID, { "*": "recorded/video_unavailable" });
  world = await startImportWorld("batches", () => ({
    YOUTUBE_BASE_URL: youtube.url,
    BATCH_MAX_LINKS: "8",
    BATCH_CONCURRENCY: "2",
  }));
  routes = {
    create: (await import("@/app/v1/batches/route")).POST,
    get: (await import("@/app/v1/batches/[batch_id]/route")).GET,
    retry: (await import("@/app/v1/batches/[batch_id]/retry/route")).POST,
    download: (await import("@/app/v1/batches/[batch_id]/download/route")).GET,
  };
});

afterAll(async () => {
  await world?.close();
  await youtube?.close();
});

interface Batch {
  id: string;
  status: string;
  total: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
  skipped: number;
  note: string | null;
  items: { line: number; url: string; status: string; note: string | null; transcript_id: string | null }[];
}

async function getBatch(headers: Record<string, string>, id: string) {
  return callRoute(routes.get, `/v1/batches/${id}`, { headers, params: { batch_id: id } });
}

async function ended(headers: Record<string, string>, id: string): Promise<Batch> {
  return waitUntil(
    `batch ${id} to end`,
    async () => {
      const seen = (await getBatch(headers, id)).json as Batch;
      return ["done", "partial", "error"].includes(seen.status) ? seen : null;
    },
    { everyMs: 100 },
  );
}

async function usedSeconds(userId: string): Promise<number> {
  const periods = await world.ctx.db.usagePeriod.findMany({ where: { userId } });
  return periods.reduce((sum, p) => sum + p.usedSeconds, 0);
}

describe("a batch of links", () => {
  it("runs mixed links to the end, reports duplicates and bad lines, retries the failed, charges each item once", async () => {
    const { userId, headers } = await world.caller();
    const { sealSecret } = await import("@/lib/auth/secret-box");
    await world.ctx.db.webhookEndpoint.create({
      data: {
        userId,
        url: "https://hooks.example.com/verbatim",
        eventTypes: ["batch.completed"],
        secretCipher: sealSecret("webhook", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
      },
    });
    const episode = `${world.podcasts.origin}/ex/batch-1.mp3`;
    const text = [
      "url,title",
      `https://www.youtube.com/watch?v=${FAKE_IDS.captioned},How bread rises`,
      `https://youtu.be/${RECORDED_ID},Surface Go`,
      `${episode},An episode`,
      `https://www.youtube.com/watch?v=${LATER_ID},Not yet`,
      `https://youtu.be/${FAKE_IDS.captioned}?t=5,again`,
      "https://example.com/not-a-video,nope",
    ].join("\n");
    const created = await callRoute(routes.create, "/v1/batches", { headers, body: { text } });
    expect(created.status).toBe(201);
    const id = (created.json as Batch).id;
    expect(created.json).toMatchObject({ total: 6, skipped: 2, status: "queued" });
    expect((created.json as Batch).items.filter((i) => i.status === "skipped").map((i) => [i.line, i.note])).toEqual([
      [6, "The same link as line 2."],
      [7, expect.stringMatching(/^Not a link Verbatim can transcribe/)],
    ]);

    const first = await ended(headers, id);
    expect(first).toMatchObject({ status: "partial", done: 3, failed: 1, skipped: 2, queued: 0, running: 0 });
    expect(first.items.find((i) => i.line === 5)).toMatchObject({ status: "failed" });
    expect(first.note).toMatch(/^1 of 6 items failed; the first: /);
    const charged = await usedSeconds(userId);
    expect(charged).toBeGreaterThan(0);
    expect(await world.ctx.db.transcription.count({ where: { userId } })).toBe(3);

    // The video comes back: one action queues the failed item again; nothing else is started or charged again.
    youtube.scenarios.delete(LATER_ID);
    const retried = await callRoute(routes.retry, `/v1/batches/${id}/retry`, {
      headers,
      method: "POST",
      params: { batch_id: id },
    });
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ status: "running", failed: 0 });
    const second = await ended(headers, id);
    expect(second).toMatchObject({ status: "done", done: 4, failed: 0, skipped: 2, note: null });
    const later = await world.ctx.db.transcription.findFirstOrThrow({ where: { userId, videoId: LATER_ID } });
    expect(await usedSeconds(userId)).toBe(charged + later.durationSeconds);
    expect(await world.ctx.db.transcription.count({ where: { userId, state: "done" } })).toBe(4);

    // A retry with nothing failed changes nothing and charges nothing.
    const again = await callRoute(routes.retry, `/v1/batches/${id}/retry`, {
      headers,
      method: "POST",
      params: { batch_id: id },
    });
    expect(again.json).toMatchObject({ status: "done", done: 4 });
    expect(await usedSeconds(userId)).toBe(charged + later.durationSeconds);

    // One batch.completed a run: the first end and the end after the retry.
    const events = await world.ctx.db.webhookDelivery.findMany({
      where: { userId, eventType: "batch.completed" },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => (e.payload as { data: { status: string } }).data.status)).toEqual(["partial", "done"]);

    // Every result, in two formats, one zip.
    const request = new NextRequest(new URL(`/v1/batches/${id}/download?formats=srt,md`, "http://localhost:3000"), {
      headers,
    });
    const response = await handRequest(routes.download, request, { batch_id: id });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const names = Object.keys(files).sort();
    expect(names).toHaveLength(8);
    expect(names.filter((n) => n.endsWith(".srt")).map((n) => n.slice(0, 4))).toEqual(["0002", "0003", "0004", "0005"]);
    const note = strFromU8(files[names.find((n) => n.startsWith("0003") && n.endsWith(".md"))!]!);
    expect(note).toMatch(/^---\n/);
    expect(note).toContain(RECORDED_ID);
  }, 180_000);

  it("refuses a list longer than BATCH_MAX_LINKS (413), one with no link (422), and another account's batch (404)", async () => {
    const { headers } = await world.caller();
    const links = Array.from({ length: 9 }, (_, i) => `https://www.youtube.com/watch?v=${String(i).padStart(11, "x")}`);
    const big = await callRoute(routes.create, "/v1/batches", { headers, body: { links } });
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ code: "payload_too_large" });
    expect((big.json as { detail: string }).detail).toMatch(/at most 8/);

    const none = await callRoute(routes.create, "/v1/batches", { headers, body: { text: "\n# nothing here\n\n" } });
    expect(none.status).toBe(422);
    const both = await callRoute(routes.create, "/v1/batches", { headers, body: { text: "a", links: ["b"] } });
    expect(both.status).toBe(422);

    const mine = await callRoute(routes.create, "/v1/batches", { headers, body: { links: ["nothing to see"] } });
    expect(mine.status).toBe(201);
    // Every line skipped: the batch ends at once, saying why.
    expect(mine.json).toMatchObject({ status: "error", skipped: 1, total: 1 });
    expect((mine.json as Batch).note).toMatch(/^Nothing to transcribe/);
    const other = await world.caller();
    const id = (mine.json as Batch).id;
    expect((await getBatch(other.headers, id)).status).toBe(404);
    const retry = await callRoute(routes.retry, `/v1/batches/${id}/retry`, {
      headers: other.headers,
      method: "POST",
      params: { batch_id: id },
    });
    expect(retry.status).toBe(404);
  });
});
