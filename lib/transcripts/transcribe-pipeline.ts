import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env";
import { getDb } from "@/lib/db/client";
import { z } from "zod";
import { definePipeline, PermanentError, RetryableError, type StepContext } from "@/lib/jobs/pipeline";
import {
  assertDuration,
  convertForAsr,
  downloadAudioUrl,
  downloadPlatformAudio,
  isMediaError,
  probeMedia,
} from "@/lib/media";
import { AsrError, segmentWords, type AsrResult } from "@/lib/asr";
import { guardWords } from "@/lib/asr/hallucination";
import { toOriginalClock } from "@/lib/asr/speech-audio";
import { vocabularyKey } from "@/lib/asr/vocabulary";
import { SourceError } from "@/lib/captions/types";
import { normalizeSegments } from "@/lib/formats";
import { boundStoredWords } from "@/lib/formats/stored-words";
import { resolveUploadForUser } from "@/lib/uploads/resolve-upload";
import { allowanceRefusal } from "@/lib/usage/charge";
import { refundReservation, settleReservation } from "@/lib/usage/reservation";
import { appOutbound } from "@/lib/http/outbound/configured";
import { isOutboundError } from "@/lib/http/outbound";
import { isRetryableCode } from "@/lib/http/error-codes";
import { PLATFORMS } from "@/lib/sources";
import { asrNotConfigured, asrProvider } from "@/lib/transcripts/asr-provider";
import { findSpeech, isLocal, paidEngineAudio } from "@/lib/transcripts/heard-audio";
import { withOperatorNote } from "@/lib/observability/failure-cause";
import { storeTranscript } from "@/lib/transcripts/store-transcript";
import { recognitionSeconds } from "@/lib/observability/metrics";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { transcriptEvent } from "@/lib/webhooks/events";

// Speech recognition as a durable job: prepare the audio (fetch → probe → settle the reservation to the
// measured duration → convert to mono 16 kHz), submit it to speech recognition (paid: once per job), then
// wait for the result and store it. Usage is reserved when the job is enqueued (start-transcription-job.ts),
// adjusted once the duration is measured, and refunded on failure, in the period it was reserved in.
// One file because the steps hand each other one checkpointed context and the money rules (reserve, settle,
// refund, one paid submission) are checked by reading every step together; the audio and recogniser work
// they call is in lib/media, lib/asr and ./heard-audio.ts (which audio each recogniser hears).

export const TRANSCRIBE_PIPELINE = "transcribe";

/** Sources up to this size are probed and converted concurrently. */
const CONCURRENT_PREPARE_BYTES = 8 * 1024 * 1024;

const transcribeContextSchema = z.object({
  userId: z.string().min(1),
  platform: z.enum(PLATFORMS),
  videoId: z.string().min(1),
  canonicalUrl: z.string().min(1),
  /** A language tag, or "auto": the recogniser detects it and the transcript is stored under the one heard. */
  lang: z.string().min(1),
  /** Terms the recogniser should expect (lib/asr/vocabulary.ts); kept with the job so a retry asks the same. */
  vocabulary: z.array(z.string()).optional(),
  /** Where the audio comes from: a platform page (yt-dlp), a direct audio URL, or an upload. */
  origin: z.enum(["platform", "audio_url", "upload"]),
  /** The upload's object path (origin "upload"). */
  objectPath: z.string().optional(),
  title: z.string().nullish(),
  /** `title` is the audio URL's file name: the file's own title tag (ffprobe) replaces it once probed. */
  titleFromFile: z.boolean().optional(),
  /** Who published it, when the requester knew (an imported episode's show). */
  channel: z.string().nullish(),
  /** Start of the usage period the reservation was charged to (ISO); the job row's periodStart wins. */
  periodStart: z.iso.datetime({ offset: true }),
  /** The request's own `webhook_url`, told of this job's outcome besides the account's endpoints. */
  webhookUrl: z.string().optional(),
  // Step outputs:
  audioPath: z.string().optional(),
  /** Asynchronous providers: the provider the audio was uploaded to, its URL for the audio, when (ISO), and the transcript id. */
  asrProvider: z.string().optional(),
  asrUploadUrl: z.string().optional(),
  asrUploadedAt: z.string().optional(),
  asrTranscriptId: z.string().optional(),
  durationSeconds: z.number().nonnegative().optional(),
  /** Speech regions the voice-activity detector found (lib/asr/vad.ts); absent when it could not run. */
  speech: z.array(z.object({ start: z.number(), end: z.number() })).optional(),
  /**
   * What the asynchronous provider was sent: these pieces of the audio joined (lib/asr/speech-audio.ts),
   * so its times are mapped back with them; absent: the whole audio. Kept with the upload it describes.
   */
  asrPieces: z.array(z.object({ start: z.number(), end: z.number() })).optional(),
  transcriptId: z.string().optional(),
});

