import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { seedTranscript, videoIds } from "@/test/publishing";
import { parseSourceUrl } from "@/lib/sources";

const APP_URL = "https://verbatim.example";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let publishRoute: typeof import("@/app/v1/publish/route").POST;
let historyRoute: typeof import("@/app/v1/me/transcriptions/route").GET;
let unpublishRoute: typeof import("@/app/v1/publish/[slug]/route").DELETE;
let indexRoute: typeof import("@/app/v1/public/index/route").GET;
let publicRoute: typeof import("@/app/v1/public/[slug]/route").GET;
let downloadRoute: typeof import("@/app/v1/public/[slug]/download/route").GET;
let sitemapIndexRoute: typeof import("@/app/sitemap.xml/route").GET;
let sitemapPartRoute: typeof import("@/app/sitemaps/[file]/route").GET;

// Every slug this file has published and not unpublished since: what the sitemap must list, exactly.
const live = new Set<string>();

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  ctx = await useTestDatabase();
  publishRoute = (await import("@/app/v1/publish/route")).POST;
  historyRoute = (await import("@/app/v1/me/transcriptions/route")).GET;
  unpublishRoute = (await import("@/app/v1/publish/[slug]/route")).DELETE;
  indexRoute = (await import("@/app/v1/public/index/route")).GET;
  publicRoute = (await import("@/app/v1/public/[slug]/route")).GET;
  downloadRoute = (await import("@/app/v1/public/[slug]/download/route")).GET;
  sitemapIndexRoute = (await import("@/app/sitemap.xml/route")).GET;
  sitemapPartRoute = (await import("@/app/sitemaps/[file]/route")).GET;
});
afterAll(async () => ctx?.teardown());

const newCaller = () => createCaller(ctx.db);

const newVideoId = videoIds("pub");

async function publish(caller: { headers: Record<string, string> }, body: unknown) {
  const res = await callRoute(publishRoute, "/v1/publish", { method: "POST", headers: caller.headers, body });
  if (res.status === 200) live.add((res.json as { slug: string }).slug);
  return res;
}

async function unpublish(caller: { headers: Record<string, string> }, slug: string) {
  const res = await callRoute(unpublishRoute, `/v1/publish/${slug}`, {
    method: "DELETE",
    headers: caller.headers,
    params: { slug },
  });
  if (res.status === 204) live.delete(slug);
  return res;
}

