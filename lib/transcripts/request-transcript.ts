import { errors } from "@/lib/http/errors";
import { getCaptionTranscript } from "@/lib/transcripts/fetch-captions";
import { findStoredTranscript } from "@/lib/transcripts/store-transcript";
import { getPublishedTranscript } from "@/lib/transcripts/published-transcript";
import { recordTranscription } from "@/lib/transcripts/record-transcription";
import { resolveSource } from "@/lib/transcripts/resolve-source";
import { asSeenBy, serializeTranscript } from "@/lib/transcripts/read";
import { asrNotConfigured, asrProvider } from "@/lib/transcripts/asr-provider";
import { checkRequestWebhook } from "@/lib/webhooks/check-request-webhook";
import { startTranscriptionJob, type StartedJob } from "@/lib/transcripts/start-transcription-job";
import { resolveUploadForUser } from "@/lib/uploads/resolve-upload";
import type { TranscribeContext } from "@/lib/transcripts/transcribe-pipeline";
import type { TranscriptRequest, TranscriptResponse } from "@/lib/transcripts/schemas";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import type { ParsedSource } from "@/lib/sources";
import type { Prisma } from "@/lib/generated/prisma/client";
import { audioFileTitle } from "@/lib/transcripts/audio-title";
import { vocabularyKey } from "@/lib/asr/vocabulary";
import { findAutoTranscript } from "@/lib/transcripts/auto-language";
import { nameUntitled } from "@/lib/transcripts/known-title";

/** How an import (lib/imports) asks: its own limits apply instead of the per-request job rate limit. */
export interface RequestOptions {
  /** The feed's or playlist's duration for the item, reserved up front (0: settled once measured). */
  estimateSeconds?: number;
  /** Skip the `job` rate-limit row (imports are limited per batch and by IMPORT_CONCURRENCY). */
  skipJobRateLimit?: boolean;
  /** What the caller knows the audio is called (an imported episode's title): kept in the history and the transcript. */
  title?: string | null;
  /** Who published it (an imported episode's show): the transcript's channel. */
  channel?: string | null;
  /**
   * When the video has captions, but not in `lang`: throw OtherLanguagesOnly (with the languages it has)
   * instead of starting paid speech recognition. MCP asks first; REST keeps the contract's behaviour.
   */
  askBeforeRecognition?: boolean;
  /** A follow's new item (lib/follows): the job's webhook events name the follow. */
  followId?: string;
  /** Checked in the transaction that charges, before anything is (start-transcription-job.ts's `guard`). */
  guard?: (tx: Prisma.TransactionClient) => Promise<void>;
}

/** The video has captions, only not in the language asked for: what it has instead. */
export class OtherLanguagesOnly extends Error {
  override readonly name = "OtherLanguagesOnly";
  constructor(
    readonly lang: string,
    readonly languages: { code: string; name: string; kind: string }[],
    readonly durationSeconds: number,
  ) {
    super(`No captions in '${lang}'.`);
  }
}

export type TranscriptOutcome =
  | { kind: "transcript"; transcript: TranscriptResponse }
  | { kind: "job"; job: StartedJob };

