import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";
import { createOutbound } from "@/lib/http/outbound";
import { parseSourceUrl } from "@/lib/sources";
import type { Segment } from "@/lib/formats";

// A podcast episode whose feed publishes only a text/plain transcript: remembered for the user, fetched from
// the fake podcast server through the outbound guard, and its names laid over recognised segments in a
// worker thread, on real PostgreSQL; or, when the file is in fact WebVTT, stored as the episode's transcript.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakePodcastServer;
let remember: typeof import("@/lib/podcasts/episode-transcripts").rememberEpisodeTranscripts;
let withNames: typeof import("@/lib/transcripts/published-text-names").withPublishedTextNames;
let getPublished: typeof import("@/lib/transcripts/published-transcript").getPublishedTranscript;
const local = () => true;
const outbound = createOutbound({ allowPrivateFor: local });

// What a recogniser heard: lower case, no punctuation, one word wrong ("gilan").
const recognised: Segment[] = [
  { start: 0, end: 3, text: "welcome back to the show" },
  { start: 3, end: 6, text: "today we talk about transcripts" },
  { start: 6, end: 9, text: "thanks for having me gilan" },
  { start: 9, end: 12, text: "i have been reading them for years" },
  { start: 12, end: 14, text: "then let us begin" },
];

beforeAll(async () => {
  ctx = await useTestDatabase();
  fake = await startFakePodcastServer();
  ({ rememberEpisodeTranscripts: remember } = await import("@/lib/podcasts/episode-transcripts"));
  ({ withPublishedTextNames: withNames } = await import("@/lib/transcripts/published-text-names"));
  ({ getPublishedTranscript: getPublished } = await import("@/lib/transcripts/published-transcript"));
});
afterAll(async () => {
  await fake?.close();
  await ctx?.teardown();
});

async function episodeWith(transcriptPath: string) {
  const user = await createUser(ctx.db);
  const audioUrl = `${fake.origin}/ex/text-1.mp3`;
  await remember(
    user.id,
    [
      {
        guid: "text-1",
        title: "Text transcript",
        audioUrl,
        published: null,
        duration: null,
        transcripts: [{ url: `${fake.origin}/ex/${transcriptPath}`, type: "text/plain", language: "en" }],
      },
    ],
    { allowPrivateFor: local },
  );
  const source = parseSourceUrl(audioUrl, { allowPrivateFor: local })!;
  return { userId: user.id, platform: source.platform, videoId: source.videoId, lang: "en" };
}

describe("a recognised episode and its podcast's text transcript", () => {
  it("the recognised segments get the speakers the text names; text and times stay the recogniser's", async () => {
    const who = await episodeWith("text-1/transcript.txt");
    const named = await withNames(who, recognised, { outbound });
    expect(named.map((s) => s.speaker)).toEqual(["Travis", "Travis", "Gilon", "Gilon", "Travis"]);
    expect(named.map(({ speaker: _s, ...rest }) => rest)).toEqual(recognised);
  });

  it("a text/plain file that is in fact WebVTT (a real one) is the episode's transcript, with its speakers", async () => {
    const who = await episodeWith("labs/devinterrupted-labs.txt");
    const stored = await getPublished(who.userId, { ...who, canonicalUrl: `${fake.origin}/ex/text-1.mp3` }, "en", {
      outbound,
    });
    const segments = stored!.transcript.segments as unknown as Segment[];
    expect(segments).toHaveLength(20);
    expect(segments[0]).toMatchObject({ start: 0, end: 2.31, speaker: "Yishai Beeri" });
    expect([...new Set(segments.map((s) => s.speaker))]).toEqual(["Yishai Beeri", "Conor Bronsdon", "Dan Lines"]);
    expect(segments.at(-1)).toMatchObject({ text: "And best practices that we find.", speaker: "Dan Lines" });
  });

  it("a plain text is not a transcript of its own: no times, recognition goes on", async () => {
    const who = await episodeWith("text-1/transcript.txt");
    expect(
      await getPublished(who.userId, { ...who, canonicalUrl: `${fake.origin}/ex/text-1.mp3` }, "en", { outbound }),
    ).toBeNull();
  });

  it("a text transcript that cannot be fetched changes nothing", async () => {
    const who = await episodeWith("text-1/missing");
    expect(await withNames(who, recognised, { outbound })).toBe(recognised);
  });
});
