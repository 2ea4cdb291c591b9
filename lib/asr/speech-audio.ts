/**
 * Speech-only audio for the paid recognisers (AssemblyAI, an OpenAI-compatible server), which bill by the
 * seconds they are sent: the speech regions the detector found (./vad.ts) joined with JOIN_SILENCE_SECONDS
 * of silence between them, as planSpeechChunks joins them for the local recogniser (one chunk holding every
 * region), and the recogniser's times mapped back to the file's clock with toFileTime. One plan for both:
 *
 *   speechOnlyPieces(regions, duration) → pieces (null: send the whole file)
 *   buildSpeechAudio(audio, pieces, out) → out is the pieces joined, sample-exact, in the audio's own codec
 *   toOriginalClock(result, pieces)     → every word's time on the original audio's clock
 *
 * The audio is cut on the decoded 16 kHz PCM (sample-exact, so the joined audio is exactly as long as the
 * plan says and toFileTime is exact), then encoded with the codec the converted audio has (lib/media/convert.ts):
 * ffmpeg through the one process runner (lib/process/run.ts) with its deadline. Memory stays flat: the PCM is
 * streamed piece by piece.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";

import { CODEC_ARGS, EXTENSION, type AsrCodec } from "@/lib/media/convert";
import { fileUrl, QUIET_OVERWRITE_ARGS } from "@/lib/media/tools";

import { ffmpegFailed, runFfmpeg } from "./run-ffmpeg";
import { AsrError, throwIfAborted, type AsrResult } from "./types";
import { decodePcm, JOIN_SILENCE_SECONDS, planSpeechChunks, toFileTime, totalSeconds, type TimeRange } from "./vad";

/**
 * Speech-only audio is sent only when the regions cover less than this share of the audio. Above it the
 * saving (under a tenth of the bill) is not worth a second encoding pass and cutting words at the seams:
 * the detector pads every region by 0.3 s and merges gaps under 1 s, so ordinary talk already covers 90 %+.
 */
export const SPEECH_ONLY_MAX_SHARE = 0.9;

const SAMPLE_RATE = 16_000;
/** Deadline for decoding or encoding the audio (hours of audio take minutes). */
const ENCODE_TIMEOUT_MS = 30 * 60_000;

/**
 * The pieces of the file a paid recogniser hears, in order, joined with JOIN_SILENCE_SECONDS between them:
 * planSpeechChunks' single chunk (no length limit: the engine's own chunking applies to the joined audio).
 * Null when the whole file is to be sent: regions unknown (the detector did not run), none (the pipeline
 * ends `no_speech` before this), or covering SPEECH_ONLY_MAX_SHARE or more of the audio. Pure.
 */
export function speechOnlyPieces(
  regions: readonly TimeRange[] | undefined,
  durationSeconds: number | undefined,
): TimeRange[] | null {
  if (!regions?.length || !durationSeconds || !(durationSeconds > 0)) return null;
  if (totalSeconds(regions) >= SPEECH_ONLY_MAX_SHARE * durationSeconds) return null;
  return planSpeechChunks(regions, Number.POSITIVE_INFINITY, 0)[0].pieces;
}

/** Length of the joined audio of `pieces`, seconds. Pure. */
export function joinedSeconds(pieces: readonly TimeRange[]): number {
  return totalSeconds(pieces) + JOIN_SILENCE_SECONDS * Math.max(0, pieces.length - 1);
}

/**
 * A result recognised from the joined audio of `pieces`, with every word's time on the original file's
 * clock (toFileTime). `durationSeconds` stays what the recogniser heard (the seconds it bills). Pure.
 */
export function toOriginalClock(result: AsrResult, pieces: readonly TimeRange[]): AsrResult {
  const words = result.words.map((w) => {
    const start = toFileTime(pieces, w.start);
    const end = Math.max(start, toFileTime(pieces, w.end));
    return { ...w, start, end };
  });
  return { ...result, words: words.sort((a, b) => a.start - b.start) };
}

