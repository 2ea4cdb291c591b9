import { defineEndpoint } from "@/lib/http/endpoint";
import {
  createDestinationSchema,
  destinationListSchema,
  destinationParamsSchema,
  destinationSchema,
} from "./destinations/schemas";
import { exportRequestSchema } from "./schemas";

export const exportNotesEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/exports",
  tag: "Exports",
  summary: "Export transcripts as Markdown notes (one .md, or a zip streamed as it is built)",
  description:
    "Exactly one selection: `ids`, `history` (the filters of GET /v1/me/transcriptions), `search` (the transcripts a search finds moments in), `follow_id` (a followed show's transcribed items) or `library` (the whole library the credential acts in: the caller's own or a team's). Each note has YAML front matter (title, source, channel or show, published and transcribed dates, duration, language, speakers, tags, the transcript's id), chapters as headings and each paragraph's timestamp linked to that moment. A note's file name is the title and a digest of the id, the same on every export. The caller's current version of each transcript (their corrections). `X-Export-Count` is the number of notes.",
  auth: "use",
  rateLimit: "export",
  body: exportRequestSchema,
  content: { "text/markdown": "text", "application/zip": "binary" },
  errors: {
    404: "A transcript id not in the caller's history, a follow not the caller's, or a selection that holds nothing",
    413: "The selection holds more transcripts than EXPORT_MAX_NOTES (`export_too_large`)",
  },
});

const destinationsWhat =
  "Destinations an account (or team) keeps: each transcript new in its library (a link, an upload, an import, a followed show's episode) or corrected is delivered to each of them once, on its own, retried with backoff. `folder`: the note written into a folder on the server (under the operator's EXPORT_FOLDER_ROOT), atomically; Verbatim's part lies between `verbatim:begin`/`verbatim:end` comment lines and an update replaces only that part, so what the person wrote outside it stays; a note edited with those lines gone is kept as it is (`kept`). `notion`: a page per transcript in a Notion database shared with the integration, through Notion's public API; a correction replaces the page (the old one moves to Notion's trash). Webhooks keep working beside them.";

export const listDestinationsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/exports/destinations",
  tag: "Exports",
  summary: "The account's export destinations, each with how its deliveries stand and why it fails",
  description: destinationsWhat,
  auth: "destinations",
  rateLimit: "account",
  response: destinationListSchema,
});

export const createDestinationEndpoint = defineEndpoint({
  method: "POST",
  path: "/v1/exports/destinations",
  tag: "Exports",
  summary: "Add an export destination: a folder on the server or a Notion database (its token is never shown again)",
  description: destinationsWhat,
  auth: "destinations",
  rateLimit: "account",
  body: createDestinationSchema,
  status: 201,
  response: destinationSchema,
  errors: {
    409: "The account exports to this folder or database already (`destination_exists`), or keeps EXPORT_MAX_DESTINATIONS (`too_many_destinations`)",
    422: "A path outside the server's export folder, a malformed database id or token, or fields of the other kind",
    503: "A folder destination where the operator set no EXPORT_FOLDER_ROOT (`destination_not_configured`)",
  },
});

export const deleteDestinationEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/exports/destinations/{id}",
  tag: "Exports",
  summary: "Remove an export destination, its token and its deliveries (what it wrote stays)",
  auth: "destinations",
  rateLimit: "account",
  params: destinationParamsSchema,
  status: 204,
  response: null,
  errors: { 404: "No destination with this id in the account" },
});
