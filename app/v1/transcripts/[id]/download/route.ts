import { withApi } from "@/lib/rest/with-api";
import { downloadTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { downloadTranscript } from "@/lib/transcripts/read";

export const GET = withApi(downloadTranscriptEndpoint, ({ principal, params, query }) =>
  downloadTranscript(principal.userId, params.id, query),
);
