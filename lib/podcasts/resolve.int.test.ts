import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { bearer, callRoute } from "@/test/request";
import { HUGE_FEED_BYTES, startFakePodcastServer, type FakePodcastServer } from "@/test/fakes/podcasts/server";

/** The one item of a 422 (HTTPValidationError): what the feed or URL was refused for. */
const issue = (body: unknown) => (body as { detail: { type: string; msg: string; loc: unknown[] }[] }).detail[0]!;

// POST /v1/podcast/resolve against a fake podcast host (real feeds recorded from public repositories, hostile
// feeds made by hand, the iTunes lookup API) with real PostgreSQL; then POST /v1/transcript for an episode
// that publishes a transcript answers 200 with it (source `captions`), no speech recognition configured.

const FEED_CAP = 5 * 1024 * 1024;

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakePodcastServer;
let resolveRoute: typeof import("@/app/v1/podcast/resolve/route").POST;
let transcriptRoute: typeof import("@/app/v1/transcript/route").POST;
let keys: typeof import("@/lib/auth/api-keys");

beforeAll(async () => {
  fake = await startFakePodcastServer();
  Object.assign(process.env, {
    OUTBOUND_ALLOW_PRIVATE_HOSTS: "127.0.0.1",
    ITUNES_LOOKUP_URL: `${fake.origin}/lookup`,
    PODCAST_FEED_MAX_BYTES: String(FEED_CAP),
    RATE_LIMIT_MULTIPLIER: "0",
  });
  delete process.env.ASR_OPENAI_BASE_URL;
  process.env.ASR_PROVIDER = "off";
  delete process.env.ASSEMBLYAI_API_KEY;
  fake.shows.set("1000", {
    feed: "/feeds/podcastindex-example.xml",
    episodes: [
      {
        trackId: 2003,
        guid: "https://example.com/ep0003",
        title: "Episode 3 - The Future",
        audioPath: "/ex/file-03.mp3",
      },
    ],
  });
  fake.shows.set("1001", { feed: "/feeds/giantbomb-podcast.rss" });
  ctx = await useTestDatabase();
  resolveRoute = (await import("@/app/v1/podcast/resolve/route")).POST;
  transcriptRoute = (await import("@/app/v1/transcript/route")).POST;
  keys = await import("@/lib/auth/api-keys");
});

afterAll(async () => {
  await fake?.close();
  await ctx?.teardown();
});

async function caller() {
  const user = await createUser(ctx.db);
  const { key } = await keys.ensureApiKey(user.id);
  return { user, auth: bearer(key!) };
}

interface Episode {
  guid: string;
  title: string;
  audio_url: string;
  published: string | null;
  duration: string | null;
  has_transcript: boolean;
}
interface Resolved {
  kind: string;
  show: { title: string } | null;
  episodes: Episode[] | null;
  audio_url: string | null;
}

async function resolve(auth: Record<string, string>, url: string, page: { offset?: number; limit?: number } = {}) {
  const res = await callRoute(resolveRoute, "/v1/podcast/resolve", { headers: auth, body: { url, ...page } });
  return {
    ...res,
    body: res.json as Resolved & {
      detail?: string;
      code?: string;
      total_episodes?: number;
      next_offset?: number | null;
    },
  };
}

