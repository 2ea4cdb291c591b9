import { withApi } from "@/lib/rest/with-api";
import { resolvePodcastEndpoint } from "@/lib/podcasts/endpoints";
import { resolvePodcast } from "@/lib/podcasts/resolve-podcast";
import { podcastDeps } from "@/lib/podcasts/deps";

export const POST = withApi(resolvePodcastEndpoint, ({ principal, body }) =>
  resolvePodcast(principal.userId, body, podcastDeps()),
);
