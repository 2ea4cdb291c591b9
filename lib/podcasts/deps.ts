import { env } from "@/lib/env";
import { appOutbound } from "@/lib/http/outbound/configured";
import type { ResolveDeps } from "@/lib/podcasts/resolve-podcast";

/** The app's podcast dependencies, from settings. */
export function podcastDeps(): ResolveDeps {
  const settings = env();
  const exempt = new Set(settings.OUTBOUND_ALLOW_PRIVATE_HOSTS ?? []);
  return {
    outbound: appOutbound(),
    lookupUrl: settings.ITUNES_LOOKUP_URL,
    maxBytes: settings.PODCAST_FEED_MAX_BYTES,
    ...(exempt.size > 0 ? { allowPrivateFor: (host: string) => exempt.has(host) } : {}),
  };
}