/** A download: not JSON, so read as text. */
async function download(slug: string, format: string) {
  const res = await downloadRoute(new NextRequest(new URL(`/v1/public/${slug}/download?format=${format}`, APP_URL)), {
    params: Promise.resolve({ slug }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const readPublic = (slug: string, headers: Record<string, string> = {}) =>
  callRoute(publicRoute, `/v1/public/${slug}`, { headers, params: { slug } });

describe("POST /v1/publish and DELETE /v1/publish/{slug}", () => {
  it("names a history entry's live publication (its slug) until it is unpublished, and only to its publisher", async () => {
    const caller = await newCaller();
    const other = await newCaller();
    const videoId = newVideoId();
    await seedTranscript(ctx.db, caller.userId, { videoId });
    await seedTranscript(ctx.db, other.userId, { videoId });
    const slugOf = async (who: { headers: Record<string, string> }) => {
      const res = await callRoute(historyRoute, "/v1/me/transcriptions", { headers: who.headers });
      expect(res.status).toBe(200);
      return (res.json as { transcriptions: { published_slug: string | null }[] }).transcriptions[0]!.published_slug;
    };
    expect(await slugOf(caller)).toBeNull();

    const res = await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` });
    const { slug } = res.json as { slug: string };
    expect(await slugOf(caller)).toBe(slug);
    expect(await slugOf(other)).toBeNull(); // the same transcript, not published by them

    expect((await unpublish(caller, slug)).status).toBe(204);
    expect(await slugOf(caller)).toBeNull();
  });

  it("publishes under a readable slug with a random suffix, and keeps the slug across republishing and URL forms", async () => {
    const caller = await newCaller();
    const videoId = newVideoId();
    await seedTranscript(ctx.db, caller.userId, { videoId });

    const first = await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` });
    expect(first.status).toBe(200);
    const { slug, url } = first.json as { slug: string; url: string };
    expect(slug).toMatch(/^grit-the-power-of-passion-and-perseverance-angela-[a-z0-9]{6}$/);
    expect(url).toBe(`${APP_URL}/t/${slug}`);

    // Another form of the same link (lib/sources canonicalises it), lang given explicitly.
    const again = await publish(caller, { url: `https://youtu.be/${videoId}?t=42`, lang: "en" });
    expect(again.json).toEqual({ slug, url });

    expect((await unpublish(caller, slug)).status).toBe(204);
    expect((await readPublic(slug)).status).toBe(404);
    const republished = await publish(caller, { url: `https://m.youtube.com/watch?v=${videoId}` });
    expect(republished.json).toEqual({ slug, url });
    expect((await readPublic(slug)).status).toBe(200);
  });

  it("answers 404 when the transcript is not in the caller's history, 409 while it is not complete", async () => {
    const caller = await newCaller();
    const other = await newCaller();
    const videoId = newVideoId();
    await seedTranscript(ctx.db, other.userId, { videoId });

    const notMine = await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` });
    expect(notMine.status).toBe(404);
    expect(notMine.json).toMatchObject({ code: "not_found", detail: expect.stringContaining("history") });

    const wrongLang = await publish(other, { url: `https://www.youtube.com/watch?v=${videoId}`, lang: "de" });
    expect(wrongLang.status).toBe(404);

    const pending = newVideoId();
    await seedTranscript(ctx.db, caller.userId, { videoId: pending, state: "in_progress" });
    const inProgress = await publish(caller, { url: `https://www.youtube.com/watch?v=${pending}` });
    expect(inProgress.status).toBe(409);
    expect(inProgress.json).toMatchObject({
      code: "transcript_not_complete",
      detail: expect.stringContaining("not complete"),
    });
  });

  it("rejects hostile input with 4xx in the contract's shape", async () => {
    const caller = await newCaller();
    expect(
      (await callRoute(publishRoute, "/v1/publish", { method: "POST", body: { url: "https://youtu.be/aaaaaaaaaaa" } }))
        .status,
    ).toBe(401);
    const unsupported = await publish(caller, { url: "javascript:alert(1)" });
    expect(unsupported.status).toBe(422);
    expect(unsupported.json).toMatchObject({ detail: [{ loc: ["body", "url"] }] });
    expect((await publish(caller, { url: "https://youtu.be/aaaaaaaaaaa", lang: "../../etc" })).status).toBe(422);
    expect((await publish(caller, {})).status).toBe(422);
    expect((await publish(caller, "{not json")).status).toBe(422);
    expect((await publish(caller, { url: "upload:../../secrets" })).status).toBe(404);
  });

  it("lets only the owner unpublish; anyone else, unknown and already unpublished slugs get the same 404", async () => {
    const owner = await newCaller();
    const stranger = await newCaller();
    const videoId = newVideoId();
    await seedTranscript(ctx.db, owner.userId, { videoId });
    const { slug } = (await publish(owner, { url: `https://www.youtube.com/watch?v=${videoId}` })).json as {
      slug: string;
    };

    const byStranger = await unpublish(stranger, slug);
    expect(byStranger.status).toBe(404);
    expect((await readPublic(slug)).status).toBe(200);
    const unknown = await unpublish(owner, "no-such-slug-abcdef");
    expect(unknown.status).toBe(404);
    expect(byStranger.json).toEqual(unknown.json);

    expect((await unpublish(owner, slug)).status).toBe(204);
    expect((await unpublish(owner, slug)).json).toEqual(unknown.json);
    const anonymous = await callRoute(unpublishRoute, `/v1/publish/${slug}`, { method: "DELETE", params: { slug } });
    expect(anonymous.status).toBe(401);
  });

  it("publishes an uploaded file under its stored title, never its storage path", async () => {
    const caller = await newCaller();
    const random = "Q1w2E3r4T5y6U7i8O9p0aS";
    const objectPath = `uploads/${caller.userId}/${random}/Talk_final.wav`;
    await seedTranscript(ctx.db, caller.userId, {
      platform: "upload",
      videoId: random,
      title: "Talk (final).wav",
      sourceUrl: `upload:${objectPath}`,
    });

    const res = await publish(caller, { url: `upload:${objectPath}` });
    expect(res.status).toBe(200);
    const { slug } = res.json as { slug: string };
    expect(slug).toMatch(/^talk-final-wav-[a-z0-9]{6}$/);
    // The bare object path names the same upload; someone else's object path is not in their history.
    expect((await publish(caller, { url: objectPath })).json).toMatchObject({ slug });
    expect((await publish(await newCaller(), { url: `upload:${objectPath}` })).status).toBe(404);

    const page = await readPublic(slug);
    expect(page.json).toMatchObject({
      title: "Talk (final).wav",
      platform: "upload",
      source_url: null,
      video_id: null,
    });
    for (const format of ["json", "md", "text", "srt", "vtt"]) {
      const file = await download(slug, format);
      expect(file.status).toBe(200);
      expect(file.text).not.toContain("uploads/");
      expect(file.text).not.toContain(random);
    }
    expect(page.text).not.toContain("uploads/");
    expect(page.text).not.toContain(random);
    expect(page.text).not.toContain(caller.userId);
  });

  it("every complete history entry carries the source_url that publishes it: an upload, a podcast episode, a video", async () => {
    const caller = await newCaller();
    const random = "Z9x8C7v6B5n4M3l2K1j0hG";
    const objectPath = `uploads/${caller.userId}/${random}/Board_meeting.m4a`;
    await seedTranscript(ctx.db, caller.userId, {
      platform: "upload",
      videoId: random,
      title: "Board meeting.m4a",
      sourceUrl: `upload:${objectPath}`,
    });
    // A podcast episode is keyed as POST /v1/transcript keys its audio URL (a hash of the canonical URL).
    const episode = parseSourceUrl("https://media.example.org/show/episode-12.mp3")!;
    await seedTranscript(ctx.db, caller.userId, {
      platform: "podcast",
      videoId: episode.videoId,
      title: "Episode 12: Tides",
      sourceUrl: episode.canonicalUrl,
    });
    const videoId = newVideoId();
    await seedTranscript(ctx.db, caller.userId, { videoId, title: "A video" });
    const running = parseSourceUrl("https://media.example.org/show/episode-13.mp3")!;
    await seedTranscript(ctx.db, caller.userId, {
      platform: "podcast",
      videoId: running.videoId,
      state: "in_progress",
    });

    const history = await callRoute(historyRoute, "/v1/me/transcriptions", { headers: caller.headers });
    expect(history.status).toBe(200);
    const entries = (
      history.json as {
        transcriptions: { source: string; video_id: string; complete: boolean; source_url: string | null }[];
      }
    ).transcriptions;
    const bySource = (video: string) => entries.find((e) => e.video_id === video)!;
    expect(bySource(random).source_url).toBe(`upload:${objectPath}`);
    expect(bySource(episode.videoId).source_url).toBe("https://media.example.org/show/episode-12.mp3");
    expect(bySource(videoId).source_url).toBe(`https://www.youtube.com/watch?v=${videoId}`);
    expect(bySource(running.videoId)).toMatchObject({ complete: false, source_url: null });

    const titles: Record<string, string> = {
      [random]: "Board meeting.m4a",
      [episode.videoId]: "Episode 12: Tides",
      [videoId]: "A video",
    };
    for (const entry of entries.filter((e) => e.complete)) {
      const res = await publish(caller, { url: entry.source_url, lang: "en" });
      expect(res.status, entry.source).toBe(200);
      const page = await readPublic((res.json as { slug: string }).slug);
      expect(page.json).toMatchObject({ title: titles[entry.video_id], platform: entry.source });
      if (entry.source === "upload") {
        expect(page.json).toMatchObject({ source_url: null, video_id: null });
        expect(page.text).not.toContain("uploads/");
        expect(page.text).not.toContain(random);
      }
    }
  });
});

describe("GET /v1/public/{slug}", () => {
  it("answers the transcript object with title, platform, source link and published_at, cacheable, and 304 on a repeat with the ETag", async () => {
    const caller = await newCaller();
    const videoId = newVideoId();
    const stored = await seedTranscript(ctx.db, caller.userId, { videoId });
    const { slug } = (await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` })).json as {
      slug: string;
    };

    const res = await readPublic(slug);
    expect(res.status).toBe(200);
    const body = res.json as Record<string, unknown> & { segments: { start: number; end: number; text: string }[] };
    expect(body).toMatchObject({
      id: stored.id,
      slug,
      url: `${APP_URL}/t/${slug}`,
      platform: "youtube",
      video_id: videoId,
      source_url: `https://www.youtube.com/watch?v=${videoId}`,
      title: "Grit: the power of passion and perseverance | Angela Lee Duckworth",
      lang: "en",
      source: "captions",
      caption_kind: "manual",
      format: "json",
      content: null,
    });
    expect(Date.parse(body.published_at as string)).not.toBeNaN();
    expect(body.segments.length).toBeGreaterThan(40);
    expect(body.segments.some((segment) => /grit/i.test(segment.text))).toBe(true);

    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(res.headers.get("cache-control")).toMatch(/public.*s-maxage=\d+/);
    expect(Date.parse(res.headers.get("last-modified")!)).not.toBeNaN();

    const again = await readPublic(slug, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const since = await readPublic(slug, { "if-modified-since": res.headers.get("last-modified")! });
    expect(since.status).toBe(304);
    expect((await readPublic(slug, { "if-none-match": 'W/"something-else"' })).status).toBe(200);

    // A refreshed transcript (the captions were fetched again) is a new version: new ETag, new body.
    await ctx.db.transcript.update({
      where: { id: stored.id },
      data: { title: "Grit (refreshed)", fetchedAt: new Date(Date.now() + 1000) },
    });
    const refreshed = await readPublic(slug, { "if-none-match": etag });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json).toMatchObject({ title: "Grit (refreshed)" });
    expect(refreshed.headers.get("etag")).not.toBe(etag);

    // Unpublished: gone at once, even for a client holding the ETag; republishing changes the ETag.
    await unpublish(caller, slug);
    expect((await readPublic(slug, { "if-none-match": etag })).status).toBe(404);
    await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` });
    const republished = await readPublic(slug, { "if-none-match": etag });
    expect(republished.status).toBe(200);
    expect(republished.headers.get("etag")).not.toBe(etag);
  });

  it("answers the same 404 for unpublished and unknown slugs, and for things that are not slugs", async () => {
    const caller = await newCaller();
    const videoId = newVideoId();
    await seedTranscript(ctx.db, caller.userId, { videoId });
    const { slug } = (await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` })).json as {
      slug: string;
    };
    await unpublish(caller, slug);

    const unpublished = await readPublic(slug);
    const unknown = await readPublic("grit-the-power-zzzzzz");
    const junk = await readPublic("..%2F..%2Fetc%2Fpasswd");
    for (const res of [unpublished, unknown, junk]) {
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ code: "not_found", detail: "No published transcript has this slug." });
    }
    expect((await download(slug, "srt")).status).toBe(404);
  });

  it("serves downloads in every format with their own type and filename", async () => {
    const caller = await newCaller();
    const videoId = newVideoId();
    await seedTranscript(ctx.db, caller.userId, { videoId });
    const { slug } = (await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` })).json as {
      slug: string;
    };
    const srt = await download(slug, "srt");
    expect(srt.status).toBe(200);
    expect(srt.headers.get("content-disposition")).toMatch(
      /^attachment; filename="grit-the-power-of-passion-and-perseverance-angela-en\.srt"$/,
    );
    expect(srt.text).toMatch(/^1\n00:00:\d\d,\d{3} --> /);
    const bad = await download(slug, "exe");
    expect(bad.status).toBe(422);
  });
});

describe("GET /v1/public/index and the sitemap", () => {
  it("lists published transcripts newest first across keyset pages, without unpublished ones", async () => {
    const caller = await newCaller();
    const slugs: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const videoId = newVideoId();
      await seedTranscript(ctx.db, caller.userId, { videoId, title: `Index item ${i}` });
      slugs.push(
        ((await publish(caller, { url: `https://www.youtube.com/watch?v=${videoId}` })).json as { slug: string }).slug,
      );
    }
    await unpublish(caller, slugs[2]);

    const seen: { slug: string; updated_at: string | null }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await callRoute(indexRoute, `/v1/public/index?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toMatch(/^public/);
      const page = res.json as { items: { slug: string; updated_at: string | null }[]; next_cursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 100);

    expect(new Set(seen.map((item) => item.slug))).toEqual(live);
    expect(seen.length).toBe(live.size);
    // Newest first: this test's items, the last published first, without the unpublished one.
    const mine = seen.map((item) => item.slug).filter((slug) => slugs.includes(slug));
    expect(mine).toEqual([slugs[4], slugs[3], slugs[1], slugs[0]]);
    for (const item of seen) expect(Date.parse(item.updated_at!)).not.toBeNaN();
  });

  it("rejects a cursor it did not make and an out-of-range limit with 422", async () => {
    expect((await callRoute(indexRoute, "/v1/public/index?cursor=bm90LWEtY3Vyc29y")).status).toBe(422);
    expect((await callRoute(indexRoute, "/v1/public/index?cursor=%27%3B%20DROP%20TABLE")).status).toBe(422);
    expect((await callRoute(indexRoute, "/v1/public/index?limit=100000")).status).toBe(422);
  });

  it("the sitemap lists exactly the published pages, through a sitemap index", async () => {
    const index = await sitemapIndexRoute();
    expect(index.headers.get("content-type")).toMatch(/^application\/xml/);
    const indexXml = await index.text();
    expect([...indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([`${APP_URL}/sitemaps/0.xml`]);

    const part = await sitemapPartRoute(new Request(`${APP_URL}/sitemaps/0.xml`), {
      params: Promise.resolve({ file: "0.xml" }),
    });
    expect(part.status).toBe(200);
    const locs = [...(await part.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(live.size).toBeGreaterThan(3);
    expect(new Set(locs)).toEqual(new Set([...live].map((slug) => `${APP_URL}/t/${slug}`)));
    expect(locs.length).toBe(live.size);

    const missing = await sitemapPartRoute(new Request(`${APP_URL}/sitemaps/1.xml`), {
      params: Promise.resolve({ file: "1.xml" }),
    });
    expect(missing.status).toBe(404);
  });
});
