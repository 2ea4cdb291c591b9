import { withApi } from "@/lib/http/with-api";
import { getTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { getTranscript } from "@/lib/transcripts/get-transcript";

export const GET = withApi(getTranscriptEndpoint, ({ principal, params, query }) =>
  getTranscript(principal.userId, params.id, query.format),
);