interface AsrSource {
  source: Pick<ParsedSource, "platform" | "videoId" | "canonicalUrl">;
  origin: TranscribeContext["origin"];
  objectPath?: string;
  title: string | null;
  /** The title is only the URL's file name: the file's own title tag replaces it. */
  titleFromFile?: boolean;
  channel?: string | null;
  estimateSeconds: number;
  /** Caption languages the video has instead (askBeforeRecognition): asked about, not recognised. */
  otherLanguages?: { code: string; name: string; kind: string }[];
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
  if (request.webhook_url)
    request = { ...request, webhook_url: await checkRequestWebhook(userId, request.webhook_url) };
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
      // The publisher's file names no episode: its feed's item does (an import's or a follow's).
      const transcript = await nameUntitled(published.transcript, options);
      // Charged the episode's length as its feed states it (an import's or a follow's item), as the preview said.
      if (!published.inHistory) await recordTranscription(userId, transcript, options.estimateSeconds ?? 0);
      return {
        kind: "transcript",
        transcript: serializeTranscript(await asSeenBy(userId, transcript), request.format),
      };
    }
    const fileTitle = options.title ? null : audioFileTitle(source.canonicalUrl);
    const asr: AsrSource = {
      source,
      origin: "audio_url",
      title: options.title ?? fileTitle,
      titleFromFile: fileTitle !== null,
      channel: options.channel ?? null,
      estimateSeconds: options.estimateSeconds ?? 0,
    };
    return transcribeAudio(userId, request, asr, options);
  }
  const captions = await getCaptionTranscript(userId, source, request.lang, deps);
  if (captions.kind === "transcript") {
    if (!captions.inHistory) await recordTranscription(userId, captions.transcript);
    return {
      kind: "transcript",
      transcript: serializeTranscript(await asSeenBy(userId, captions.transcript), request.format),
    };
  }
  const asr: AsrSource = {
    source,
    origin: "platform",
    title: captions.info?.title ?? null,
    estimateSeconds: captions.info?.durationSeconds ?? options.estimateSeconds ?? 0,
    ...(options.askBeforeRecognition && captions.info?.languages?.length
      ? { otherLanguages: captions.info.languages }
      : {}),
  };
  return transcribeAudio(userId, request, asr, options);
}

async function transcribeAudio(
  userId: string,
  request: TranscriptRequest,
  asr: AsrSource,
  options: RequestOptions,
): Promise<TranscriptOutcome> {
  // A vocabulary changes what is recognised: such a transcript is its own cache entry (lib/asr/vocabulary.ts).
  // "auto" is stored under the language heard, unknown before recognition: the user's own earlier
  // auto-detected transcript of this source is served; anyone else's is not known to be the same language.
  const stored =
    request.lang === "auto"
      ? await findAutoTranscript(userId, asr.source, vocabularyKey(request.vocabulary))
      : await findStoredTranscript(userId, asr.source, request.lang, "asr", vocabularyKey(request.vocabulary));
  if (stored) {
    // An episode asked for again by its feed's item (a follow, an import) is named after it if nothing named it yet.
    const transcript =
      asr.origin === "audio_url" && !asr.titleFromFile ? await nameUntitled(stored.transcript, asr) : stored.transcript;
    if (!stored.inHistory) await recordTranscription(userId, transcript);
    return {
      kind: "transcript",
      transcript: serializeTranscript(await asSeenBy(userId, transcript), request.format),
    };
  }
  if (asr.otherLanguages) throw new OtherLanguagesOnly(request.lang, asr.otherLanguages, asr.estimateSeconds);
  if (!asrProvider()) {
    throw asrNotConfigured(
      errors.notConfigured(
        "asr_not_configured",
        "This source needs speech recognition, which this server does not offer.",
      ),
    );
  }
  const job = await startTranscriptionJob({
    userId,
    platform: asr.source.platform,
    videoId: asr.source.videoId,
    canonicalUrl: asr.source.canonicalUrl,
    lang: request.lang,
    ...(request.vocabulary?.length ? { vocabulary: request.vocabulary } : {}),
    origin: asr.origin,
    objectPath: asr.objectPath,
    title: asr.title,
    ...(asr.titleFromFile ? { titleFromFile: true } : {}),
    ...(asr.channel ? { channel: asr.channel } : {}),
    estimateSeconds: asr.estimateSeconds,
    skipJobRateLimit: options.skipJobRateLimit,
    ...(request.webhook_url ? { webhookUrl: request.webhook_url } : {}),
    ...(options.followId ? { followId: options.followId } : {}),
    ...(options.guard ? { guard: options.guard } : {}),
  });
  return { kind: "job", job };
}
