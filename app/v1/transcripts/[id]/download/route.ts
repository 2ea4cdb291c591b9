import { withApi } from "@/lib/http/with-api";
import { rowAt } from "@/lib/edits/revisions";
import { downloadTranscriptEndpoint } from "@/lib/transcripts/endpoints";
import { transcriptFile } from "@/lib/transcripts/get-transcript";

export const GET = withApi(downloadTranscriptEndpoint, async ({ principal, params, query }) =>
  transcriptFile(await rowAt(principal.userId, params.id, query.revision), query.format),
);