export type TranscribeContext = z.infer<typeof transcribeContextSchema>;

/** Work files of a job live here until it finishes, so a retried step can find them. */
function workDir(jobId: string): string {
  return path.resolve(env().DATA_DIR, "work", jobId);
}

/**
 * Source failures a later attempt may get past. A bot check or a 429 passes with time; DNS, a refused
 * connection or a certificate (upstream_dns_failed, …) need the operator, so they fail the job at once.
 */
const RETRIED_SOURCE_CODES = new Set<string>(["upstream_failed", "upstream_blocked", "upstream_rate_limited"]);

/** Media, platform and network failures: permanent when retrying cannot help. */
function asJobError(error: unknown): unknown {
  if (error instanceof SourceError)
    return RETRIED_SOURCE_CODES.has(error.code)
      ? new RetryableError(error.code, error.message, { cause: error })
      : new PermanentError(error.code, error.message, { cause: error });
  if (isMediaError(error))
    return error.retryable
      ? new RetryableError(error.code, error.message, { cause: error })
      : new PermanentError(error.code, error.message, { cause: error });
  if (error instanceof AsrError)
    return error.retryable
      ? new RetryableError(error.code, error.message, { cause: error })
      : new PermanentError(error.code, error.message, { cause: error });
  if (isOutboundError(error))
    // The closed list says which need the operator or the link (DNS, refused, TLS): those fail the job at once.
    return error.status < 500 || !isRetryableCode(error.code)
      ? new PermanentError(error.code, error.message, { cause: error })
      : new RetryableError(error.code, error.message, { cause: error });
  return error;
}

async function fetchSource(ctx: TranscribeContext, dir: string, io: StepContext): Promise<string> {
  const settings = env();
  if (ctx.origin === "upload") {
    const upload = await resolveUploadForUser(ctx.userId, ctx.objectPath ?? "").catch(() => {
      throw new PermanentError("upload_not_found", "The uploaded file is gone (expired or deleted).");
    });
    if (upload.path) return upload.path;
    // The app's own bucket: its own client, not the guard for user-supplied URLs (lib/uploads/s3.ts).
    const file = await downloadAudioUrl(upload.url!, dir, {
      outbound: upload.outbound!,
      maxBytes: settings.MEDIA_MAX_BYTES,
      signal: io.signal,
    });
    return file.path;
  }
  if (ctx.origin === "audio_url") {
    const file = await downloadAudioUrl(ctx.canonicalUrl, dir, {
      outbound: appOutbound(),
      maxBytes: settings.MEDIA_MAX_BYTES,
      signal: io.signal,
    });
    return file.path;
  }
  const file = await downloadPlatformAudio(
    { platform: ctx.platform, videoId: ctx.videoId, canonicalUrl: ctx.canonicalUrl },
    dir,
    {
      binary: settings.YTDLP_PATH,
      maxBytes: settings.MEDIA_MAX_BYTES,
      maxDurationSeconds: settings.MEDIA_MAX_DURATION_SECONDS,
      outbound: appOutbound(),
      signal: io.signal,
    },
  );
  return file.path;
}

