import { withApi } from "@/lib/http/with-api";
import { downloadTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { downloadTranscript } from "@/lib/transcripts/get-transcript";

export const GET = withApi(downloadTranscriptEndpoint, ({ principal, params, query }) =>
  downloadTranscript(principal.userId, params.id, query.format),
);
