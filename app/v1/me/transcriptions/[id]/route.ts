import { withApi } from "@/lib/rest/with-api";
import { deleteTranscriptionEndpoint } from "@/lib/transcripts/endpoints";
import { deleteTranscription } from "@/lib/transcripts/delete-transcription";

export const DELETE = withApi(deleteTranscriptionEndpoint, ({ principal, params }) =>
  deleteTranscription(principal.userId, params.id),
);