/**
 * Moves the job's reservation to the measured duration, in the period it was charged to, once: the job
 * row is locked and its reservedSecs updated in the same transaction, so a re-run finds nothing left to adjust.
 */
async function settleMeasured(jobId: string, ctx: TranscribeContext, measured: number): Promise<void> {
  const db = await getDb();
  await db.$transaction(async (tx) => {
    if (!(await settleReservation(tx, jobId, ctx.userId, measured, new Date(ctx.periodStart)))) {
      throw new PermanentError(
        "allowance_exhausted",
        await allowanceRefusal(tx, ctx.userId, "This audio is", measured),
      );
    }
    await tx.historyEntry.updateMany({ where: { jobId }, data: { totalSeconds: measured } });
  });
}

/** The file's own title (its tag) for the job and its history entries, in place of the URL's file name. */
async function retitle(jobId: string, title: string): Promise<Partial<TranscribeContext>> {
  const db = await getDb();
  await db.historyEntry.updateMany({ where: { jobId }, data: { title } });
  return { title, titleFromFile: false };
}

/** Fetch, probe, settle the reservation, convert. Idempotent: a finished conversion is reused. */
async function prepareAudio(ctx: TranscribeContext, io: StepContext): Promise<Partial<TranscribeContext>> {
  const dir = workDir(io.jobId);
  const converted = path.join(dir, "asr");
  await mkdir(dir, { recursive: true });
  try {
    await io.progress("fetching audio", 0.05);
    const media = await fetchSource(ctx, dir, io);
    await io.progress("probing", 0.25);
    const convert = (durationSeconds?: number) =>
      convertForAsr(media, converted, {
        signal: io.signal,
        durationSeconds,
        maxSeconds: env().MEDIA_MAX_DURATION_SECONDS,
      });
    let probe: Awaited<ReturnType<typeof probeMedia>>;
    let output: Awaited<ReturnType<typeof convertForAsr>>;
    if ((await stat(media)).size <= CONCURRENT_PREPARE_BYTES) {
      // Small files: probing and converting at once saves a tool start-up on the hot path; a file
      // this small converts in well under a second even when the probe then refuses it.
      const [probed, convertedFile] = await Promise.allSettled([probeMedia(media, { signal: io.signal }), convert()]);
      if (probed.status === "rejected") throw probed.reason;
      if (convertedFile.status === "rejected") throw convertedFile.reason;
      [probe, output] = [probed.value, convertedFile.value];
      assertDuration(probe, env().MEDIA_MAX_DURATION_SECONDS);
    } else {
      probe = await probeMedia(media, { signal: io.signal });
      assertDuration(probe, env().MEDIA_MAX_DURATION_SECONDS);
      // Settle before the long conversion, so an exhausted allowance costs no work. A duration of 0
      // means the container does not say (some browser recordings): settled after converting.
      if (probe.durationSeconds > 0) await settleMeasured(io.jobId, ctx, Math.ceil(probe.durationSeconds));
      await io.progress("converting", 0.3);
      output = await convert(probe.durationSeconds);
    }
    const measured = Math.ceil(probe.durationSeconds > 0 ? probe.durationSeconds : (output.durationSeconds ?? 0));
    await settleMeasured(io.jobId, ctx, measured);
    if (media.startsWith(dir)) await rm(media, { force: true });
    const tagged = ctx.titleFromFile && probe.title ? await retitle(io.jobId, probe.title) : {};
    await io.progress("detecting speech", 0.35);
    const speech = await findSpeech(output.path, workDir(io.jobId), io.signal);
    // Silence or music only: no recogniser is started, nothing is uploaded or paid; onFailure refunds the
    // reservation (once, as for any failure).
    if (speech && speech.length === 0)
      throw new PermanentError("no_speech", "No speech was found in this audio (silence or music only).");
    return { audioPath: output.path, durationSeconds: measured, ...tagged, ...(speech ? { speech } : {}) };
  } catch (error) {
    throw asJobError(error);
  }
}

