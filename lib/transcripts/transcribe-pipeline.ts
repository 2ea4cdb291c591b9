import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { definePipeline, type FinishIO, PermanentError, type StepContext } from "@/lib/jobs/pipeline";
import { segmentWords, type AsrResult } from "@/lib/asr";
import { guardWords } from "@/lib/asr/hallucination";
import { toOriginalClock } from "@/lib/asr/speech-audio";
import { vocabularyKey } from "@/lib/asr/vocabulary";
import { normalizeSegments } from "@/lib/formats";
import { boundStoredWords } from "@/lib/formats/stored-words";
import { refundReservation } from "@/lib/usage/reservation";
import { asrNotConfigured, asrProvider } from "@/lib/transcripts/asr-provider";
import { isLocal, paidEngineAudio } from "@/lib/transcripts/heard-audio";
import { prepareAudio, preparedAudio } from "@/lib/transcripts/prepare-audio";
import { type TranscribeContext, transcribeContextSchema, workDir } from "@/lib/transcripts/transcribe-context";
import { asJobError } from "@/lib/transcripts/transcribe-job-error";
import { withOperatorNote } from "@/lib/observability/failure-cause";
import { storeTranscript } from "@/lib/transcripts/store-transcript";
import { withPublishedTextNames } from "@/lib/transcripts/published-text-names";
import { appOutbound } from "@/lib/http/outbound/configured";
import { recognitionSeconds } from "@/lib/observability/metrics";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event";
import { transcriptEvent, type TranscriptJobEvent } from "@/lib/webhooks/events";

export type { TranscribeContext } from "@/lib/transcripts/transcribe-context";

// Speech recognition as a durable job: prepare the audio (fetch → probe → settle the reservation to the
// measured duration → convert to mono 16 kHz), submit it to speech recognition (paid: once per job), then
// wait for the result and store it. Usage is reserved when the job is enqueued (start-transcription-job.ts),
// adjusted once the duration is measured, and refunded on failure, in the period it was reserved in.
// The steps hand each other one checkpointed context (./transcribe-context.ts). The first, preparing the audio
// and settling the reservation, is ./prepare-audio.ts; the recognition steps (one paid submission per job) and
// the refund on failure are here. The audio and recogniser work they call is in lib/media, lib/asr and
// ./heard-audio.ts (which audio each recogniser hears).

export const TRANSCRIBE_PIPELINE = "transcribe";

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

/** The recogniser a job's audio went to is no longer the configured one: `sentTo` says where it went. */
function providerChanged(sentTo: string) {
  return withOperatorNote(
    new PermanentError(
      "asr_not_configured",
      "The speech recognition this transcription was sent to is no longer available on this server.",
    ),
    {
      cause: "asr_provider_changed",
      setting: "ASR_PROVIDER",
      detail: `${sentTo}, which is no longer the configured recogniser`,
    },
  );
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
        throw providerChanged(`the audio was uploaded to ${ctx.asrProvider ?? "none"}`);
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
    throw providerChanged(`the job was sent to ${ctx.asrProvider ?? "none"}`);
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
  // Whatever the engine, text over the silence the detector found and loops are never stored; each
  // segment keeps its words' own times where the recogniser gave them, within the bound.
  const { words } = guardWords(result.words, { speech: ctx.speech });
  const recognised = boundStoredWords(normalizeSegments(segmentWords(words)));
  if (recognised.length === 0) throw new PermanentError("no_speech", "No speech was recognised in this audio.");
  // "auto": stored under the language heard ("und" when the engine does not say), as a request for it finds it.
  const lang = ctx.lang === "auto" ? (result.language ?? "und") : ctx.lang;
  const segments = await withPublishedTextNames(
    { userId: ctx.userId, platform: ctx.platform, videoId: ctx.videoId, lang },
    recognised,
    { outbound: appOutbound() },
  );
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
  const transcript = await storeTranscript(
    { platform: ctx.platform, videoId: ctx.videoId, lang, origin: "asr", variant: vocabularyKey(ctx.vocabulary) },
    fields,
    known,
  );
  return { transcriptId: transcript.id };
}

// The job's transcript.* event, to the user's endpoints and the URL the request named.
function emitJobEvent(
  ctx: TranscribeContext,
  io: FinishIO,
  type: "transcript.completed" | "transcript.failed",
  outcome: Pick<TranscriptJobEvent, "transcriptId" | "durationSeconds" | "error">,
) {
  return emitWebhookEvent(io.tx, {
    userId: ctx.userId,
    payload: transcriptEvent(type, {
      jobId: io.jobId,
      platform: ctx.platform,
      videoId: ctx.videoId,
      sourceUrl: ctx.canonicalUrl,
      lang: ctx.lang,
      followId: ctx.followId ?? null,
      ...outcome,
    }),
    requestUrl: ctx.webhookUrl,
  });
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
    await io.tx.transcription.updateMany({
      where: { jobId: io.jobId },
      data: { state: "done", transcriptId: ctx.transcriptId ?? null, durationSeconds: seconds, totalSeconds: seconds },
    });
    await rm(workDir(io.jobId), { recursive: true, force: true });
    const job = await io.tx.job.findUnique({ where: { id: io.jobId }, select: { reservedSecs: true } });
    await emitJobEvent(ctx, io, "transcript.completed", {
      transcriptId: ctx.transcriptId ?? null,
      durationSeconds: seconds,
    });
    return { transcriptId: ctx.transcriptId ?? null, chargedSecs: job?.reservedSecs ?? seconds };
  },
  async onFailure(ctx, failure, io) {
    await refundReservation(io.tx, io.jobId, ctx.userId, new Date(ctx.periodStart));
    await io.tx.transcription.updateMany({ where: { jobId: io.jobId }, data: { state: "error" } });
    await emitJobEvent(ctx, io, "transcript.failed", { error: { code: failure.code, message: failure.message } });
    await rm(workDir(io.jobId), { recursive: true, force: true });
  },
});
