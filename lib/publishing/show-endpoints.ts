import { defineEndpoint } from "@/lib/http/endpoint";
import { slugParamsSchema } from "@/lib/publishing/schemas";

export const showFeedEndpoint = defineEndpoint({
  method: "GET",
  path: "/s/{slug}/feed.xml",
  tag: "Publishing",
  summary: "A followed show's transcribed episodes as a podcast feed, each with its transcript files",
  description:
    "RSS 2.0 with the Podcasting 2.0 namespace, for a podcaster who has no feed of their own to add transcripts to: every episode of the show that its follower has published (newest first, at most 500), each an `<item>` with the publisher's `guid`, `pubDate`, the original audio as `enclosure`, a `link` to its public page and a `<podcast:transcript>` for each of its public files (WebVTT, SRT, JSON, HTML). The show's page is `/s/{slug}` (GET /v1/follows gives it as `show_url`). Answers carry an ETag (a matching If-None-Match gets 304), a Cache-Control shared caches may use, and `Access-Control-Allow-Origin: *`. A slug with no published episode is a 404.",
  auth: "none",
  rateLimit: "publicRead",
  anyOrigin: true,
  params: slugParamsSchema,
  content: { "application/rss+xml": "text" },
  errors: {
    304: "Not modified",
    404: "No show with a published episode has this slug",
    429: "Too many requests from this address (see Retry-After)",
  },
});
