import { withApi } from "@/lib/rest/with-api";
import { transcriptMediaEndpoint } from "@/lib/transcripts/endpoints";
import { transcriptMedia } from "@/lib/transcripts/transcript-media";

export const GET = withApi(transcriptMediaEndpoint, ({ principal, params, request }) =>
  transcriptMedia(principal.userId, params.id, request.headers.get("range")),
);
