// A feed's bytes → its episodes, or why not: what the parse thread (lib/app/parse-worker.ts) runs for a
// feed. Decoding and parsing a feed is CPU work proportional to its size; there it cannot hold up the event
// loop that serves requests, and the thread's memory is bounded (resourceLimits) and freed when it ends.
import { decodeFeed } from "@/lib/podcasts/decode-feed";
import { FeedParseError, parseFeed } from "@/lib/podcasts/parse-feed";
import type { FeedJob, FeedOutcome } from "@/lib/podcasts/parse-off-thread";

export function readFeedJob(job: FeedJob): FeedOutcome {
  const text = decodeFeed(job.bytes, job.contentType);
  const type = (job.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/html" && !/^\s*(<\?xml|<rss|<feed|<rdf:RDF)/i.test(text))
    return { ok: false, reason: "not_a_feed", message: "" };
  try {
    const feed = parseFeed(text);
    const max = job.maxTextLength;
    const cut = (s: string) => (max && s.length > max ? s.slice(0, max) : s);
    const episodes = feed.episodes.slice(0, job.maxEpisodes);
    return {
      ok: true,
      feed: {
        ...feed,
        title: cut(feed.title),
        episodes: max ? episodes.map((e) => ({ ...e, title: cut(e.title), guid: cut(e.guid) })) : episodes,
      },
      totalEpisodes: feed.episodes.length,
    };
  } catch (error) {
    if (error instanceof FeedParseError) return { ok: false, reason: "invalid", message: error.message };
    throw error;
  }
}
