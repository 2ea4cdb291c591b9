/**
 * The `local` recogniser: whisper.cpp on this machine (@fugood/node-whisper-<platform>, ./local-runtime.ts),
 * run in a child process (./whisper-child.cjs) started through the one process runner, so a native crash
 * or an out-of-memory kill fails the job step retryably while the app keeps answering.
 *
 *   audio (the pipeline's 16 kHz mono file) → ffmpeg → raw s16le PCM in the job's folder
 *   → chunks of CHUNK_SECONDS overlapping by OVERLAP_SECONDS, read one at a time by the child (memory stays
 *     flat for a 3-hour file) → each chunk's tokens with their timestamps, kept in chunkDir as it arrives
 *     (a retried job recognises only the chunks not done yet) → words → stitched (./stitch.ts).
 *
 * At most `concurrency` children run at once in this process; each uses `threads` threads. The child has
 * a deadline that grows with the audio, and is killed (its process group) when the job's signal aborts.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { runTool, ToolStartError } from "@/lib/process/run";

import { guardWords } from "./hallucination";
import { fromWhisperLanguage, toWhisperLanguage } from "./language";
import { joinWords } from "./segment-words";
import { mostCommon } from "./verbose-json";
import { stitchChunks, type ChunkWords } from "./stitch";
import { decodePcm, JOIN_SILENCE_SECONDS, planSpeechChunks, toFileTime, type TimeRange } from "./vad";
import { createSlots } from "./slots";
import { whisperPrompt } from "./vocabulary";
import {
  AsrError,
  monotonicProgress,
  type AsrPrepareOptions,
  type AsrProvider,
  type AsrResult,
  type AsrTranscribeOptions,
  type Word,
} from "./types";

const SAMPLE_RATE = 16_000;
const BYTES_PER_SECOND = SAMPLE_RATE * 2;
/** Whisper windows are 30 s; a chunk of 5 minutes keeps the child's memory small (≈ 40 MB of audio buffers). */
export const CHUNK_SECONDS = 300;
export const OVERLAP_SECONDS = 5;
/** The child's deadline: this much, plus DEADLINE_PER_AUDIO_SECOND for every second of audio. */
const DEADLINE_BASE_MS = 5 * 60_000;
const DEADLINE_PER_AUDIO_SECOND_MS = 3_000;

export const CHILD_SCRIPT = path.join(process.cwd(), "lib", "asr", "whisper-child.cjs");

export interface LocalProviderOptions {
  /** The model's short name, for `served_by` ("local:base-q5_1"). */
  modelName: string;
  /** The model file's path, fetching it first if need be (progress as a fraction). */
  resolveModel(opts: { signal?: AbortSignal; onProgress?(fraction: number): void }): Promise<string>;
  /** Absolute path of the runtime package's native module (./local-runtime.ts). */
  bindingPath: string;
  /** whisper.cpp's useGpu: true for a CUDA or Vulkan build, and Metal on Apple silicon (./local-runtime.ts). */
  useGpu?: boolean;
  /** Children at once in this process. */
  concurrency: number;
  /** Threads per child. */
  threads: number;
  chunkSeconds?: number;
  overlapSeconds?: number;
  ffmpegPath?: string;
  /** Where PCM and chunk answers go when the caller gives no chunkDir. Default os.tmpdir(). */
  tmpDir?: string;
  /**
   * whisper.cpp's temperature step for its fallback decodes (its default 0.2); 0: no fallback. The bench
   * uses 0, since a random-weight model fails every check and would decode each window six times.
   */
  temperatureInc?: number;
  /** Called with the child's pid once it runs (tests, bench). */
  onChild?(pid: number): void;
}

interface Chunk {
  index: number;
  start: number;
  end: number;
  startByte: number;
  endByte: number;
  /** Speech regions heard one after another (./vad.ts), on the file's clock; absent: start…end as it is. */
  pieces?: TimeRange[];
}

const toByte = (seconds: number) => Math.round(seconds * SAMPLE_RATE) * 2;

