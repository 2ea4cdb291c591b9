import { createHash } from "node:crypto";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env";
import { AsrError } from "@/lib/asr";
import type { TimeRange } from "@/lib/asr/hallucination";
import { buildSpeechAudio, speechOnlyPieces } from "@/lib/asr/speech-audio";
import { detectSpeech } from "@/lib/asr/vad";
import type { StepContext } from "@/lib/jobs/pipeline";
import { log } from "@/lib/observability/logger";
import { findExecutable } from "@/lib/process/media-tools";
import { asrProvider } from "@/lib/transcripts/asr-provider";

// Which audio each recogniser hears, for the transcribe pipeline's steps: the speech regions the
// detector finds in the converted audio, and the speech-only audio a paid engine is sent.

/** The local recogniser hears only the speech regions itself (lib/asr/local.ts). */
export const isLocal = (provider: { name: string }) => provider.name.startsWith("local:");

/**
 * The speech regions of the converted audio (lib/asr/vad.ts), decoded to the PCM file the local recogniser
 * reads next (`<workDir>/asr-chunks/audio.s16le`), or undefined where the detector cannot run here: then
 * everything is heard.
 */
export async function findSpeech(
  audioPath: string,
  workDir: string,
  signal: AbortSignal,
): Promise<TimeRange[] | undefined> {
  if (env().ASR_VAD === "off") return undefined;
  const chunkDir = path.join(workDir, "asr-chunks");
  await mkdir(chunkDir, { recursive: true });
  try {
    const pcmPath = path.join(chunkDir, "audio.s16le");
    const found = await detectSpeech(audioPath, { signal, ffmpegPath: findExecutable("ffmpeg") ?? undefined, pcmPath });
    // Only the local runner reads the PCM again (32 kB a second of audio): for a paid engine it goes now.
    const provider = asrProvider();
    if (!provider || !isLocal(provider)) await rm(pcmPath, { force: true });
    return found.regions;
  } catch (error) {
    if (error instanceof AsrError && error.code === "asr_unavailable") {
      log.warn({ err: error.message }, "voice-activity detection unavailable: the whole audio is recognised");
      return undefined;
    }
    throw error;
  }
}

/**
 * What a paid recogniser is sent: where the detector found speech covering less than SPEECH_ONLY_MAX_SHARE of
 * the audio, only those pieces, joined (lib/asr/speech-audio.ts), built from the checkpointed regions into the
 * job's work folder under a name that is the pieces' hash, so a retry sends the same audio (built again if the
 * folder is gone); else the whole converted audio. The user's charge is the media's duration either way
 * (settled in prepare-audio): the saving is the provider's bill.
 */
export async function paidEngineAudio(
  audioPath: string,
  speech: readonly TimeRange[] | undefined,
  durationSeconds: number | undefined,
  workDir: string,
  io: Pick<StepContext, "signal" | "progress">,
): Promise<{ audioPath: string; pieces: TimeRange[] | null; key: string }> {
  const pieces = speechOnlyPieces(speech, durationSeconds);
  if (!pieces) return { audioPath, pieces: null, key: "" };
  const key = createHash("sha256").update(JSON.stringify(pieces)).digest("hex").slice(0, 16);
  const speechPath = path.join(workDir, `asr-speech-${key}${path.extname(audioPath)}`);
  if (!(await stat(speechPath).catch(() => null))) {
    await io.progress("cutting out the silence", 0.38);
    await buildSpeechAudio(audioPath, pieces, speechPath, {
      signal: io.signal,
      ffmpegPath: findExecutable("ffmpeg") ?? undefined,
      tmpDir: workDir,
    });
  }
  return { audioPath: speechPath, pieces, key };
}
