import { XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFeed } from "@/lib/podcasts/parse-feed";
import type { Show } from "@/lib/publishing/show-page";

let renderShowFeed: typeof import("@/lib/publishing/show-feed").renderShowFeed;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  ({ renderShowFeed } = await import("@/lib/publishing/show-feed"));
});

const hostile = `Ep </title><script>x</script> & "q" ]]> \u0001\u0008 end \ud800`;

function show(overrides: Partial<Show["episodes"][number]> = {}): Show {
  return {
    slug: "a-show-abc234",
    title: `Show <b>&amp;</b> \u000b`,
    sourceUrl: "https://example.com/feed.rss",
    kind: "podcast",
    episodes: [
      {
        guid: `guid&<>"'1`,
        title: hostile,
        slug: "ep-one-abc234",
        lang: "de",
        sourceUrl: `https://cdn.example.com/a.m4a?x=1&y="2"`,
        kind: "audio",
        date: new Date("2025-03-04T05:06:07Z"),
        durationSeconds: 60,
        audioBytes: 48_213_007,
        ...overrides,
      },
    ],
  };
}

describe("renderShowFeed", () => {
  it("is valid XML whatever the titles and guids hold, and reads back as they were", () => {
    const xml = renderShowFeed(show());
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("<script>");
    const feed = parseFeed(xml);
    expect(feed.title).toBe("Show <b>&amp;</b> \ufffd");
    expect(feed.self).toBe("https://verbatim.example/s/a-show-abc234/feed.xml");
    const [episode] = feed.episodes;
    expect(episode).toMatchObject({
      guid: `guid&<>"'1`,
      title: `Ep </title><script>x</script> & "q" ]]> \ufffd\ufffd end \ufffd`,
      audioUrl: `https://cdn.example.com/a.m4a?x=1&y="2"`,
      published: "2025-03-04T05:06:07.000Z",
    });
    expect(episode!.transcripts.map((t) => [t.type, t.language])).toEqual([
      ["text/vtt", "de"],
      ["application/x-subrip", "de"],
      ["application/json", "de"],
      ["text/html", "de"],
    ]);
    expect(xml).toContain('type="audio/mp4"');
    expect(xml).toContain('rel="captions"');
  });

  it("gives the enclosure the audio file's length from the publisher's feed, and RSS's 0 where it gave none", () => {
    expect(parseFeed(renderShowFeed(show())).episodes[0]!.bytes).toBe(48_213_007);
    expect(renderShowFeed(show())).toContain('length="48213007"');
    expect(renderShowFeed(show({ audioBytes: null }))).toContain('length="0"');
  });

  it("gives a followed video no enclosure: its page is the item's comments link", () => {
    const xml = renderShowFeed(show({ kind: "video", sourceUrl: "https://www.youtube.com/watch?v=abc" }));
    expect(xml).not.toContain("<enclosure");
    expect(xml).toContain("<comments>https://www.youtube.com/watch?v=abc</comments>");
  });
});
