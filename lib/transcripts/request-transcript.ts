import { errors } from "@/lib/http/errors";
import { findStoredTranscript, getCaptionTranscript, NoCaptionsError } from "@/lib/transcripts/fetch-captions";
import { recordTranscription } from "@/lib/transcripts/record-transcription";
import { resolveSource } from "@/lib/transcripts/resolve-source";
import { serializeTranscript } from "@/lib/transcripts/serializers";
import { ASR_SETTINGS_HINT, asrProvider } from "@/lib/transcripts/asr-provider";
import { checkRequestWebhook } from "@/lib/webhooks/check-request-webhook";
import { startTranscriptionJob, type StartedJob } from "@/lib/transcripts/start-transcription-job";
import { resolveUploadForUser } from "@/lib/uploads/resolve-upload";
import type { TranscribeContext } from "@/lib/transcripts/transcribe-pipeline";
import type { TranscriptRequest, TranscriptResponse } from "@/lib/transcripts/schemas";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import type { ParsedSource } from "@/lib/sources";
import { getPublishedTranscript } from "@/lib/podcasts/episode-transcripts";

/** How an import (lib/imports) asks: its own limits apply instead of the per-request job rate limit. */
export interface RequestOptions {
  /** The feed's or playlist's duration for the item, reserved up front (0: settled once measured). */
  estimateSeconds?: number;
  /** Skip the `job` rate-limit row (imports are limited per batch and by IMPORT_CONCURRENCY). */
  skipJobRateLimit?: boolean;
}

export type TranscriptOutcome = { kind: "transcript"; transcript: TranscriptResponse } | { kind: "job"; job: StartedJob };

interface AsrSource {
  source: Pick<ParsedSource, "platform" | "videoId" | "canonicalUrl">;
  origin: TranscribeContext["origin"];
  objectPath?: string;
  title: string | null;
  estimateSeconds: number;
}

/**
 * POST /v1/transcript: captions at once when the platform has them in `lang`; otherwise (and for
 * uploads and audio URLs) speech recognition as a job — a stored result is returned at once too.
 */
export async function requestTranscript(
  userId: string,
  request: TranscriptRequest,
  deps: TranscriptDeps,
  options: RequestOptions = {},
): Promise<TranscriptOutcome> {
  if (request.webhook_url) request = { ...request, webhook_url: await checkRequestWebhook(userId, request.webhook_url) };
  if (request.upload) {
    const upload = await resolveUploadForUser(userId, request.upload);
    const videoId = upload.objectPath.split("/")[2] ?? upload.objectPath;
    const asr: AsrSource = {
      source: { platform: "upload", videoId, canonicalUrl: `upload:${upload.objectPath}` },
      origin: "upload",
      objectPath: upload.objectPath,
      title: upload.filename,
      estimateSeconds: 0,
    };
    return transcribeAudio(userId, request, asr, options);
  }
  const field = request.audio ? "audio" : "url";
  const source = await resolveSource(request.audio ?? request.url, deps, ["body", field]);
  if (source.platform === "podcast") {
    // A transcript the episode's feed publishes (the caller resolved or imported that feed) is its captions.
    const published = await getPublishedTranscript(userId, source, request.lang, deps);
    if (published) {
      if (!published.inHistory) await recordTranscription(userId, published.transcript);
      return { kind: "transcript", transcript: serializeTranscript(published.transcript, request.format) };
    }
    const asr: AsrSource = { source, origin: "audio_url", title: null, estimateSeconds: options.estimateSeconds ?? 0 };
    return transcribeAudio(userId, request, asr, options);
  }
  try {
    const { transcript, inHistory } = await getCaptionTranscript(userId, source, request.lang, deps);
    if (!inHistory) await recordTranscription(userId, transcript);
    return { kind: "transcript", transcript: serializeTranscript(transcript, request.format) };
  } catch (error) {
    if (!(error instanceof NoCaptionsError)) throw error;
    const asr: AsrSource = {
      source,
      origin: "platform",
      title: error.info?.title ?? null,
      estimateSeconds: error.info?.durationSeconds ?? options.estimateSeconds ?? 0,
    };
    return transcribeAudio(userId, request, asr, options);
  }
}

async function transcribeAudio(userId: string, request: TranscriptRequest, asr: AsrSource, options: RequestOptions): Promise<TranscriptOutcome> {
  const stored = await findStoredTranscript(userId, asr.source, request.lang, "asr");
  if (stored) {
    if (!stored.inHistory) await recordTranscription(userId, stored.transcript);
    return { kind: "transcript", transcript: serializeTranscript(stored.transcript, request.format) };
  }
  if (!asrProvider()) {
    throw errors.notConfigured("asr_not_configured", `This source needs speech recognition, which is not configured on this server. ${ASR_SETTINGS_HINT}`);
  }
  const job = await startTranscriptionJob({
    userId,
    platform: asr.source.platform,
    videoId: asr.source.videoId,
    canonicalUrl: asr.source.canonicalUrl,
    lang: request.lang,
    origin: asr.origin,
    objectPath: asr.objectPath,
    title: asr.title,
    estimateSeconds: asr.estimateSeconds,
    skipJobRateLimit: options.skipJobRateLimit,
    ...(request.webhook_url ? { webhookUrl: request.webhook_url } : {}),
  });
  return { kind: "job", job };
}
