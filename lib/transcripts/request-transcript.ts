import { errors } from "@/lib/http/errors";
import { getCaptionTranscript } from "@/lib/transcripts/fetch-captions";
import { recordTranscription } from "@/lib/transcripts/record-transcription";
import { resolveSource } from "@/lib/transcripts/resolve-source";
import { serializeTranscript } from "@/lib/transcripts/serializers";
import type { TranscriptRequest, TranscriptResponse } from "@/lib/transcripts/schemas";
import type { TranscriptDeps } from "@/lib/transcripts/deps";

/**
 * POST /v1/transcript: the transcript at once when the platform has captions in `lang`.
 * Sources without captions, uploads and audio URLs need speech recognition (a 202 job).
 */
export async function requestTranscript(userId: string, request: TranscriptRequest, deps: TranscriptDeps): Promise<TranscriptResponse> {
  if (request.upload || request.audio) {
    throw errors.notConfigured("asr_not_configured", "Uploads and audio URLs need speech recognition, which is not configured on this server.");
  }
  const source = await resolveSource(request.url, deps);
  if (source.platform === "podcast") {
    throw errors.notConfigured("asr_not_configured", "Audio links need speech recognition, which is not configured on this server.");
  }
  const { transcript, inHistory } = await getCaptionTranscript(userId, source, request.lang, deps);
  if (!inHistory) await recordTranscription(userId, transcript);
  return serializeTranscript(transcript, request.format);
}
