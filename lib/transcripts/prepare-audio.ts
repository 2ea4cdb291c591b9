// The transcription job's first step: fetch the audio, probe it, settle the reservation to the measured
// duration, convert it for the recognisers and find its speech.
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";

import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { appOutbound } from "@/lib/http/outbound/configured";
import { PermanentError, type StepContext } from "@/lib/jobs/pipeline";
import { assertDuration, convertForAsr, downloadAudioUrl, downloadPlatformAudio, probeMedia } from "@/lib/media";
import { findSpeech } from "@/lib/transcripts/heard-audio";
import { type TranscribeContext, workDir } from "@/lib/transcripts/transcribe-context";
import { asJobError } from "@/lib/transcripts/transcribe-job-error";
import { resolveUploadForUser } from "@/lib/uploads/resolve-upload";
import { allowanceRefusal } from "@/lib/usage/charge";
import { chargedSeconds } from "@/lib/usage/charged-seconds";
import { settleReservation } from "@/lib/usage/reservation";

/** Sources up to this size are probed and converted concurrently. */
const CONCURRENT_PREPARE_BYTES = 8 * 1024 * 1024;

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
    await tx.transcription.updateMany({ where: { jobId }, data: { totalSeconds: measured } });
  });
}

/** The file's own title (its tag) for the job and its history entries, in place of the URL's file name. */
async function retitle(jobId: string, title: string): Promise<Partial<TranscribeContext>> {
  const db = await getDb();
  await db.transcription.updateMany({ where: { jobId }, data: { title } });
  return { title, titleFromFile: false };
}

/** Fetch, probe, settle the reservation, convert. Idempotent: a finished conversion is reused. */
export async function prepareAudio(ctx: TranscribeContext, io: StepContext): Promise<Partial<TranscribeContext>> {
  const dir = workDir(io.jobId);
  const converted = path.join(dir, "asr");
  await mkdir(dir, { recursive: true });
  try {
    await io.progress("fetching audio", 0.05);
    const media = await fetchSource(ctx, dir, io);
    await io.progress("probing", 0.25);
    const convert = (durationSeconds?: number, signal = io.signal) =>
      convertForAsr(media, converted, {
        signal,
        durationSeconds,
        maxSeconds: env().MEDIA_MAX_DURATION_SECONDS,
      });
    // Small files are probed and converted at once, which saves a tool start-up on the hot path. Small is not short
    // (a few megabytes of a low bitrate are hours of audio, minutes of encoding): a file the probe or the allowance
    // refuses has its conversion stopped then, not finished. Larger files are converted once settled, so an
    // exhausted allowance costs them no work.
    const refused = new AbortController();
    const early =
      (await stat(media)).size <= CONCURRENT_PREPARE_BYTES
        ? convert(undefined, AbortSignal.any([io.signal, refused.signal]))
        : null;
    // Handled here, thrown below: a conversion that fails while the probe runs is not an unhandled rejection.
    early?.catch(() => undefined);
    let probe: Awaited<ReturnType<typeof probeMedia>>;
    try {
      probe = await probeMedia(media, { signal: io.signal });
      assertDuration(probe, env().MEDIA_MAX_DURATION_SECONDS);
      // A duration of 0 means the container does not say (some browser recordings): settled after converting.
      if (probe.durationSeconds > 0) await settleMeasured(io.jobId, ctx, chargedSeconds(probe.durationSeconds));
    } catch (error) {
      refused.abort(error);
      await early?.catch(() => undefined);
      throw error;
    }
    if (!early) await io.progress("converting", 0.3);
    const output = await (early ?? convert(probe.durationSeconds));
    const measured = chargedSeconds(probe.durationSeconds > 0 ? probe.durationSeconds : (output.durationSeconds ?? 0));
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

/** The converted audio; the work files may be gone (another machine, a cleaned disk): then prepared again. */
export async function preparedAudio(ctx: TranscribeContext, io: StepContext): Promise<string> {
  if (ctx.audioPath && (await stat(ctx.audioPath).catch(() => null))) return ctx.audioPath;
  return (await prepareAudio(ctx, io)).audioPath!;
}
