import { withApi } from "@/lib/rest/with-api";
import { editTranscriptEndpoint } from "@/lib/edits/endpoints";
import { saveEditResponse } from "@/lib/edits/revisions";
import { getTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { getTranscript } from "@/lib/transcripts/read";

export const GET = withApi(getTranscriptEndpoint, ({ principal, params, query }) =>
  getTranscript(principal.userId, params.id, query),
);

export const PATCH = withApi(editTranscriptEndpoint, ({ principal, params, query, body }) =>
  saveEditResponse(principal.userId, params.id, body, query.format),
);
