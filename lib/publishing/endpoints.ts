import { defineEndpoint } from "@/lib/http/endpoint";
import { transcriptFileContent } from "@/lib/transcripts/schemas";
import {
  publicDownloadQuerySchema,
  publicIndexQuerySchema,
  publicIndexResponseSchema,
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
    "Answers carry ETag, Last-Modified and a Cache-Control shared caches may use; a request with a matching If-None-Match (or If-Modified-Since) gets 304. Unknown and unpublished slugs are the same 404.",
  auth: "none",
  rateLimit: "publicRead",
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
  rateLimit: "publicRead",
  params: slugParamsSchema,
  query: publicDownloadQuerySchema,
  content: transcriptFileContent,
  errors: {
    304: "Not modified",
    404: "No published transcript has this slug",
    429: "Too many requests from this address (see Retry-After)",
  },
});