const recognitionOptions = (
  ctx: TranscribeContext,
  io: StepContext,
  {
    chunkDir,
    stage = "recognising speech",
    speechOnly = false,
  }: { chunkDir?: string; stage?: string; speechOnly?: boolean } = {},
) => ({
  lang: ctx.lang,
  signal: io.signal,
  chunkDir,
  ...(ctx.vocabulary?.length ? { vocabulary: ctx.vocabulary } : {}),
  // Regions are on the file's clock: an engine hearing the joined speech gets none (its times are mapped after).
  ...(ctx.speech && !speechOnly ? { speech: ctx.speech } : {}),
  onProgress: (fraction: number) => void io.progress(stage, 0.4 + 0.5 * fraction).catch(() => undefined),
});

function configuredProvider() {
  const provider = asrProvider();
  if (!provider)
    throw asrNotConfigured(
      new PermanentError("asr_not_configured", "This server no longer offers speech recognition."),
    );
  return provider;
}

/** The converted audio; the work files may be gone (another machine, a cleaned disk): then prepared again. */
async function preparedAudio(ctx: TranscribeContext, io: StepContext): Promise<string> {
  if (ctx.audioPath && (await stat(ctx.audioPath).catch(() => null))) return ctx.audioPath;
  return (await prepareAudio(ctx, io)).audioPath!;
}

/** What a paid recogniser is sent (./heard-audio.ts): the speech only, where that saves enough. */
async function paidAudio(ctx: TranscribeContext, io: StepContext) {
  return paidEngineAudio(await preparedAudio(ctx, io), ctx.speech, ctx.durationSeconds, workDir(io.jobId), io);
}

/**
 * Asynchronous providers (AssemblyAI): sends the audio to the provider (free) and checkpoints the URL it
 * is now at, which is what lets the paid submission be found again after a crash (submitRecognition).
 */
async function uploadAudio(ctx: TranscribeContext, io: StepContext): Promise<Partial<TranscribeContext>> {
  const provider = configuredProvider();
  // A job submitted before this step existed has nothing to upload.
  if (!provider.upload || ctx.asrTranscriptId) return {};
  try {
    const { audioPath, pieces } = await paidAudio(ctx, io);
    const uploadedAt = new Date().toISOString();
    const { audioUrl } = await provider.upload(
      audioPath,
      recognitionOptions(ctx, io, { stage: "uploading audio", speechOnly: Boolean(pieces) }),
    );
    return {
      asrProvider: provider.name,
      asrUploadUrl: audioUrl,
      asrUploadedAt: uploadedAt,
      ...(pieces ? { asrPieces: pieces } : {}),
    };
  } catch (error) {
    throw asJobError(error);
  }
}

/**
 * Sends the audio to speech recognition, once. An asynchronous provider answers with its transcript id,
 * which is checkpointed: waiting is the next step, so a retry, a lost lease or a restart during the wait
 * asks for the same transcript instead of paying for the audio again. This step itself may have reached
 * the provider before it was cut short (kill -9, a lost answer), so it first asks the provider for a
 * transcript of the checkpointed upload. A synchronous provider (OpenAI-compatible) answers with the
 * words: they are stored here, and each chunk's answer is kept in the job's work folder meanwhile, so a
 * re-run re-sends only the chunks that had no answer yet.
 */
