import { env } from "@/lib/env";
import { appOutbound } from "@/lib/http/outbound/configured";
import { MAX_FEED_EPISODES } from "@/lib/podcasts/parse-off-thread";
import type { ResolveDeps } from "@/lib/podcasts/resolve-podcast";

/** The app's podcast dependencies, from settings. */
export function podcastDeps(): ResolveDeps {
  const settings = env();
  const exempt = new Set(settings.OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
  return {
    outbound: appOutbound(),
    lookupUrl: settings.ITUNES_LOOKUP_URL,
    maxBytes: settings.PODCAST_FEED_MAX_BYTES,
    timeoutMs: settings.PODCAST_FEED_TIMEOUT_SECONDS * 1000,
    parse: {
      threads: settings.PODCAST_FEED_PARSE_THREADS,
      timeoutMs: settings.PODCAST_FEED_PARSE_SECONDS * 1000,
      memoryMb: settings.PODCAST_FEED_PARSE_MEMORY_MB,
      maxEpisodes: MAX_FEED_EPISODES,
    },
    ...(exempt.size > 0 ? { allowPrivateFor: (host: string) => exempt.has(host) } : {}),
  };
}
