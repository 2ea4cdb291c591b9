import { withApi } from "@/lib/rest/with-api";
import { restoreTranscriptEndpoint } from "@/lib/edits/endpoints";
import { restoreOriginal } from "@/lib/edits/revisions";

export const DELETE = withApi(restoreTranscriptEndpoint, ({ principal, params, query }) =>
  restoreOriginal(principal.userId, params.id, query.format),
);