describe("POST /v1/podcast/resolve", () => {
  it("needs credentials and a URL", async () => {
    expect(
      (await callRoute(resolveRoute, "/v1/podcast/resolve", { body: { url: `${fake.origin}/feeds/heise.atom` } }))
        .status,
    ).toBe(401);
    const { auth } = await caller();
    const missing = await callRoute(resolveRoute, "/v1/podcast/resolve", { headers: auth, body: {} });
    expect(missing.status).toBe(422);
    expect((missing.json as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["body", "url"]);
  });

  it("a large real feed: all 730 episodes by default, with normalized durations; a smaller limit pages", async () => {
    const { auth } = await caller();
    const { status, body } = await resolve(auth, `${fake.origin}/feeds/giantbomb-podcast.rss`);
    expect(status).toBe(200);
    expect(body.kind).toBe("feed");
    expect(body.show).toEqual({ title: "Giant Bombcast" });
    expect(body.audio_url).toBeNull();
    // A client that follows the contract (no paging) gets the whole feed.
    expect(body.episodes).toHaveLength(730);
    expect(body).toMatchObject({ total_episodes: 730, next_offset: null });
    // A feed without Podcasting 2.0 transcripts: every episode needs speech recognition.
    expect(body.episodes!.some((e) => e.has_transcript)).toBe(false);
    // Paged through with `next_offset`: every episode once, in the feed's order.
    const guids: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await resolve(auth, `${fake.origin}/feeds/giantbomb-podcast.rss`, { offset, limit: 300 });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      guids.push(...page.body.episodes!.map((e) => e.guid));
      offset = page.body.next_offset!;
    }
    expect(guids).toEqual(body.episodes!.map((e) => e.guid));
    expect(new Set(guids).size).toBe(730);
    const over = await callRoute(resolveRoute, "/v1/podcast/resolve", {
      headers: auth,
      body: { url: `${fake.origin}/feeds/giantbomb-podcast.rss`, limit: 5001 },
    });
    expect(over.status).toBe(422);
    expect(body.episodes![0]).toEqual({
      guid: "1600-2823",
      title: "Giant Bombcast 603: Call of Tuesday",
      audio_url:
        "https://dts.podtrac.com/redirect.mp3/www.giantbomb.com/podcasts/download/2823/603__Call_of_Tuesday-10-01-2019-6277737276.mp3",
      published: "2019-10-01T22:30:00.000Z",
      duration: "02:54:35",
      has_transcript: false,
    });
  });

  it("past 5,000 episodes the answer pages: the first 5,000, then the rest from next_offset", async () => {
    const { auth } = await caller();
    const url = `${fake.origin}/generated/5003.xml?prefix=big`;
    const answered = await resolve(auth, url);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const first = answered.body;
    expect(first.episodes).toHaveLength(5000);
    expect(first).toMatchObject({ total_episodes: 5003, next_offset: 5000 });
    const rest = (await resolve(auth, url, { offset: first.next_offset! })).body;
    expect(rest.episodes).toHaveLength(3);
    expect(rest.next_offset).toBeNull();
    expect(new Set([...first.episodes!, ...rest.episodes!].map((e) => e.guid)).size).toBe(5003);
  });

  it("HH:MM:SS durations; Atom feeds", async () => {
    const { auth } = await caller();
    const taverncast = (await resolve(auth, `${fake.origin}/feeds/itunes-missing-image.rss`)).body;
    expect(taverncast.episodes).toHaveLength(131);
    expect(taverncast.total_episodes).toBe(131);
    expect(taverncast.episodes![0]!.duration).toBe("01:09:50");
    const atom = (await resolve(auth, `${fake.origin}/feeds/rfc4287-example.atom`)).body;
    expect(atom).toMatchObject({ kind: "feed", show: { title: "dive into mark" } });
    expect(atom.episodes!.map((e) => e.audio_url)).toEqual(["http://example.org/audio/ph34r_my_podcast.mp3"]);
  });

  it("a feed in ISO-8859-1 is read in its encoding: by its XML declaration, its Content-Type, and past a wrong charset=utf-8", async () => {
    const { auth } = await caller();
    const title = "Jornal de Notícias - Últimas Notícias";
    for (const charset of ["none", "iso-8859-1", "utf-8"]) {
      const res = await resolve(auth, `${fake.origin}/feeds/jn-iso-8859-1.rss?charset=${charset}`);
      expect(res.body, charset).toMatchObject({ kind: "feed", show: { title } });
    }
  });

  it("an Apple Podcasts show link, through the iTunes lookup API", async () => {
    const { auth } = await caller();
    const { status, body } = await resolve(auth, "https://podcasts.apple.com/us/podcast/giant-bombcast/id1001");
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: "feed", show: { title: "Giant Bombcast" }, total_episodes: 730 });
    expect(body.episodes).toHaveLength(730);
  });

  it("an Apple Podcasts episode link → that episode of the feed", async () => {
    const { auth } = await caller();
    const { status, body } = await resolve(auth, "https://podcasts.apple.com/us/podcast/podcasting-2-0/id1000?i=2003");
    expect(status).toBe(200);
    expect(body.kind).toBe("episode");
    expect(body.show).toEqual({ title: "Podcasting 2.0 Namespace Example" });
    expect(body.episodes).toHaveLength(1);
    expect(body.episodes![0]).toMatchObject({
      guid: `${fake.origin}/ex/ep0003`,
      title: "Episode 3 - The Future",
      audio_url: `${fake.origin}/ex/file-03.mp3`,
    });
    expect(body.audio_url).toBe(`${fake.origin}/ex/file-03.mp3`);
  });

  it("an Apple id Apple does not know → 404; a non-Apple host with the same path is just a URL", async () => {
    const { auth } = await caller();
    const unknown = await resolve(auth, "https://podcasts.apple.com/us/podcast/x/id999");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("podcast_not_found");
    const episode = await resolve(auth, "https://podcasts.apple.com/us/podcast/x/id1000?i=1");
    expect(episode.status).toBe(404);
  });

  it("a direct audio URL → kind audio (the body is not read)", async () => {
    const { auth } = await caller();
    const { status, body } = await resolve(auth, `${fake.origin}/ex/some-episode.mp3`);
    expect(status).toBe(200);
    expect(body).toEqual({
      kind: "audio",
      show: null,
      episodes: null,
      audio_url: `${fake.origin}/ex/some-episode.mp3`,
    });
  });

  it("refuses a malformed feed, a web page, a missing feed and internal addresses with clear answers", async () => {
    const { auth } = await caller();
    const malformed = await resolve(auth, `${fake.origin}/hostile/malformed.xml`);
    expect(malformed.status).toBe(422);
    expect(issue(malformed.body).type).toBe("feed_invalid");
    expect(issue(malformed.body).msg).toMatch(/not well-formed XML \(line \d+/);
    const page = await resolve(auth, `${fake.origin}/hostile/page.html`);
    expect(page.status).toBe(422);
    expect(issue(page.body).type).toBe("not_a_feed");
    expect((await resolve(auth, `${fake.origin}/feeds/nope.xml`)).status).toBe(502);
    const internal = await resolve(auth, "http://10.0.0.1/feed.xml");
    expect(internal.status).toBe(422);
    expect(issue(internal.body).type).toMatch(/not_allowed/);
  });

  it("refuses the hostile feeds: billion laughs is never expanded, XXE never declared, 50 MB never read", async () => {
    const { auth } = await caller();
    const laughs = await resolve(auth, `${fake.origin}/hostile/billion-laughs.xml`);
    expect(laughs.status).toBe(200);
    expect(laughs.body.show).toEqual({ title: "&lol9;" });
    expect(laughs.text.length).toBeLessThan(1000);

    const before = fake.requests.length;
    const xxe = await resolve(auth, `${fake.origin}/hostile/xxe.xml`);
    expect(xxe.status).toBe(422);
    expect(issue(xxe.body).type).toBe("feed_invalid");
    expect(fake.requests.slice(before)).toEqual(["/hostile/xxe.xml"]); // the external entity was never fetched

    const huge = await resolve(auth, `${fake.origin}/hostile/huge.xml`);
    expect(huge.status).toBe(422);
    expect(issue(huge.body).type).toBe("response_too_large");
    // Reading stopped at the cap and the connection was dropped: the 50 MB were never all sent. What left the
    // fake is more than was read by whatever the kernel's loopback buffers held (Linux grows a receive buffer
    // up to net.ipv4.tcp_rmem's maximum, 32 MB on the CI machines; 13.8 MB was seen), so only the end is checked.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.hugeBytesSent()).toBeGreaterThan(FEED_CAP);
    expect(fake.hugeBytesSent()).toBeLessThan(HUGE_FEED_BYTES);
  });
});

