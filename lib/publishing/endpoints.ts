import { defineEndpoint } from "@/lib/http/endpoint";
import { transcriptFileContent } from "@/lib/transcripts/schemas";
import {
  publicDownloadQuerySchema,
  publicIndexQuerySchema,
  publicIndexResponseSchema,
  podcastTranscriptJsonSchema,
  publicTranscriptSchema,
  publishRequestSchema,
  publishResponseSchema,
  slugParamsSchema,
} from "@/lib/publishing/schemas";

const tag = "Publishing";

export const publishEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/publish",
  tag,
  summary: "Publish a transcript from your history on a public page",
  description:
    "The transcript of `url` in `lang` must be in the caller's history and complete; every complete entry of GET /v1/me/transcriptions gives the `url` that publishes it as its `source_url` (also for uploads and podcast episodes). The slug is the title's words and a short random suffix; publishing the same transcript again (also after unpublishing) keeps it. Uploaded files are published under their stored title, never their storage path.",
  auth: "use",
  rateLimit: "account",
  body: publishRequestSchema,
  response: publishResponseSchema,
  errors: {
    404: "No transcript of this source and language in the caller's history",
    409: "The transcript is not complete yet",
  },
});

export const unpublishEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/publish/{slug}",
  tag,
  summary: "Take a published transcript off its public page (the slug is kept for a later publish)",
  auth: "use",
  rateLimit: "account",
  params: slugParamsSchema,
  status: 204,
  response: null,
  errors: { 404: "No published transcript of the caller has this slug" },
});

export const publicIndexEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/index",
  tag,
  summary: "Every published transcript, newest first",
  description:
    "Keyset pagination: each page (`limit`, default 100, at most 1000) ends with `next_cursor`; pass it as `cursor` for the next page, until it is null. Pages cost the same at any depth. Cacheable for a minute.",
  auth: "none",
  rateLimit: "publicRead",
  query: publicIndexQuerySchema,
  response: publicIndexResponseSchema,
  errors: { 429: "Too many requests from this address (see Retry-After)" },
});

export const publicTranscriptEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/{slug}",
  tag,
  summary: "A published transcript: the transcript object plus title, platform, source link and published_at",
  description:
    "Answers carry ETag, Last-Modified and a Cache-Control shared caches may use; a request with a matching If-None-Match (or If-Modified-Since) gets 304. Unknown and unpublished slugs are the same 404. `podcast_transcripts` lists the files a podcast feed can link to. Every answer carries `Access-Control-Allow-Origin: *`.",
  auth: "none",
  rateLimit: "publicRead",
  anyOrigin: true,
  params: slugParamsSchema,
  response: publicTranscriptSchema,
  errors: {
    304: "Not modified",
    404: "No published transcript has this slug",
    429: "Too many requests from this address (see Retry-After)",
  },
});

export const publicDownloadEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/{slug}/download",
  tag,
  summary: "A published transcript as a file in any format (its own Content-Type and filename)",
  auth: "none",
  rateLimit: "publicFile",
  anyOrigin: true,
  params: slugParamsSchema,
  query: publicDownloadQuerySchema,
  content: transcriptFileContent,
  errors: {
    304: "Not modified",
    404: "No published transcript has this slug",
    429: "Too many requests from this address (see Retry-After)",
  },
});

const PODCAST_FILE_DESCRIPTION =
  "For a podcast feed's `<podcast:transcript>` tag (Podcasting 2.0): GET /v1/public/{slug} lists every file with its absolute URL, type, language and rel. The URL stays while the transcript is published; the text is what its public page shows (the publisher's correction, if any). Every answer, 304 and errors included, carries `Access-Control-Allow-Origin: *`; answers carry ETag (it changes with the text), Last-Modified, `Content-Language` and a Cache-Control shared caches may use, and a matching If-None-Match (or If-Modified-Since) gets 304. Unknown and unpublished slugs are the same 404.";

const podcastFileErrors = {
  304: "Not modified",
  404: "No published transcript has this slug",
  429: "Too many requests from this address (see Retry-After)",
};

export const podcastTranscriptVttEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/{slug}/transcript.vtt",
  tag,
  summary: "A published transcript as WebVTT captions, for a podcast feed",
  description: PODCAST_FILE_DESCRIPTION,
  auth: "none",
  rateLimit: "publicFile",
  anyOrigin: true,
  params: slugParamsSchema,
  content: { "text/vtt": "text" },
  errors: podcastFileErrors,
});

export const podcastTranscriptSrtEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/{slug}/transcript.srt",
  tag,
  summary: "A published transcript as SubRip captions, for a podcast feed",
  description: PODCAST_FILE_DESCRIPTION,
  auth: "none",
  rateLimit: "publicFile",
  anyOrigin: true,
  params: slugParamsSchema,
  content: { "application/x-subrip": "text" },
  errors: podcastFileErrors,
});

export const podcastTranscriptJsonEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/{slug}/transcript.json",
  tag,
  summary: "A published transcript in the Podcasting 2.0 JSON format, for a podcast feed",
  description: `${PODCAST_FILE_DESCRIPTION} Segments carry \`speaker\` where the source names one.`,
  auth: "none",
  rateLimit: "publicFile",
  anyOrigin: true,
  params: slugParamsSchema,
  content: { "application/json": podcastTranscriptJsonSchema },
  errors: podcastFileErrors,
});

export const podcastTranscriptHtmlEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/{slug}/transcript.html",
  tag,
  summary: "A published transcript as the Podcasting 2.0 HTML transcript, for a podcast feed",
  description: `${PODCAST_FILE_DESCRIPTION} A whole document: \`<time>\` and \`<p>\` per line, \`<cite>\` where a named speaker starts.`,
  auth: "none",
  rateLimit: "publicFile",
  anyOrigin: true,
  params: slugParamsSchema,
  content: { "text/html": "text" },
  errors: podcastFileErrors,
});
export { showFeedEndpoint } from "@/lib/publishing/show-endpoints";
