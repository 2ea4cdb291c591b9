import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { gritSegments, seedTranscript, videoIds } from "@/test/publishing";

// The public page's data (app/t/[slug]: publishedForPage, its lines through publicLine) names who speaks where it
// changes, as the dashboard shows them, before and after the author renames a speaker. The real TED "Grit" captions
// (test/publishing.ts), its first half given to one name and the rest to another, as a podcast's own transcript.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let publishRoute: typeof import("@/app/v1/publish/route").POST;
let transcriptRoute: typeof import("@/app/v1/transcripts/[id]/route");

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  publishRoute = (await import("@/app/v1/publish/route")).POST;
  transcriptRoute = await import("@/app/v1/transcripts/[id]/route");
});
afterAll(async () => ctx?.teardown());

const newVideoId = videoIds("spl");

/** The speakers of the page's lines, as the page reads them back: [line index, name] where the name changes. */
async function pageSpeakers(slug: string) {
  const { publishedForPage } = await import("@/lib/publishing/published-page");
  const { lineSegments, publicLine } = await import("@/lib/publishing/public-lines");
  const page = await publishedForPage(slug);
  const lines = (page?.segments ?? []).map(publicLine);
  const sent = lines.flatMap((line, i) => (line[4] === undefined ? [] : [[i, line[4]] as const]));
  const read = lineSegments(lines).map((segment) => segment.speaker);
  return { sent, read, count: lines.length };
}

describe("the public page's lines", () => {
  it("name each speaker where the speaker changes, before and after a rename", async () => {
    const caller = await createCaller(ctx.db);
    const videoId = newVideoId();
    const transcript = await seedTranscript(ctx.db, caller.userId, { videoId });
    const segments = gritSegments();
    const half = Math.floor(segments.length / 2);
    const named = segments.map((s, i) => ({ ...s, speaker: i < half ? "Angela" : "Host" }));
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { segments: named as object[] } });
    const published = await callRoute(publishRoute, "/v1/publish", {
      method: "POST",
      headers: caller.headers,
      body: { url: `https://www.youtube.com/watch?v=${videoId}` },
    });
    expect(published.status).toBe(200);
    const { slug } = published.json as { slug: string };

    const before = await pageSpeakers(slug);
    // Two names sent, once each; every line read back as its speaker's.
    expect(before.sent).toEqual([
      [0, "Angela"],
      [half, "Host"],
    ]);
    expect(before.read).toEqual(named.map((s) => s.speaker));

    const renamed = await callRoute(transcriptRoute.PATCH, `/v1/transcripts/${transcript.id}`, {
      method: "PATCH",
      headers: caller.headers,
      body: { rename_speaker: { from: "Angela", to: "Angela Duckworth" } },
      params: { id: transcript.id },
    });
    expect(renamed.status).toBe(200);
    const after = await pageSpeakers(slug);
    expect(after.sent).toEqual([
      [0, "Angela Duckworth"],
      [half, "Host"],
    ]);
    expect(after.read.filter((name) => name === "Angela Duckworth")).toHaveLength(half);
  });
});
