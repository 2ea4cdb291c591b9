import { Worker } from "node:worker_threads";
import { ApiError } from "@/lib/http/errors";
import type { ParsedFeed } from "@/lib/podcasts/parse-feed";

// Feeds are decoded and parsed in a worker thread (feed-worker.ts), never on the event loop that serves
// requests: a feed that takes seconds to read delays only itself. Each parse gets a fresh thread with a
// memory limit (resourceLimits: a thread over it is stopped, the process is not) and a deadline (the thread
// is terminated), and at most `threads` parses run at once in the process; the others wait their turn.

export interface FeedParseSettings {
  /** Parses at once in this process (PODCAST_FEED_PARSE_THREADS). */
  threads: number;
  /** Deadline for one parse (PODCAST_FEED_PARSE_SECONDS). */
  timeoutMs: number;
  /** Heap limit of one parse's thread, in MB (PODCAST_FEED_PARSE_MEMORY_MB). */
  memoryMb: number;
  /** Episodes kept of a feed (newest first, as feeds list them); `totalEpisodes` counts them all. */
  maxEpisodes: number;
}

export const MAX_FEED_EPISODES = 10_000;

/** What the worker is given (workerData). */
export interface FeedJob {
  bytes: Uint8Array;
  contentType: string | null;
  maxEpisodes: number;
}

/** What the worker answers. */
export type FeedOutcome =
  | { ok: true; feed: ParsedFeed; totalEpisodes: number }
  | { ok: false; reason: "invalid" | "not_a_feed"; message: string };

export interface ReadFeed extends ParsedFeed {
  /** Episodes the feed lists with audio, also past `maxEpisodes`. */
  totalEpisodes: number;
}

let running = 0;
const waiting: (() => void)[] = [];

async function turn(threads: number): Promise<() => void> {
  if (running >= threads) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    waiting.shift()?.();
  };
}

function spawn(job: FeedJob, settings: FeedParseSettings): Worker {
  const options = {
    workerData: job,
    resourceLimits: {
      maxOldGenerationSizeMb: settings.memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(8, settings.memoryMb / 8)),
      stackSizeMb: 4,
    },
    stdout: false,
    stderr: false,
  };
  // NEXT_RUNTIME is Next.js's build-time constant ("nodejs" in server bundles, as in instrumentation.ts), not a
  // setting. In the built app, Turbopack bundles the entry below as a worker chunk of its own. Elsewhere the
  // code runs from its TypeScript sources (tests, and tsx scripts such as the job worker): the thread
  // registers tsx, then imports the entry.
  if (process.env.NEXT_RUNTIME !== "nodejs") {
    const entry = import.meta.url.replace(/[^/]*$/, "feed-worker.ts");
    return new Worker(
      `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
      { ...options, eval: true },
    );
  }
  return new Worker(new URL("./feed-worker.ts", import.meta.url), options);
}

function tooMuch(): ApiError {
  return new ApiError(
    "feed_invalid",
    "The feed is too large or too complex to read (it took more time or memory than a podcast feed needs).",
  );
}

/**
 * A feed's bytes (and the Content-Type they came with) → the feed, read in a worker thread. Errors are
 * API errors: 422 feed_invalid (malformed, over the bounds of feed-bounds.ts, over the thread's memory or
 * deadline), 422 not_a_feed (a web page).
 */
export async function readFeedOffThread(
  bytes: Uint8Array,
  contentType: string | null,
  settings: FeedParseSettings,
): Promise<ReadFeed> {
  const release = await turn(settings.threads);
  try {
    const outcome = await new Promise<FeedOutcome>((resolve, reject) => {
      const worker = spawn({ bytes, contentType, maxEpisodes: settings.maxEpisodes }, settings);
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
        void worker.terminate();
      };
      const timer = setTimeout(() => settle(() => reject(tooMuch())), settings.timeoutMs);
      worker.once("message", (message: FeedOutcome) => settle(() => resolve(message)));
      worker.once("error", (error: Error & { code?: string }) =>
        settle(() => reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooMuch() : error)),
      );
      worker.once("exit", (code) =>
        settle(() => reject(new Error(`The feed parser stopped (exit code ${code}) without an answer.`))),
      );
    });
    if (outcome.ok) return { ...outcome.feed, totalEpisodes: outcome.totalEpisodes };
    if (outcome.reason === "not_a_feed")
      throw new ApiError("not_a_feed", "That URL is a web page, not a podcast feed or an audio file.");
    throw new ApiError("feed_invalid", outcome.message);
  } finally {
    release();
  }
}