/** Chunks of only the speech regions (./vad.ts packs them), with their byte ranges in the PCM file. */
export function planSpeechOnlyChunks(
  speech: readonly TimeRange[],
  chunkSeconds: number,
  overlapSeconds: number,
): Chunk[] {
  return planSpeechChunks(speech, chunkSeconds, overlapSeconds).map((c) => ({
    index: c.index,
    start: c.start,
    end: c.end,
    startByte: toByte(c.start),
    endByte: toByte(c.end),
    pieces: c.pieces,
  }));
}

interface ChildSegment {
  text: string;
  t0: number;
  t1: number;
}

/** Chunks of the PCM file: `length` seconds each, every one starting `overlap` before the previous ends. */
export function planChunks(totalBytes: number, chunkSeconds: number, overlapSeconds: number): Chunk[] {
  const total = Math.floor(totalBytes / 2) * 2;
  const duration = total / BYTES_PER_SECOND;
  const chunks: Chunk[] = [];
  for (
    let start = 0, index = 0;
    index === 0 || start < duration - overlapSeconds;
    start += chunkSeconds - overlapSeconds, index++
  ) {
    const end = Math.min(duration, start + chunkSeconds);
    chunks.push({
      index,
      start,
      end,
      startByte: Math.round(start * SAMPLE_RATE) * 2,
      endByte: Math.min(total, Math.round(end * SAMPLE_RATE) * 2),
    });
    if (end >= duration) break;
  }
  return chunks;
}

/**
 * whisper.cpp's token segments (maxLen 1: one token each, times in ms from the chunk's start) as words on
 * the file's clock: a token that starts with a space starts a word, others continue it. Times are kept
 * inside the chunk (a model can place a timestamp past the end of the audio it heard).
 */
