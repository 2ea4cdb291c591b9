import { withApi } from "@/lib/rest/with-api";
import { listTranscriptionsEndpoint } from "@/lib/transcripts/endpoints";
import { listTranscriptions } from "@/lib/transcripts/list-transcriptions";

export const GET = withApi(listTranscriptionsEndpoint, ({ principal, query }) =>
  listTranscriptions(principal.userId, query),
);
