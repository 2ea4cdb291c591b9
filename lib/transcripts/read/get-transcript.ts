import type { Format } from "@/lib/formats";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";
import { readTranscript, type ReadOptions } from "./read-transcript";
import { serializeTranscript } from "./serialize-transcript";
import { transcriptFile } from "./transcript-file";

export interface TranscriptQuery extends ReadOptions {
  format: Format;
}

/** GET /v1/transcripts/{id} and the dashboard's transcript: the transcript as the caller sees it, in `format`. */
export async function getTranscript(
  viewerId: string,
  transcriptId: string,
  { format, revision }: TranscriptQuery,
): Promise<TranscriptResponse> {
  return serializeTranscript(await readTranscript(viewerId, transcriptId, { revision }), format);
}

/** GET /v1/transcripts/{id}/download: the same version as a file, with its own Content-Type and name. */
export async function downloadTranscript(
  viewerId: string,
  transcriptId: string,
  { format, revision }: TranscriptQuery,
): Promise<Response> {
  return transcriptFile(await readTranscript(viewerId, transcriptId, { revision }), format);
}
