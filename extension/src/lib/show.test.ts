import { describe, expect, it } from "vitest";
import { announcedFeed, showOf, youtubeChannel } from "./show";

const WATCH = "https://www.youtube.com/watch?v=Hq7sWc2dT4E";

describe("the show a page belongs to", () => {
  it("reads a YouTube channel's link beside the video, made canonical", () => {
    expect(youtubeChannel("/@kitchenphysics", WATCH)).toBe("https://www.youtube.com/@kitchenphysics");
    expect(youtubeChannel("http://www.youtube.com/@kitchenphysics", WATCH)).toBe(
      "https://www.youtube.com/@kitchenphysics",
    );
    expect(youtubeChannel("https://m.youtube.com/channel/UCq7Xk3Vt0Jm2Nd9Ws4Lb8Hq/videos", WATCH)).toBe(
      "https://www.youtube.com/channel/UCq7Xk3Vt0Jm2Nd9Ws4Lb8Hq",
    );
    expect(showOf(WATCH, { channel: "/@kitchenphysics", feed: "https://evil.example/feed" })).toBe(
      "https://www.youtube.com/@kitchenphysics",
    );
  });

  it("believes nothing else on YouTube: videos, other sites, scripts, odd shapes", () => {
    for (const href of [
      "/watch?v=GJLlxj_dtq8",
      "https://evil.example/@kitchenphysics",
      "javascript:alert(1)",
      "/channel/UCshort",
      "/@a/b",
      `/@${"x".repeat(200)}`,
      42,
      null,
    ])
      expect(youtubeChannel(href, WATCH), String(href)).toBeNull();
    expect(showOf(WATCH, { feed: "https://feeds.example.com/show.rss" })).toBeNull();
  });

  it("takes the feed a podcast page announces, relative or absolute, http(s) only", () => {
    const page = "https://podcasts.example.com/show/episode-12";
    expect(showOf(page, { feed: "/feed.xml" })).toBe("https://podcasts.example.com/feed.xml");
    expect(announcedFeed("https://feeds.example.net/show.rss", page)).toBe("https://feeds.example.net/show.rss");
    for (const feed of ["data:text/xml,<rss/>", "javascript:void 0", `https://a.example/${"x".repeat(3000)}`, {}])
      expect(showOf(page, { feed }), String(feed).slice(0, 40)).toBeNull();
    expect(showOf("not a page", { feed: "https://feeds.example.net/show.rss" })).toBeNull();
  });
});