async function submitRecognition(ctx: TranscribeContext, io: StepContext): Promise<Partial<TranscribeContext>> {
  const provider = configuredProvider();
  try {
    if (provider.submit && provider.findSubmitted && provider.waitFor) {
      if (!ctx.asrUploadUrl || provider.name !== ctx.asrProvider) {
        throw withOperatorNote(
          new PermanentError(
            "asr_not_configured",
            "The speech recognition this transcription was sent to is no longer available on this server.",
          ),
          {
            cause: "asr_provider_changed",
            setting: "ASR_PROVIDER",
            detail: `the audio was uploaded to ${ctx.asrProvider ?? "none"}, which is no longer the configured recogniser`,
          },
        );
      }
      const options = recognitionOptions(ctx, io, { speechOnly: Boolean(ctx.asrPieces) });
      const uploadedAt = new Date(ctx.asrUploadedAt ?? Date.now());
      const earlier = await provider.findSubmitted(ctx.asrUploadUrl, uploadedAt, options);
      const { id } = earlier ?? (await provider.submit(ctx.asrUploadUrl, options));
      return { asrTranscriptId: id };
    }
    if (provider.prepare) {
      // The local model's first download: its progress is the job's stage.
      await provider.prepare({
        signal: io.signal,
        onStatus: (stage) => void io.progress(stage, 0.4).catch(() => undefined),
      });
    }
    if (isLocal(provider)) {
      await io.progress("recognising speech", 0.4);
      const audioPath = await preparedAudio(ctx, io);
      const chunkDir = path.join(workDir(io.jobId), "asr-chunks");
      await mkdir(chunkDir, { recursive: true });
      return await storeRecognized(
        ctx,
        io,
        await provider.transcribe(audioPath, recognitionOptions(ctx, io, { chunkDir })),
        provider.name,
      );
    }
    // A paid synchronous provider: the speech-only audio when it saves money, its kept answers in a folder
    // of their own (named by the pieces), so a retry never reuses an answer for other audio.
    const { audioPath, pieces, key } = await paidAudio(ctx, io);
    await io.progress("recognising speech", 0.4);
    const chunkDir = path.join(workDir(io.jobId), "asr-chunks", ...(pieces ? [`speech-${key}`] : []));
    await mkdir(chunkDir, { recursive: true });
    const result = await provider.transcribe(
      audioPath,
      recognitionOptions(ctx, io, { chunkDir, speechOnly: Boolean(pieces) }),
    );
    return await storeRecognized(ctx, io, pieces ? toOriginalClock(result, pieces) : result, provider.name);
  } catch (error) {
    throw asJobError(error);
  }
}

/** Waits for the submitted transcript by its id (as long and as often as it takes), then stores it. */
async function recognizeAndStore(ctx: TranscribeContext, io: StepContext): Promise<Partial<TranscribeContext>> {
  if (ctx.transcriptId) return {};
  const provider = asrProvider();
  if (!ctx.asrTranscriptId || !provider?.waitFor || provider.name !== ctx.asrProvider) {
    throw withOperatorNote(
      new PermanentError(
        "asr_not_configured",
        "The speech recognition this transcription was sent to is no longer available on this server.",
      ),
      {
        cause: "asr_provider_changed",
        setting: "ASR_PROVIDER",
        detail: `the job was sent to ${ctx.asrProvider ?? "none"}, which is no longer the configured recogniser`,
      },
    );
  }
  try {
    const result = await provider.waitFor(
      ctx.asrTranscriptId,
      recognitionOptions(ctx, io, { speechOnly: Boolean(ctx.asrPieces) }),
    );
    // Sent the speech only: its times back on the original audio's clock.
    return await storeRecognized(
      ctx,
      io,
      ctx.asrPieces ? toOriginalClock(result, ctx.asrPieces) : result,
      provider.name,
    );
  } catch (error) {
    throw asJobError(error);
  }
}

