import { defineEndpoint } from "@/lib/http/endpoint";
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
