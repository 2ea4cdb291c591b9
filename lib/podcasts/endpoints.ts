import { defineEndpoint } from "@/lib/http/endpoint";
import { resolveRequestSchema, resolveResponseSchema } from "@/lib/podcasts/schemas";

export const resolvePodcastEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/podcast/resolve",
  tag: "Podcasts",
  summary: "A podcast feed, Apple Podcasts link or audio URL → show and episodes",
  description:
    "Fetches the URL (through the outbound guard, at most PODCAST_FEED_MAX_BYTES) and answers what it is: `feed` (an RSS or Atom feed: " +
    "the show and its episodes that carry audio), `episode` (an Apple Podcasts episode link: the show and that one episode), or `audio` " +
    '(the URL serves audio or video: transcribe it with `POST /v1/transcript {"audio": url}`). Apple Podcasts links are resolved to the ' +
    "show's feed through the public iTunes lookup API. Feeds are parsed with entity expansion and external entities off, in a worker " +
    "thread with a memory limit and a deadline, and are refused past 500,000 elements, 64 attributes on an element, a depth of 48 or a " +
    "text of 1 MiB. By default a feed's episodes come whole, up to 5,000 (more than any real podcast has); past that, or with a " +
    "smaller `limit` (at most 5,000), a page at a time from `offset` (the previous answer's `next_offset`); `total_episodes` counts " +
    "them all, of which the first 10,000 can be paged through. When an episode on the page " +
    "publishes a transcript (Podcasting 2.0 `podcast:transcript`), a later POST /v1/transcript for its audio uses it (source `captions`).",
  auth: "use",
  rateLimit: "podcastResolve",
  body: resolveRequestSchema,
  response: resolveResponseSchema,
  errors: {
    404: "podcast_not_found: Apple Podcasts has no public feed for that show, or the episode is not in it",
    422: "feed_invalid (malformed feed, with the line; past the parser's bounds, memory or deadline), not_a_feed (a web page), response_too_large (over PODCAST_FEED_MAX_BYTES), url_not_allowed / address_not_allowed (internal or unsupported URL)",
    502: "upstream_failed: the URL or Apple's lookup answered an error",
    504: "upstream_timeout",
  },
});