/** Recognised words → subtitle-size segments → the shared transcript store (source "asr"). */
async function storeRecognized(
  ctx: TranscribeContext,
  io: StepContext,
  result: AsrResult,
  providerName: string,
): Promise<Partial<TranscribeContext>> {
  recognitionSeconds.inc({ provider: providerName }, Math.max(0, result.durationSeconds || ctx.durationSeconds || 0));
  // Whatever the engine, text over the silence the detector found and loops are never stored (issue 41); each
  // segment keeps its words' own times where the recogniser gave them (issue 39), within the bound.
  const { words } = guardWords(result.words, { speech: ctx.speech });
  const segments = boundStoredWords(normalizeSegments(segmentWords(words)));
  if (segments.length === 0) throw new PermanentError("no_speech", "No speech was recognised in this audio.");
  await io.progress("storing", 0.95);
  const fields = {
    captionKind: null,
    title: ctx.title ?? null,
    channel: ctx.channel ?? null,
    sourceUrl: ctx.canonicalUrl,
    durationSeconds: ctx.durationSeconds ?? Math.ceil(result.durationSeconds),
    segments: segments as unknown as object,
    // Which recogniser: "assemblyai", "openai-compatible", "local:base-q5_1".
    servedBy: providerName,
    fetchedAt: new Date(),
  };
  // Another requester of the same audio may have known its title or show when this one did not.
  const known = { ...fields, title: fields.title ?? undefined, channel: fields.channel ?? undefined };
  // "auto": stored under the language heard ("und" when the engine does not say), as a request for it finds it.
  const lang = ctx.lang === "auto" ? (result.language ?? "und") : ctx.lang;
  const transcript = await storeTranscript(
    { platform: ctx.platform, videoId: ctx.videoId, lang, origin: "asr", variant: vocabularyKey(ctx.vocabulary) },
    fields,
    known,
  );
  return { transcriptId: transcript.id };
}

export const transcribePipeline = definePipeline<TranscribeContext>({
  name: TRANSCRIBE_PIPELINE,
  context: transcribeContextSchema,
  steps: [
    { name: "prepare-audio", run: prepareAudio },
    { name: "upload-audio", run: uploadAudio },
    { name: "submit-recognition", run: submitRecognition },
    // Only waits on the provider: a stopping runner hands it back at once.
    { name: "recognize-and-store", run: recognizeAndStore, interruptible: true },
  ],
  async onSuccess(ctx, io) {
    const seconds = ctx.durationSeconds ?? 0;
    await io.tx.historyEntry.updateMany({
      where: { jobId: io.jobId },
      data: { state: "done", transcriptId: ctx.transcriptId ?? null, durationSeconds: seconds, totalSeconds: seconds },
    });
    await rm(workDir(io.jobId), { recursive: true, force: true });
    const job = await io.tx.job.findUnique({ where: { id: io.jobId }, select: { reservedSecs: true } });
    const event = {
      jobId: io.jobId,
      platform: ctx.platform,
      videoId: ctx.videoId,
      sourceUrl: ctx.canonicalUrl,
      lang: ctx.lang,
    };
    await emitWebhookEvent(io.tx, {
      userId: ctx.userId,
      payload: transcriptEvent("transcript.completed", {
        ...event,
        transcriptId: ctx.transcriptId ?? null,
        durationSeconds: seconds,
      }),
      requestUrl: ctx.webhookUrl,
    });
    return { transcriptId: ctx.transcriptId ?? null, chargedSecs: job?.reservedSecs ?? seconds };
  },
  async onFailure(ctx, failure, io) {
    await refundReservation(io.tx, io.jobId, ctx.userId, new Date(ctx.periodStart));
    await io.tx.historyEntry.updateMany({ where: { jobId: io.jobId }, data: { state: "error" } });
    const event = {
      jobId: io.jobId,
      platform: ctx.platform,
      videoId: ctx.videoId,
      sourceUrl: ctx.canonicalUrl,
      lang: ctx.lang,
    };
    await emitWebhookEvent(io.tx, {
      userId: ctx.userId,
      payload: transcriptEvent("transcript.failed", {
        ...event,
        error: { code: failure.code, message: failure.message },
      }),
      requestUrl: ctx.webhookUrl,
    });
    await rm(workDir(io.jobId), { recursive: true, force: true });
  },
});
