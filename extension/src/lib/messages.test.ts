import { describe, expect, it } from "vitest";
import { parsePlayerRequest, parsePlayerState, transcriptSource, youtubeVideoId } from "./messages";

const good = {
  type: "verbatim:state",
  url: "https://www.youtube.com/watch?v=GJLlxj_dtq8",
  media: null,
  player: true,
  time: 12.5,
  duration: 600,
  paused: false,
  show: null,
};

describe("messages from a content script", () => {
  it("takes a well-formed player state", () => {
    expect(parsePlayerState(good)).toEqual(good);
    expect(parsePlayerState({ ...good, duration: null, media: "https://cdn.example.com/a.mp3" })).toMatchObject({
      media: "https://cdn.example.com/a.mp3",
    });
  });

  it("keeps the page's show only in a shape it belongs to that page", () => {
    expect(parsePlayerState({ ...good, show: "https://www.youtube.com/@kitchenphysics" })?.show).toBe(
      "https://www.youtube.com/@kitchenphysics",
    );
    expect(parsePlayerState({ ...good, show: "https://evil.example/feed.rss" })?.show).toBeNull();
    expect(parsePlayerState({ ...good, show: "<img src=x onerror=alert(1)>" })?.show).toBeNull();
    const episode = { ...good, url: "https://podcasts.example.com/ep/1", show: "https://podcasts.example.com/feed" };
    expect(parsePlayerState(episode)?.show).toBe("https://podcasts.example.com/feed");
  });

  it("drops anything else: other types, bad numbers, addresses that are not http(s), markup in place of numbers", () => {
    for (const bad of [
      null,
      "verbatim:state",
      [],
      { ...good, type: "other" },
      { ...good, time: -1 },
      { ...good, time: Number.NaN },
      { ...good, time: "12" },
      { ...good, time: 1e12 },
      { ...good, duration: Infinity },
      { ...good, paused: "no" },
      { ...good, url: "javascript:alert(1)" },
      { ...good, url: `https://x.example/${"a".repeat(3000)}` },
      { ...good, media: "blob:https://www.youtube.com/1" },
      { ...good, media: "<img src=x onerror=alert(1)>" },
    ])
      expect(parsePlayerState(bad), JSON.stringify(bad)?.slice(0, 80)).toBeNull();
  });
});

describe("requests to a content script", () => {
  it("are a seek to a time or an ask, nothing else", () => {
    expect(parsePlayerRequest({ type: "verbatim:seek", time: 5.7 })).toEqual({ type: "verbatim:seek", time: 5.7 });
    expect(parsePlayerRequest({ type: "verbatim:ask", extra: 1 })).toEqual({ type: "verbatim:ask" });
    expect(parsePlayerRequest({ type: "verbatim:seek", time: -2 })).toBeNull();
    expect(parsePlayerRequest({ type: "verbatim:seek" })).toBeNull();
    expect(parsePlayerRequest({ type: "verbatim:eval", code: "1" })).toBeNull();
    expect(parsePlayerRequest(undefined)).toBeNull();
  });
});

describe("what a page is asked for", () => {
  it("reads a YouTube video from its watch, shorts or live address", () => {
    expect(youtubeVideoId("https://www.youtube.com/watch?v=GJLlxj_dtq8&list=x")).toBe("GJLlxj_dtq8");
    expect(youtubeVideoId("https://m.youtube.com/shorts/GJLlxj_dtq8")).toBe("GJLlxj_dtq8");
    expect(youtubeVideoId("https://www.youtube.com/watch?v=short")).toBeNull();
    expect(youtubeVideoId("https://www.youtube.com.evil.example/watch?v=GJLlxj_dtq8")).toBeNull();
    expect(youtubeVideoId("https://www.youtube.com/feed/subscriptions")).toBeNull();
  });

  it("asks for the video, the media file, or the page", () => {
    expect(transcriptSource(parsePlayerState(good)!)).toEqual({ url: "https://www.youtube.com/watch?v=GJLlxj_dtq8" });
    const page = { ...good, url: "https://podcast.example/ep/1" };
    expect(transcriptSource({ ...page, media: "https://cdn.example/ep1.mp3" } as never)).toEqual({
      audio: "https://cdn.example/ep1.mp3",
    });
    expect(transcriptSource(page as never)).toEqual({ url: "https://podcast.example/ep/1" });
    expect(transcriptSource({ ...page, player: false } as never)).toBeNull();
  });
});
