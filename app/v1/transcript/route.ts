import { withApi } from "@/lib/http/with-api";
import { createTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { requestTranscript } from "@/lib/transcripts/request-transcript";
import { transcriptDeps } from "@/lib/transcripts/deps";

export const POST = withApi(createTranscriptEndpoint, ({ principal, body }) => requestTranscript(principal.userId, body, transcriptDeps()));