export function tokensToWords(
  segments: readonly ChildSegment[],
  chunk: { start: number; end: number; pieces?: readonly TimeRange[] },
): Word[] {
  const words: Word[] = [];
  const pieces = chunk.pieces;
  const clamp = (ms: number) =>
    pieces
      ? toFileTime(pieces, Math.max(0, ms / 1000))
      : Math.min(chunk.end, Math.max(chunk.start, chunk.start + ms / 1000));
  for (const segment of segments) {
    if (!segment.text || /^\s*\[_[A-Z]+_?/.test(segment.text)) continue;
    const start = clamp(segment.t0);
    const end = Math.max(start, clamp(segment.t1));
    const last = words.at(-1);
    if (last && !/^\s/.test(segment.text)) {
      last.text += segment.text;
      last.end = Math.max(last.end, end);
    } else if (segment.text.trim()) {
      words.push({ text: segment.text.trim(), start, end });
    }
  }
  return words;
}

export function createLocalProvider(options: LocalProviderOptions): AsrProvider {
  const chunkSeconds = options.chunkSeconds ?? CHUNK_SECONDS;
  const overlapSeconds = options.overlapSeconds ?? OVERLAP_SECONDS;
  const slots = createSlots(Math.max(1, options.concurrency));
  const name = `local:${options.modelName}`;

  // The same 16 kHz s16le file the speech detector reads (./vad.ts), decoded once per job.
  const toPcm = (audioPath: string, pcm: string, signal?: AbortSignal) =>
    decodePcm(audioPath, pcm, { ffmpegPath: options.ffmpegPath, signal });

  async function prepare(opts: AsrPrepareOptions): Promise<void> {
    await options.resolveModel({
      signal: opts.signal,
      onProgress: (f) => opts.onStatus?.(`downloading the speech model, ${Math.floor(f * 100)} %`, f),
    });
  }

  async function transcribe(audioPath: string, opts: AsrTranscribeOptions): Promise<AsrResult> {
    const progress = monotonicProgress(opts.onProgress);
    // No speech found (./vad.ts): nothing to hear, so the model is neither fetched nor loaded.
    if (opts.speech && opts.speech.length === 0) {
      progress(1);
      return { words: [], text: "", durationSeconds: 0, language: null };
    }
    const modelPath = await options.resolveModel({ signal: opts.signal });
    const ownDir = opts.chunkDir ? null : await mkdtemp(path.join(options.tmpDir ?? tmpdir(), "verbatim-local-asr-"));
    const dir = opts.chunkDir ?? ownDir!;
    try {
      const pcm = path.join(dir, "audio.s16le");
      await toPcm(audioPath, pcm, opts.signal);
      const bytes = (await stat(pcm)).size;
      const durationSeconds = bytes / BYTES_PER_SECOND;
      if (durationSeconds < 0.1) throw new AsrError("asr_failed", "The audio is empty.", { retryable: false });
      // Speech regions found by ./vad.ts: only those are heard. None at all is the caller's no_speech.
      const chunks = opts.speech
        ? planSpeechOnlyChunks(opts.speech, chunkSeconds, overlapSeconds)
        : planChunks(bytes, chunkSeconds, overlapSeconds);
      const prompt = whisperPrompt(opts.vocabulary);
      // What the answers depend on besides the model and chunking: a retried job asks the same.
      const variant =
        opts.speech || prompt || opts.lang === "auto"
          ? `-${createHash("sha256")
              .update(JSON.stringify({ speech: opts.speech ?? null, prompt, lang: opts.lang }))
              .digest("hex")
              .slice(0, 12)}`
          : "";
      const answerFile = (c: Chunk) =>
        path.join(dir, `local-${options.modelName}-${chunkSeconds}-${overlapSeconds}${variant}-${c.index}.json`);
      const answers = new Map<number, Word[]>();
      const heard: string[] = [];
      for (const c of chunks) {
        const saved = await readFile(answerFile(c), "utf8").catch(() => null);
        if (saved === null) continue;
        const parsed = JSON.parse(saved) as Word[] | { words: Word[]; language: string | null };
        answers.set(c.index, Array.isArray(parsed) ? parsed : parsed.words);
        if (!Array.isArray(parsed) && parsed.language) heard.push(parsed.language);
      }
      const todo = chunks.filter((c) => !answers.has(c.index));
      const report = (index: number, fraction: number) => {
        const done = chunks.filter((c) => answers.has(c.index)).reduce((s, c) => s + (c.end - c.start), 0);
        const current = chunks[index];
        const total = chunks.reduce((s, c) => s + (c.end - c.start), 0);
        progress(Math.min(0.99, (done + (answers.has(index) ? 0 : fraction * (current.end - current.start))) / total));
      };
      if (todo.length > 0) {
        const release = await slots.take(opts.signal);
        try {
          await runChild(
            modelPath,
            pcm,
            todo,
            opts,
            async (index, segments, language) => {
              const chunk = chunks[index];
              const words = tokensToWords(segments, chunk);
              await writeFile(answerFile(chunk), JSON.stringify({ words, language }));
              if (language) heard.push(language);
              answers.set(index, words);
              report(index, 1);
            },
            report,
          );
        } finally {
          release();
        }
      }
      const ordered: ChunkWords[] = chunks.map((c) => ({
        start: c.start,
        end: c.end,
        words: answers.get(c.index) ?? [],
      }));
      // Loops, over-compressed windows, text outside the speech regions: dropped (./hallucination.ts).
      const { words } = guardWords(stitchChunks(ordered), { speech: opts.speech });
      progress(1);
      const language = toWhisperLanguage(opts.lang);
      // Asked to detect: the language whisper.cpp heard in most chunks.
      const detected = language === "auto" ? fromWhisperLanguage(mostCommon(heard)) : null;
      return {
        words,
        text: joinWords(words.map((w) => w.text)),
        durationSeconds,
        language: language === "auto" ? detected : language === "jw" ? "jv" : language,
      };
    } finally {
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    }
  }

  async function runChild(
    modelPath: string,
    pcm: string,
    todo: Chunk[],
    opts: AsrTranscribeOptions,
    onChunk: (index: number, segments: ChildSegment[], language: string | null) => Promise<void>,
    onProgress: (index: number, fraction: number) => void,
  ): Promise<void> {
    const seconds = todo.reduce((s, c) => s + (c.end - c.start), 0);
    const timeoutMs = DEADLINE_BASE_MS + Math.ceil(seconds * DEADLINE_PER_AUDIO_SECOND_MS);
    const config = {
      binding: options.bindingPath,
      gpu: options.useGpu ?? false,
      model: modelPath,
      pcm,
      language: toWhisperLanguage(opts.lang),
      prompt: whisperPrompt(opts.vocabulary),
      threads: options.threads,
      ...(options.temperatureInc !== undefined ? { temperatureInc: options.temperatureInc } : {}),
      joinSilenceBytes: toByte(JOIN_SILENCE_SECONDS),
      chunks: todo.map(({ index, startByte, endByte, pieces }) => ({
        index,
        startByte,
        endByte,
        ...(pieces ? { pieces: pieces.map((p) => ({ startByte: toByte(p.start), endByte: toByte(p.end) })) } : {}),
      })),
    };
    let reported: { code: string; message: string } | null = null;
    const pending = new Set<number>(todo.map((c) => c.index));
    let writes = Promise.resolve();
    let result;
    try {
      result = await runTool(process.execPath, [CHILD_SCRIPT, JSON.stringify(config)], {
        timeoutMs,
        signal: opts.signal,
        stderrTailChars: 2048,
        onStdoutLine: (line) => {
          let message: {
            type?: string;
            index?: number;
            fraction?: number;
            segments?: ChildSegment[];
            language?: string | null;
            code?: string;
            message?: string;
          };
          try {
            message = JSON.parse(line);
          } catch {
            return;
          }
          if (message.type === "progress" && typeof message.index === "number")
            onProgress(message.index, message.fraction ?? 0);
          else if (message.type === "chunk" && typeof message.index === "number" && Array.isArray(message.segments)) {
            const index = message.index;
            const segments = message.segments;
            const language = typeof message.language === "string" ? message.language : null;
            pending.delete(index);
            writes = writes.then(() => onChunk(index, segments, language));
          } else if (message.type === "error")
            reported = { code: message.code ?? "failed", message: message.message ?? "" };
        },
        onStart: options.onChild,
      });
    } catch (error) {
      if (error instanceof ToolStartError)
        throw new AsrError("asr_unavailable", `The local recogniser could not be started: ${error.message}`, {
          retryable: false,
          cause: error,
        });
      throw error; // the abort reason
    }
    await writes;
    const failure = reported as { code: string; message: string } | null;
    if (failure?.code === "model_invalid") {
      throw new AsrError(
        "asr_unavailable",
        `${failure.message}. The file is missing or not a whisper.cpp model: check ASR_LOCAL_MODEL_PATH / ASR_LOCAL_MODEL, or run \`npm run model:download\`.`,
        { retryable: false },
      );
    }
    if (failure?.code === "runtime_missing")
      throw new AsrError("asr_unavailable", failure.message, { retryable: false });
    if (result.failure === "timeout")
      throw new AsrError(
        "asr_failed",
        `The local recogniser took longer than ${Math.round(timeoutMs / 1000)} s and was stopped.`,
        { retryable: true },
      );
    if (failure)
      throw new AsrError("asr_failed", `The local recogniser failed: ${failure.message}`, { retryable: true });
    if (result.code !== 0 || pending.size > 0) {
      const how = result.code === null ? "was killed (a crash or out of memory)" : `exited with code ${result.code}`;
      const stderr = result.stderrTail.split("\n").slice(-2).join(" ").slice(0, 300);
      throw new AsrError(
        "asr_failed",
        `The local recogniser ${how} before it finished (${pending.size} of ${todo.length} chunks left)${stderr ? `: ${stderr}` : "."}`,
        {
          retryable: true,
        },
      );
    }
  }

  return { name, prepare, transcribe };
}
