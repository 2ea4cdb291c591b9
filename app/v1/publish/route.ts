import { withApi } from "@/lib/rest/with-api";
import { publishEndpoint } from "@/lib/publishing/endpoints";
import { publishTranscript } from "@/lib/publishing/publish";
import { transcriptDeps } from "@/lib/transcripts/deps";

export const POST = withApi(publishEndpoint, ({ principal, body }) =>
  publishTranscript(principal.userId, body, transcriptDeps()),
);
