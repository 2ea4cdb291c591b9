// The worker thread's entry (parse-off-thread.ts starts it): a feed's bytes → its episodes, or why not.
// Decoding and parsing a feed is CPU work proportional to its size; here it cannot hold up the event loop
// that serves requests, and the thread's memory is bounded (resourceLimits) and freed when it ends.
import { parentPort, workerData } from "node:worker_threads";
import { decodeFeed } from "@/lib/podcasts/decode-feed";
import { FeedParseError, parseFeed } from "@/lib/podcasts/parse-feed";
import type { FeedJob, FeedOutcome } from "@/lib/podcasts/parse-off-thread";

function run(job: FeedJob): FeedOutcome {
  const text = decodeFeed(job.bytes, job.contentType);
  const type = (job.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "text/html" && !/^\s*(<\?xml|<rss|<feed|<rdf:RDF)/i.test(text))
    return { ok: false, reason: "not_a_feed", message: "" };
  try {
    const feed = parseFeed(text);
    return {
      ok: true,
      feed: { ...feed, episodes: feed.episodes.slice(0, job.maxEpisodes) },
      totalEpisodes: feed.episodes.length,
    };
  } catch (error) {
    if (error instanceof FeedParseError) return { ok: false, reason: "invalid", message: error.message };
    throw error;
  }
}

parentPort!.postMessage(run(workerData as FeedJob));
