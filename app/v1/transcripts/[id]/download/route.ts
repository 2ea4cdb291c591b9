import { withApi } from "@/lib/app/with-api";
import { downloadTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { downloadTranscript } from "@/lib/transcripts/read";

export const GET = withApi(downloadTranscriptEndpoint, ({ principal, params, query }) =>
  downloadTranscript(principal.userId, params.id, query),
);