describe("published transcripts (podcast:transcript) as captions", () => {
  it("POST /v1/transcript for a resolved episode's audio → 200 with its JSON transcript, source captions", async () => {
    const { user, auth } = await caller();
    // Before the feed is resolved, the audio has no captions and no speech recognition is configured.
    const audio = `${fake.origin}/ex/json-1.mp3`;
    expect((await callRoute(transcriptRoute, "/v1/transcript", { headers: auth, body: { audio } })).status).toBe(503);

    const resolved = await resolve(auth, `${fake.origin}/feeds/transcript-json-episode.xml`);
    expect(resolved.status).toBe(200);
    // The preview can say so: this episode is taken from its own transcript, with no speech recognition.
    expect(resolved.body.episodes!.find((e) => e.audio_url === audio)?.has_transcript).toBe(true);
    const res = await callRoute(transcriptRoute, "/v1/transcript", { headers: auth, body: { audio } });
    expect(res.status).toBe(200);
    const transcript = res.json as {
      source: string;
      platform: string;
      title: string | null;
      segments: { start: number; text: string }[];
    };
    // Named as its feed names it, though asked for by its audio link alone.
    expect(transcript).toMatchObject({ source: "captions", platform: "podcast", title: "JSON transcript" });
    expect(
      await ctx.db.transcript.findFirst({ where: { platform: "podcast", title: "JSON transcript" } }),
    ).toMatchObject({ channel: "Hand-made: every Podcasting 2.0 transcript format" });
    expect(transcript.segments[0]!.start).toBe(0.5);
    expect(transcript.segments.map((s) => s.text).join(" ")).toContain("I am your father.");

    const entry = await ctx.db.transcription.findFirst({ where: { userId: user.id, platform: "podcast" } });
    expect(entry).toMatchObject({ origin: "captions", state: "done" });

    // Another user who never resolved that feed does not get it (a feed may name any audio URL).
    const other = await caller();
    expect((await callRoute(transcriptRoute, "/v1/transcript", { headers: other.auth, body: { audio } })).status).toBe(
      503,
    );
  });

  it("SRT and HTML transcripts; a transcript in another language is not used for `lang`", async () => {
    const { auth } = await caller();
    await resolve(auth, `${fake.origin}/feeds/transcript-json-episode.xml`);
    const srt = await callRoute(transcriptRoute, "/v1/transcript", {
      headers: auth,
      body: { audio: `${fake.origin}/ex/srt-1.mp3`, format: "text" },
    });
    expect(srt.status).toBe(200);
    expect((srt.json as { content: string }).content).toContain("When you first get started in podcasting");
    // (Each example transcript is about 10 minutes: a second one would exceed the free allowance, so a second user.)
    const second = await caller();
    await resolve(second.auth, `${fake.origin}/feeds/transcript-json-episode.xml`);
    const html = await callRoute(transcriptRoute, "/v1/transcript", {
      headers: second.auth,
      body: { audio: `${fake.origin}/ex/html-1.mp3` },
    });
    expect(html.status).toBe(200);
    expect((html.json as { segments: { start: number }[] }).segments[1]!.start).toBe(53);

    // The Podcasting 2.0 example: episode 3 publishes a Spanish VTT (and plain text, which has no times).
    const { auth: third } = await caller();
    await resolve(third, `${fake.origin}/feeds/podcastindex-example.xml`);
    const audio = `${fake.origin}/ex/file-03.mp3`;
    expect(
      (await callRoute(transcriptRoute, "/v1/transcript", { headers: third, body: { audio, lang: "en" } })).status,
    ).toBe(503);
    const es = await callRoute(transcriptRoute, "/v1/transcript", { headers: third, body: { audio, lang: "es" } });
    expect(es.status).toBe(200);
    expect(es.json).toMatchObject({ source: "captions", lang: "es" });
  });
});
