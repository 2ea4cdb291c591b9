import { ApiError } from "@/lib/http/errors";
import type { ParsedFeed } from "@/lib/podcasts/parse-feed";
import { movable, runOffThread } from "@/lib/process/off-thread";

// Feeds are decoded and parsed in a worker thread (lib/process/off-thread.ts runs feed-worker.ts's
// readFeedJob there), never on the event loop that serves requests: a feed that takes seconds to read delays
// only itself. Each parse gets a fresh thread with a memory limit and a deadline, and at most `threads`
// parses run at once in the process.

export interface FeedParseSettings {
  /** Parses at once in this process (PODCAST_FEED_PARSE_THREADS). */
  threads: number;
  /** Deadline for one parse (PODCAST_FEED_PARSE_SECONDS). */
  timeoutMs: number;
  /** Heap limit of one parse's thread, in MB (PODCAST_FEED_PARSE_MEMORY_MB). */
  memoryMb: number;
  /** Episodes kept of a feed (newest first, as feeds list them); `totalEpisodes` counts them all. */
  maxEpisodes: number;
  /**
   * Characters kept of the show's and each episode's title and guid (default: all). What comes back from the
   * thread is rebuilt on the event loop, so a caller that keeps less asks for less.
   */
  maxTextLength?: number;
}

export const MAX_FEED_EPISODES = 10_000;

/** What the worker is given (workerData). */
export interface FeedJob {
  kind: "feed";
  bytes: Uint8Array;
  contentType: string | null;
  maxEpisodes: number;
  maxTextLength?: number;
}

/** What the worker answers. */
export type FeedOutcome =
  | { ok: true; feed: ParsedFeed; totalEpisodes: number }
  | { ok: false; reason: "invalid" | "not_a_feed"; message: string };

export interface ReadFeed extends ParsedFeed {
  /** Episodes the feed lists with audio, also past `maxEpisodes`. */
  totalEpisodes: number;
}

function tooMuch(): ApiError {
  return new ApiError(
    "feed_invalid",
    "The feed is too large or too complex to read (it took more time or memory than a podcast feed needs).",
  );
}

/**
 * A feed's bytes (and the Content-Type they came with) → the feed, read in a worker thread; the bytes are
 * moved there (not to be used afterwards). Errors are
 * API errors: 422 feed_invalid (malformed, over the bounds of feed-bounds.ts, over the thread's memory or
 * deadline), 422 not_a_feed (a web page).
 */
export async function readFeedOffThread(
  bytes: Uint8Array,
  contentType: string | null,
  settings: FeedParseSettings,
): Promise<ReadFeed> {
  const moved = movable(bytes);
  const job: FeedJob = {
    kind: "feed",
    bytes: moved,
    contentType,
    maxEpisodes: settings.maxEpisodes,
    ...(settings.maxTextLength ? { maxTextLength: settings.maxTextLength } : {}),
  };
  const outcome = await runOffThread<FeedOutcome>(job, settings, tooMuch, [moved.buffer]);
  if (outcome.ok) return { ...outcome.feed, totalEpisodes: outcome.totalEpisodes };
  if (outcome.reason === "not_a_feed")
    throw new ApiError("not_a_feed", "That URL is a web page, not a podcast feed or an audio file.");
  throw new ApiError("feed_invalid", outcome.message);
}