/** The codec of converted audio, from its extension (lib/media/convert.ts writes .ogg or .mp3). */
function codecOf(file: string): AsrCodec {
  const ext = path.extname(file).toLowerCase();
  const codec = (Object.keys(EXTENSION) as AsrCodec[]).find((c) => EXTENSION[c] === ext);
  if (!codec) throw new AsrError("asr_failed", `not a converted audio file: ${file}`, { retryable: false });
  return codec;
}

/**
 * Writes the `pieces` of `audioPath` joined with JOIN_SILENCE_SECONDS of silence to `output` (which must
 * end like `audioPath`, .ogg or .mp3: the same codec and bitrate). Deterministic: the same audio and pieces
 * give the same audio, so a retried step sends what the first attempt sent. `output` only ever holds a whole
 * file (written under another name, then renamed).
 */
export async function buildSpeechAudio(
  audioPath: string,
  pieces: readonly TimeRange[],
  output: string,
  opts: { ffmpegPath?: string; signal?: AbortSignal; tmpDir?: string } = {},
): Promise<void> {
  throwIfAborted(opts.signal);
  const codec = codecOf(output);
  const dir = await mkdtemp(path.join(opts.tmpDir ?? tmpdir(), "verbatim-speech-"));
  try {
    const pcm = path.join(dir, "audio.s16le");
    await decodePcm(audioPath, pcm, opts);
    const joined = path.join(dir, "speech.s16le");
    await pipeline(joinedPcm(pcm, pieces, opts.signal), createWriteStream(joined));
    await rm(pcm, { force: true });
    const partial = path.join(dir, `speech${EXTENSION[codec]}`);
    await encodePcm(joined, partial, codec, opts);
    await rename(partial, output).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== "EXDEV") throw error;
      // Another file system: copy next to the output, then rename there.
      const near = `${output}.part`;
      await pipeline(createReadStream(partial), createWriteStream(near));
      await rename(near, output);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PCM of `pieces`, read one piece at a time, with JOIN_SILENCE_SECONDS of zeros between them. */
async function* joinedPcm(pcm: string, pieces: readonly TimeRange[], signal: AbortSignal | undefined) {
  const silence = Buffer.alloc(Math.round(JOIN_SILENCE_SECONDS * SAMPLE_RATE) * 2);
  for (let i = 0; i < pieces.length; i++) {
    throwIfAborted(signal);
    if (i > 0) yield silence;
    // Sample-exact: the pieces' times are whole milliseconds (16 samples each).
    const start = Math.round(pieces[i].start * SAMPLE_RATE) * 2;
    const end = Math.round(pieces[i].end * SAMPLE_RATE) * 2;
    if (end > start) yield* createReadStream(pcm, { start, end: end - 1 }) as AsyncIterable<Buffer>;
  }
}

/** Encodes raw 16 kHz mono s16le `pcm` to `output` with the converted audio's codec. */
async function encodePcm(
  pcm: string,
  output: string,
  codec: AsrCodec,
  opts: { ffmpegPath?: string; signal?: AbortSignal },
): Promise<void> {
  const command = opts.ffmpegPath ?? "ffmpeg";
  const args = [
    ...QUIET_OVERWRITE_ARGS,
    "-protocol_whitelist",
    "file",
    "-f",
    "s16le",
    "-ar",
    String(SAMPLE_RATE),
    "-ac",
    "1",
    "-i",
    fileUrl(pcm),
    "-map_metadata",
    "-1",
    ...CODEC_ARGS[codec],
    path.resolve(output),
  ];
  const result = await runFfmpeg(command, args, {
    timeoutMs: ENCODE_TIMEOUT_MS,
    signal: opts.signal,
    notStarted: "unavailable_when_missing",
  });
  if (result.code !== 0 || result.failure !== null) throw ffmpegFailed(command, "encode the speech-only audio", result);
}
