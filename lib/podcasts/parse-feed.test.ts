import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FeedParseError, parseFeed } from "@/lib/podcasts/parse-feed";
import { HOSTILE } from "@/test/fakes/podcasts/server";

const feed = (name: string) => readFileSync(path.join("test/fixtures/feeds", name), "utf8");

describe("parseFeed on real feeds", () => {
  it("reads a large feed (Giant Bombcast, 730 episodes, durations in seconds)", () => {
    const parsed = parseFeed(feed("giantbomb-podcast.rss"));
    expect(parsed.format).toBe("rss");
    expect(parsed.title).toBe("Giant Bombcast");
    expect(parsed.episodes).toHaveLength(730);
    expect(parsed.episodes[0]).toEqual({
      guid: "1600-2823",
      title: "Giant Bombcast 603: Call of Tuesday",
      audioUrl:
        "https://dts.podtrac.com/redirect.mp3/www.giantbomb.com/podcasts/download/2823/603__Call_of_Tuesday-10-01-2019-6277737276.mp3",
      published: "2019-10-01T22:30:00.000Z",
      duration: "02:54:35",
      bytes: 105_003_355,
      transcripts: [],
    });
    expect(new Set(parsed.episodes.map((e) => e.guid)).size).toBe(730);
  });

  it("reads HH:MM:SS durations and HTML in CDATA (Taverncast)", () => {
    const parsed = parseFeed(feed("itunes-missing-image.rss"));
    expect(parsed.episodes).toHaveLength(131);
    expect(parsed.episodes[0]).toMatchObject({ title: "Taverncast 62 - Temporal Anomaly", duration: "01:09:50" });
    expect(parsed.episodes.every((e) => e.duration === null || /^\d{2,}:\d{2}:\d{2}$/.test(e.duration))).toBe(true);
  });

  it("decodes character references in titles, and keeps HTML descriptions out of the way", () => {
    const giant = parseFeed(feed("giantbomb-podcast.rss"));
    expect(giant.episodes.some((e) => e.title.includes("'") || e.title.includes("&"))).toBe(true);
    expect(giant.episodes.every((e) => !/&#0?39;|&amp;/.test(e.title))).toBe(true);
    const medium = parseFeed(feed("content-encoded.rss"));
    expect(medium.title).toBe("Food in Invironment on Medium");
    expect(medium.episodes).toEqual([]); // a blog: no audio enclosures
  });

  it("reads Atom feeds, with and without enclosures", () => {
    const heise = parseFeed(feed("heise.atom"));
    expect(heise).toMatchObject({ format: "atom", title: "heise developer neueste Meldungen", episodes: [] });
    const rfc = parseFeed(feed("rfc4287-example.atom"));
    expect(rfc.title).toBe("dive into mark");
    expect(rfc.episodes).toEqual([
      {
        guid: "tag:example.org,2003:3.2397",
        title: "Atom draft-07 snapshot",
        audioUrl: "http://example.org/audio/ph34r_my_podcast.mp3",
        published: "2003-12-13T12:29:29.000Z",
        duration: null,
        bytes: 1337,
        transcripts: [],
      },
    ]);
  });

  it("reads podcast:transcript (Podcasting 2.0 example feed)", () => {
    const parsed = parseFeed(feed("podcastindex-example.xml"));
    const third = parsed.episodes.find((e) => e.audioUrl === "https://example.com/file-03.mp3");
    expect(third?.transcripts).toEqual([
      { url: "https://example.com/ep3/transcript.txt", type: "text/plain", language: null },
      { url: "https://example.com/episode1/transcript.vtt", type: "text/vtt", language: "es" },
    ]);
  });
});

describe("parseFeed on hostile input", () => {
  it("never expands entities (billion laughs stays small)", () => {
    const parsed = parseFeed(HOSTILE["billion-laughs.xml"]!);
    expect(parsed.title).toBe("&lol9;");
    expect(parsed.episodes[0]?.title).toBe("&lol9;");
  });

  it("refuses external entities (XXE): the parser will not even declare them", () => {
    expect(() => parseFeed(HOSTILE["xxe.xml"]!.replaceAll("__ORIGIN__", "http://127.0.0.1:9"))).toThrow(
      /External entities are not supported/,
    );
  });

  it("refuses malformed XML with the line", () => {
    expect(() => parseFeed(HOSTILE["malformed.xml"]!)).toThrow(FeedParseError);
    expect(() => parseFeed(HOSTILE["malformed.xml"]!)).toThrow(/line \d+/);
  });

  it.each([["not xml at all"], ["<html><body>hi</body></html>"], ['{"json": true}'], [""]])("refuses %j", (text) => {
    expect(() => parseFeed(text)).toThrow(FeedParseError);
  });
});
