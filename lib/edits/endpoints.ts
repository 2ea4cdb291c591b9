import { defineEndpoint } from "@/lib/http/endpoint";
import {
  editRequestSchema,
  MAX_EDIT_BODY_BYTES,
  revisionDiffSchema,
  revisionListSchema,
  revisionParamsSchema,
} from "@/lib/edits/schemas";
import { transcriptFormatQuerySchema, transcriptIdParamsSchema, transcriptSchema } from "@/lib/transcripts/schemas";

const tag = "Transcripts";

export const editTranscriptEndpoint = defineEndpoint({
  method: "PATCH",
  path: "/v1/transcripts/{id}",
  tag,
  summary: "Correct a transcript in the caller's history (a new revision; free)",
  description:
    "Send `segments` (the whole corrected list, each `{start, end, text}`, optional `words` and `speaker`), `format` (`srt` or `vtt`) with `content` (a corrected subtitle file), or `rename_speaker` (`{from, to}`: one speaker the source names, renamed across the whole transcript). Unchanged words keep their times; new words share the time between their neighbours; a segment sent without `speaker` keeps the one it has. The correction is the caller's own: they see it wherever they meet this transcript (and on their public page of it); nobody else does. Answers the transcript as the caller now sees it, with `edited: true`. Costs no allowance.",
  auth: "use",
  rateLimit: "editSave",
  params: transcriptIdParamsSchema,
  query: transcriptFormatQuerySchema,
  body: editRequestSchema,
  response: transcriptSchema,
  maxBodyBytes: MAX_EDIT_BODY_BYTES,
  errors: {
    404: "Not in the caller's history",
    413: "The body is over 4 MiB, the caller's saved corrections would pass EDIT_STORAGE_BYTES, or the correction takes more work than one save may use (`payload_too_large`)",
    429: "More than EDIT_SAVES_PER_MINUTE saves in a minute, or more than 5 in 15 seconds (`rate_limited`, with Retry-After)",
  },
});

export const listRevisionsEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/transcripts/{id}/revisions",
  tag,
  summary: "The caller's saved corrections of a transcript, newest first, and the original",
  auth: "use",
  rateLimit: "account",
  params: transcriptIdParamsSchema,
  response: revisionListSchema,
  errors: { 404: "Not in the caller's history" },
});

export const revisionDiffEndpoint = defineEndpoint({
  method: "GET",
  path: "/v1/transcripts/{id}/revisions/{revision_id}/diff",
  tag,
  summary: "A saved correction against the original, word by word",
  description: "`revision_id` is an id from the revisions list, or `current` for the caller's current version.",
  auth: "use",
  rateLimit: "account",
  params: revisionParamsSchema,
  response: revisionDiffSchema,
  errors: { 404: "Not in the caller's history, or no such revision" },
});

export const restoreTranscriptEndpoint = defineEndpoint({
  method: "DELETE",
  path: "/v1/transcripts/{id}/edits",
  tag,
  summary: "Drop the caller's corrections: back to the original everywhere",
  description: "Removes every saved revision of this transcript and answers the original.",
  auth: "use",
  rateLimit: "edit",
  params: transcriptIdParamsSchema,
  query: transcriptFormatQuerySchema,
  response: transcriptSchema,
  errors: { 404: "Not in the caller's history" },
});
