// Explore's count per transcript against the public viewer's: the figure next to a moment
// on /explore?q= is the one the transcript's page says when the link is followed, on the real TED "Grit"
// captions, and it follows the publisher's correction as the page does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { gritTrack, indexCorrections, storeTranscript } from "@/test/search";
import { findMatches } from "@/lib/browser/transcript-view";

const APP_URL = "https://verbatim.example";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let publisher: Awaited<ReturnType<typeof createCaller>>;
let slug: string;
let transcriptId: string;

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  const publishRoute = (await import("@/app/v1/publish/route")).POST;
  publisher = await createCaller(ctx.db);
  const { transcript } = await storeTranscript(ctx.db, {
    segments: gritTrack(),
    lang: "en",
    title: "Grit",
    userIds: [publisher.userId],
  });
  transcriptId = transcript.id;
  const published = await callRoute(publishRoute, "/v1/publish", {
    method: "POST",
    headers: publisher.headers,
    body: { url: transcript.sourceUrl, lang: "en" },
  });
  expect(published.status, published.text).toBe(200);
  slug = (published.json as { slug: string }).slug;
});
afterAll(async () => ctx?.teardown());

/** What /t/{slug}?q= says: its lines as the page gets them, counted by the page's search. */
async function viewerCount(q: string): Promise<number> {
  const { publishedForPage } = await import("@/lib/publishing/published-page");
  const { lineSegments, publicLine } = await import("@/lib/publishing/public-lines");
  const page = await publishedForPage(slug);
  return findMatches(lineSegments((page?.segments ?? []).map(publicLine)), q).length;
}

/** Occurrences in the fixture's own text, counted by hand (case-insensitive). */
const inText = (texts: string[], needle: string) =>
  texts.reduce((sum, text) => sum + text.toLowerCase().split(needle).length - 1, 0);

describe("Explore's count per transcript", () => {
  it("is the count the transcript's page shows, not the number of moments listed", async () => {
    const { exploreMoments } = await import("@/components/public/explore-moments");
    const found = await exploreMoments("grit");
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results.every((moment) => moment.slug === slug)).toBe(true);
    const shown = found.counts.get(slug);
    expect(shown).toBe(await viewerCount("grit"));
    expect(shown).toBe(
      inText(
        gritTrack().map((s) => s.text),
        "grit",
      ),
    );
    // The talk says it more often than the (at most 3) moments Explore lists for it.
    expect(shown).toBeGreaterThan(found.results.length);
  });

  it("follows the publisher's correction, as the page does", async () => {
    const { exploreMoments } = await import("@/components/public/explore-moments");
    const before = (await exploreMoments("grit")).counts.get(slug)!;
    const segments = gritTrack();
    segments[0] = { ...segments[0], text: `${segments[0].text} grit and more GRIT` };
    await ctx.db.transcriptRevision.create({
      data: {
        userId: publisher.userId,
        transcriptId,
        segments,
        sizeBytes: Buffer.byteLength(JSON.stringify(segments)),
      },
    });
    await indexCorrections(ctx.db);
    const after = (await exploreMoments("grit")).counts.get(slug);
    expect(after).toBe(before + 2);
    expect(after).toBe(await viewerCount("grit"));
  });

  it("reads at most 20 transcripts and leaves out a slug that is not published", async () => {
    const { viewerMatchCounts, VIEWER_COUNT_MAX_TRANSCRIPTS } = await import("@/lib/search/viewer-counts");
    expect(VIEWER_COUNT_MAX_TRANSCRIPTS).toBe(20);
    const counts = await viewerMatchCounts([slug, slug, "not-published-abcdef"], "grit");
    expect([...counts.keys()]).toEqual([slug]);
  });
});
