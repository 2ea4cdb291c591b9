import { XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { followRoutes, until, type FollowRoutes } from "@/test/follows";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { generatedFeed } from "@/test/fakes/podcasts/server";
import { parseFeed } from "@/lib/podcasts/parse-feed";

// A followed show's page data and feed, through the route handlers against PostgreSQL: a `publish: true`
// follow of a feed whose episodes carry their own transcripts (no speech recognition), its newest two
// transcribed and published by the follow's check; the feed read back by the project's own feed parser, as a
// podcast app would read it.

const APP_URL = "https://verbatim.example";
type Handler = Parameters<typeof callRoute>[0];

let world: ImportWorld;
let routes: FollowRoutes;
let feedRoute: Handler;
let unpublishRoute: Handler;
let findShow: typeof import("@/lib/publishing/show-page").findShow;
let findShowOfEpisode: typeof import("@/lib/publishing/show-page").findShowOfEpisode;
let sitemapIndex: () => Promise<Response>;
let sitemapPart: typeof import("@/app/sitemaps/[file]/route").GET;

beforeAll(async () => {
  world = await startImportWorld("show-page", () => ({ APP_URL }));
  routes = await followRoutes();
  feedRoute = (await import("@/app/s/[slug]/feed.xml/route")).GET;
  unpublishRoute = (await import("@/app/v1/publish/[slug]/route")).DELETE;
  ({ findShow, findShowOfEpisode } = await import("@/lib/publishing/show-page"));
  sitemapIndex = (await import("@/app/sitemap.xml/route")).GET;
  sitemapPart = (await import("@/app/sitemaps/[file]/route")).GET;
});

afterAll(async () => {
  await world?.close();
});

const feed = (slug: string, headers: Record<string, string> = {}) =>
  callRoute(feedRoute, `/s/${slug}/feed.xml`, { headers, params: { slug } });

/** A new caller following a generated three-episode show, its newest two published; the show's slug. */
async function followedShow(prefix: string) {
  const { headers } = await world.caller();
  world.podcasts.live.set(
    `/live/${prefix}.rss`,
    generatedFeed(world.podcasts.origin, 3, { prefix, transcripts: true }),
  );
  const res = await callRoute(routes.create, "/v1/follows", {
    headers,
    body: { url: `${world.podcasts.origin}/live/${prefix}.rss`, backfill: 2, publish: true },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const showUrl = (res.json as { show_url: string }).show_url;
  expect(showUrl).toMatch(new RegExp(`^${APP_URL}/s/generated-show-3-[a-z0-9]{6}$`));
  const slug = showUrl.split("/").at(-1)!;
  await until(
    "two published episodes",
    () => findShow(slug),
    (show) => show?.episodes.length === 2,
  );
  return { headers, slug };
}

describe("a followed show's page and feed", () => {
  it("lists the published episodes newest first, and its feed gives each with its transcript files", async () => {
    const { slug } = await followedShow("two");
    const show = (await findShow(slug))!;
    expect(show.title).toBe("Generated show (3)");
    // The feed's pubDates (Episode 3 is the newest), not the order they were transcribed or published in.
    expect(show.episodes.map((e) => [e.title, e.guid, e.date.toISOString().slice(0, 10)])).toEqual([
      ["Episode 3", "two-3", "2024-01-04"],
      ["Episode 2", "two-2", "2024-01-03"],
    ]);

    const res = await feed(slug);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(XMLValidator.validate(res.text)).toBe(true);
    const parsed = parseFeed(res.text);
    expect(parsed.title).toBe("Generated show (3)");
    expect(parsed.episodes.map((e) => [e.guid, e.title, e.audioUrl, e.published])).toEqual([
      ["two-3", "Episode 3", `${world.podcasts.origin}/ex/two-3.mp3`, "2024-01-04T00:00:00.000Z"],
      ["two-2", "Episode 2", `${world.podcasts.origin}/ex/two-2.mp3`, "2024-01-03T00:00:00.000Z"],
    ]);
    // Each enclosure's length is its file's size as the publisher's feed gives it (the generator's 1,048,576 + i).
    expect(parsed.episodes.map((e) => e.bytes)).toEqual([1_048_579, 1_048_578]);
    for (const [i, episode] of parsed.episodes.entries()) {
      const page = `${APP_URL}/v1/public/${show.episodes[i]!.slug}`;
      expect(episode.transcripts).toEqual([
        { url: `${page}/transcript.vtt`, type: "text/vtt", language: "en" },
        { url: `${page}/transcript.srt`, type: "application/x-subrip", language: "en" },
        { url: `${page}/transcript.json`, type: "application/json", language: "en" },
        { url: `${page}/transcript.html`, type: "text/html", language: "en" },
      ]);
    }

    const again = await feed(slug, { "if-none-match": res.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("loses an episode when it is unpublished, and the page when the last one is", async () => {
    const { headers, slug } = await followedShow("off");
    const [newest, older] = (await findShow(slug))!.episodes;
    const before = await feed(slug);

    const off = await callRoute(unpublishRoute, `/v1/publish/${newest!.slug}`, {
      method: "DELETE",
      headers,
      params: { slug: newest!.slug },
    });
    expect(off.status).toBe(204);
    expect((await findShow(slug))!.episodes.map((e) => e.slug)).toEqual([older!.slug]);
    const after = await feed(slug, { "if-none-match": before.headers.get("etag")! });
    expect(after.status).toBe(200); // the old copy is stale
    expect(parseFeed(after.text).episodes.map((e) => e.guid)).toEqual(["off-2"]);

    await callRoute(unpublishRoute, `/v1/publish/${older!.slug}`, {
      method: "DELETE",
      headers,
      params: { slug: older!.slug },
    });
    expect(await findShow(slug)).toBeNull();
    expect((await feed(slug)).status).toBe(404);
  });

  it("names the show on its episodes' pages and lists its page in the sitemap while an episode is published", async () => {
    const { headers, slug } = await followedShow("map");
    const [newest, older] = (await findShow(slug))!.episodes;
    expect(await findShowOfEpisode(newest!.slug)).toEqual({
      slug,
      title: "Generated show (3)",
      episodeDate: new Date("2024-01-04T00:00:00Z"),
    });
    const showLoc = `${APP_URL}/s/${slug}`;
    const readPart = (file: string) =>
      sitemapPart(new Request(`${APP_URL}/sitemaps/${file}`), { params: Promise.resolve({ file }) });
    const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const shows = async () => {
      const index = locs(await (await sitemapIndex()).text());
      expect(index).toContain(`${APP_URL}/sitemaps/shows-0.xml`);
      const part = await readPart("shows-0.xml");
      expect(part.status).toBe(200);
      const xml = await part.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      return xml;
    };
    const listed = await shows();
    expect(locs(listed)).toContain(showLoc);
    // Its last change is its newest episode's publication.
    const newestPublication = await world.ctx.db.publication.findUniqueOrThrow({ where: { slug: newest!.slug } });
    const olderPublication = await world.ctx.db.publication.findUniqueOrThrow({ where: { slug: older!.slug } });
    const lastmod = [newestPublication.updatedAt, olderPublication.updatedAt].sort((a, b) => +b - +a)[0]!;
    expect(listed).toContain(`<url><loc>${showLoc}</loc><lastmod>${lastmod.toISOString()}</lastmod></url>`);

    for (const episode of [newest!, older!])
      await callRoute(unpublishRoute, `/v1/publish/${episode.slug}`, {
        method: "DELETE",
        headers,
        params: { slug: episode.slug },
      });
    expect(await findShowOfEpisode(newest!.slug)).toBeNull();
    expect(locs(await shows())).not.toContain(showLoc);
    expect((await readPart("shows-1.xml")).status).toBe(404);
  });

  it("names only its publisher's own follow: another user's follow of the same feed adds none", async () => {
    const { headers, slug } = await followedShow("theirs");
    const [newest] = (await findShow(slug))!.episodes;
    const other = await world.caller();
    const res = await callRoute(routes.create, "/v1/follows", {
      headers: other.headers,
      body: { url: `${world.podcasts.origin}/live/theirs.rss`, backfill: 2, publish: false },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const otherFollow = res.json as { id: string; show_url: string };
    // The other user's episodes are the same transcripts, held through their own follow.
    const held = await until(
      "the other follow's two episodes",
      () =>
        world.ctx.db.followItem.findMany({
          where: { followId: otherFollow.id, status: "done" },
          select: { transcriptId: true },
        }),
      (items) => items.length === 2,
    );
    const published = await world.ctx.db.publication.findUniqueOrThrow({ where: { slug: newest!.slug } });
    expect(held.map((i) => i.transcriptId)).toContain(published.transcriptId);
    expect((await findShowOfEpisode(newest!.slug))?.slug).toBe(slug);

    const own = (await world.ctx.db.follow.findFirstOrThrow({ where: { showSlug: slug } })).id;
    const removed = await callRoute(routes.remove, `/v1/follows/${own}`, {
      method: "DELETE",
      headers,
      params: { id: own },
    });
    expect(removed.status).toBe(204);
    // Its publisher no longer follows the show: the other user's follow of it gives the page no breadcrumb.
    expect(await findShowOfEpisode(newest!.slug)).toBeNull();
    expect(await findShow(otherFollow.show_url.split("/").at(-1)!)).toBeNull();
  });

  it("answers an unknown or malformed slug with the same 404", async () => {
    expect(await findShow("no-such-show-abc123")).toBeNull();
    expect(await findShowOfEpisode("no-such-show-abc123")).toBeNull();
    for (const slug of ["no-such-show-abc123", "../etc", "Ünïcode"]) {
      const res = await feed(slug);
      expect(res.status, slug).toBe(404);
      expect((res.json as { code: string }).code).toBe("not_found");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });
});
