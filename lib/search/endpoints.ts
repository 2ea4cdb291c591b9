import { defineEndpoint } from "@/lib/http/endpoint";
import { publicSearchQuerySchema, searchQuerySchema, searchResponseSchema } from "@/lib/search/schemas";

const tag = "Search";
const timedOut = "The search found nothing within its deadline (`search_timed_out`, see Retry-After)";
const syntax =
  'Words are stemmed by each transcript\'s language ("colonize" finds "colonized"); "quoted phrases" match in order; -word excludes; OR between words. Chinese, Japanese and Korean text is matched by pairs of adjacent characters (queries of two or more characters). Moments are passages of about 200 characters, most relevant first, at most 3 per transcript; `start`/`end` are those of the matching segment. Page with `cursor` (`next_cursor` of the previous page). `mode=hybrid` (the default) also finds the moments that mean what the query asks though they say other words (by meaning: each passage\'s vector), in one ranking with the moments that say the words, those holding every word first; `keyword`: only the words said; `meaning`: only by meaning. A search that runs out of its deadline answers the moments it found in time with `partial: true`, or 503 `search_timed_out` with Retry-After when it found none.';

export const searchLibraryEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/me/search",
  tag,
  summary: "Search what was said in your transcripts: moments with timestamps, snippets and deep links",
  description: `Searches the transcripts of the caller's complete history entries (a deleted entry is gone from the results at once). ${syntax}`,
  auth: "use",
  rateLimit: "account",
  query: searchQuerySchema,
  response: searchResponseSchema,
  errors: { 503: timedOut },
});

export const searchPublicEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/public/search",
  tag,
  summary: "Search what was said in published transcripts",
  description: `No credentials. Only transcripts with a live public page (unpublishing removes one from the results at once); links point at /t/{slug}. With \`show\`, only the published episodes of that followed show (its page /s/{show}). ${syntax}`,
  auth: "none",
  rateLimit: "publicRead",
  query: publicSearchQuerySchema,
  response: searchResponseSchema,
  errors: { 429: "Too many requests from this address (see Retry-After)", 503: timedOut },
});
