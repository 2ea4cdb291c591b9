import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { gritSegments, seedTranscript, videoIds } from "@/test/publishing";
import { peerHeaderName } from "@/lib/http/client-address";
import { RATE_LIMITS } from "@/lib/http/rate-limits";

// A published transcript's files through the route handlers against PostgreSQL (the real TED "Grit" captions):
// each version of a file is rendered once and then served from memory (observed by the render counter), a
// save renders it again under its new ETag, a 304 renders nothing, and anonymous readers are limited per
// address (publicFile), 429 with Retry-After.

type Handler = Parameters<typeof callRoute>[0];

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let vtt: Handler;
let srt: Handler;
let download: Handler;
let publish: Handler;
let edit: Handler;
let renders: () => number;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  process.env.RATE_LIMIT_MULTIPLIER = "1";
  ctx = await useTestDatabase();
  vtt = (await import("@/app/v1/public/[slug]/transcript.vtt/route")).GET;
  srt = (await import("@/app/v1/public/[slug]/transcript.srt/route")).GET;
  download = (await import("@/app/v1/public/[slug]/download/route")).GET;
  publish = (await import("@/app/v1/publish/route")).POST;
  edit = (await import("@/app/v1/transcripts/[id]/route")).PATCH;
  renders = (await import("@/lib/publishing/public-files")).publicFileRenders;
});
afterAll(async () => ctx?.teardown());

const newVideoId = videoIds("files");
let addresses = 0;
/** A client address of its own (the request guard's peer header), so each test counts from zero. */
const freshAddress = () => ({ [peerHeaderName()]: `198.51.100.${++addresses}` });

async function published() {
  const author = await createCaller(ctx.db);
  const videoId = newVideoId();
  const transcript = await seedTranscript(ctx.db, author.userId, { videoId });
  const res = await callRoute(publish, "/v1/publish", {
    method: "POST",
    headers: author.headers,
    body: { url: `https://www.youtube.com/watch?v=${videoId}` },
  });
  expect(res.status).toBe(200);
  return { author, transcript, slug: (res.json as { slug: string }).slug };
}

const read = (handler: Handler, slug: string, path: string, headers: Record<string, string>) =>
  callRoute(handler, `/v1/public/${slug}/${path}`, { headers, params: { slug } });

describe("public transcript files", () => {
  it("are rendered once per version: the same ETag is served from memory, a 304 renders nothing, a save renders again", async () => {
    const { author, transcript, slug } = await published();
    const reader = freshAddress();
    const before = renders();
    const first = await read(vtt, slug, "transcript.vtt", reader);
    expect(first.status).toBe(200);
    expect(renders()).toBe(before + 1);
    const again = await read(vtt, slug, "transcript.vtt", reader);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    const etag = first.headers.get("etag")!;
    expect((await read(vtt, slug, "transcript.vtt", { ...reader, "if-none-match": etag })).status).toBe(304);
    expect(renders()).toBe(before + 1);
    // Another kind of file is a file of its own.
    expect((await read(srt, slug, "transcript.srt", reader)).status).toBe(200);
    expect(renders()).toBe(before + 2);

    const segments = gritSegments().map((s, i) => ({
      start: s.start,
      end: s.end,
      text: i === 0 ? "CORRECTED opening line" : s.text,
    }));
    const saved = await callRoute(edit, `/v1/transcripts/${transcript.id}`, {
      method: "PATCH",
      headers: author.headers,
      body: { segments },
      params: { id: transcript.id },
    });
    expect(saved.status, saved.text).toBe(200);
    const after = await read(vtt, slug, "transcript.vtt", { ...reader, "if-none-match": etag });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.text).toContain("CORRECTED opening line");
    expect(renders()).toBe(before + 3);
    expect((await read(vtt, slug, "transcript.vtt", reader)).text).toBe(after.text);
    expect(renders()).toBe(before + 3);
  });

  it("readers arriving together wait for one rendering; downloads are kept per format", async () => {
    const { slug } = await published();
    const reader = freshAddress();
    const before = renders();
    const answers = await Promise.all(Array.from({ length: 6 }, () => read(vtt, slug, "transcript.vtt", reader)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(renders()).toBe(before + 1);
    const md = await read(download, slug, "download?format=md", reader);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+-en\.md"$/);
    expect((await read(download, slug, "download?format=md", reader)).text).toBe(md.text);
    expect(renders()).toBe(before + 2);
  });

  it(`an anonymous reader past ${RATE_LIMITS.publicFile.points} files a minute meets 429 with Retry-After; another address does not`, async () => {
    const { slug } = await published();
    const reader = freshAddress();
    const limit = RATE_LIMITS.publicFile.points;
    const statuses: number[] = [];
    for (let i = 0; i < limit; i++) statuses.push((await read(vtt, slug, "transcript.vtt", reader)).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await read(download, slug, "download?format=srt", reader);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "rate_limited" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect((await read(vtt, slug, "transcript.vtt", freshAddress())).status).toBe(200);
  });
});
