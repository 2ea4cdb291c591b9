import { describe, expect, it } from "vitest";
import { followDeps } from "@/lib/follows/deps";
import { readFeedOffThread } from "@/lib/podcasts/parse-off-thread";

// What a follow's feed parse sends back to the event loop, where it is rebuilt: only what a follow keeps.

describe("followDeps' feed parse", () => {
  it("answers with the newest 500 episodes and titles and guids cut to what is stored", async () => {
    const long = "x".repeat(5000);
    const items = Array.from(
      { length: 600 },
      (_, i) =>
        `<item><title>${i} ${long}</title><guid>${i}-${long}</guid><enclosure url="https://example.com/${i}.mp3" type="audio/mpeg" length="1"/></item>`,
    );
    const xml = `<?xml version="1.0"?><rss version="2.0"><channel><title>${long}</title>${items.join("")}</channel></rss>`;
    const feed = await readFeedOffThread(Buffer.from(xml), "application/rss+xml", followDeps().parse!);
    expect(feed.totalEpisodes).toBe(600);
    expect(feed.episodes).toHaveLength(500);
    expect(feed.title.length).toBeLessThanOrEqual(1000);
    expect(Math.max(...feed.episodes.map((e) => Math.max(e.title.length, e.guid.length)))).toBe(1000);
    expect(feed.episodes[0]!.guid.startsWith("0-x")).toBe(true);
  });
});
