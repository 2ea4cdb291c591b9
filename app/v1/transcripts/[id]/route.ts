import { withApi } from "@/lib/http/with-api";
import { editTranscriptEndpoint } from "@/lib/edits/endpoints";
import { readRevision, saveEdit } from "@/lib/edits/revisions";
import { getTranscriptEndpoint } from "@/lib/transcripts/endpoints";

export const GET = withApi(getTranscriptEndpoint, ({ principal, params, query }) =>
  readRevision(principal.userId, params.id, query.revision, query.format),
);

export const PATCH = withApi(editTranscriptEndpoint, ({ principal, params, query, body }) =>
  saveEdit(principal.userId, params.id, body, query.format),
);
