import { openAsBlob } from "node:fs";
import { mkdtemp, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { operatorNote } from "@/lib/observability/failure-cause";
import { cutAudio, probeDuration } from "./ffmpeg";
import { guardWords, segmentStats } from "./hallucination";
import { primaryLanguage } from "./language";
import { whisperPrompt } from "./vocabulary";
import { joinWords } from "./segment-words";
import { stitchChunks, type ChunkWords } from "./stitch";
import {
  AsrError,
  httpAsrError,
  monotonicProgress,
  unreachableAsrError,
  sleep,
  throwIfAborted,
  type AsrProvider,
  type AsrResult,
} from "./types";
import { mostCommon, parseVerboseJson, type ChunkAnswer, type VerboseJson } from "./verbose-json";

export interface OpenAiCompatibleOptions {
  /** Server origin, e.g. "https://api.openai.com" or "http://localhost:8000" (a trailing "/v1" is tolerated). */
  baseUrl: string;
  /** Sent as "Authorization: Bearer …" when set. */
  apiKey?: string;
  /** e.g. "whisper-1" (OpenAI's only model with word timestamps), "Systran/faster-whisper-large-v3". */
  model: string;
  /** Largest request body the server takes; bigger audio is cut into chunks. Default 25 MiB (OpenAI's limit). */
  maxUploadBytes?: number;
  /** Longest chunk when cutting, seconds. Default 600. */
  chunkSeconds?: number;
  /**
   * How chunks are made: "mp3" re-encodes each to 16 kHz mono MP3 at 64 kbit/s (exact start times, known
   * size; what the model hears is 16 kHz mono anyway), "copy" keeps the original packets (no re-encoding;
   * falls back to "mp3" for formats the endpoint does not take or when copied chunks cannot fit). Default "mp3".
   */
  chunkCodec?: "mp3" | "copy";
  /** How much consecutive chunks overlap, seconds. Default 5. */
  overlapSeconds?: number;
  /** Per request. Default 10 minutes. */
  requestTimeoutMs?: number;
  /** Further attempts of a request that failed retryably (5xx, 408, 429, network). Default 2. */
  retries?: number;
  /** First delay between attempts, doubled each time. Default 1000. */
  retryDelayMs?: number;
  ffmpegPath?: string;
  ffprobePath?: string;
  /** Where chunks are written (a private directory is made inside). Default os.tmpdir(). */
  tmpDir?: string;
}

/** The file formats OpenAI's endpoint takes, by extension, with their MIME types. */
const ACCEPTED_TYPES: Readonly<Record<string, string>> = {
  ".flac": "audio/flac",
  ".mp3": "audio/mpeg",
  ".mp4": "audio/mp4",
  ".mpeg": "audio/mpeg",
  ".mpga": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".wav": "audio/wav",
  ".webm": "audio/webm",
};

/** Room left for the multipart envelope and the other fields when comparing a file with maxUploadBytes. */
const MULTIPART_MARGIN = 16 * 1024;
/** A cut chunk is aimed at this share of the room, as bitrates vary along a file. */
const FILL = 0.9;
/** Bitrate of re-encoded chunks (16 kHz mono MP3; plenty for speech recognition), bytes per second. */
const MP3_BITRATE = "64k";
const MP3_BYTES_PER_SECOND = 8000;

export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): AsrProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/audio/transcriptions`;
  const maxUploadBytes = options.maxUploadBytes ?? 25 * 1024 * 1024;
  const chunkSeconds = options.chunkSeconds ?? 600;
  const overlapSeconds = options.overlapSeconds ?? 5;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10 * 60_000;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  if (!(overlapSeconds >= 0) || !(chunkSeconds > 2 * overlapSeconds)) {
    throw new Error("chunkSeconds must be more than twice overlapSeconds");
  }
  // Chunks shorter than this are not worth a request: re-encode, or give up.
  const minChunkSeconds = Math.min(chunkSeconds, Math.max(3 * overlapSeconds, 15));

  async function post(
    file: string,
    language: string | null,
    signal: AbortSignal | undefined,
    prompt?: string,
  ): Promise<ChunkAnswer> {
    const ext = path.extname(file).toLowerCase();
    const form = new FormData();
    form.append(
      "file",
      await openAsBlob(file, { type: ACCEPTED_TYPES[ext] ?? "application/octet-stream" }),
      `audio${ext}`,
    );
    form.append("model", options.model);
    form.append("response_format", "verbose_json");
    form.append("timestamp_granularities[]", "word");
    form.append("timestamp_granularities[]", "segment");
    if (language) form.append("language", language);
    // The vocabulary as OpenAI's `prompt` (lib/asr/vocabulary.ts).
    if (prompt) form.append("prompt", prompt);

    const headers: Record<string, string> = { accept: "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const timeout = AbortSignal.timeout(requestTimeoutMs);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        body: form,
        headers,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throwIfAborted(signal);
      throw unreachableAsrError(
        `ASR server ${endpoint}`,
        "ASR_OPENAI_BASE_URL",
        error,
        timeout.aborted ? requestTimeoutMs : undefined,
      );
    }
    const body = await response.text().catch(() => "");
    if (!response.ok)
      throw httpAsrError(
        `ASR server ${endpoint}`,
        response.status,
        errorDetail(body, response.statusText),
        "ASR_OPENAI_BASE_URL, ASR_OPENAI_API_KEY, ASR_OPENAI_MODEL",
      );
    let json: VerboseJson;
    try {
      json = JSON.parse(body) as VerboseJson;
    } catch {
      throw new AsrError("asr_failed", `ASR server answered ${response.status} with something other than JSON`, {
        retryable: false,
        status: response.status,
      });
    }
    const answer = parseVerboseJson(json);
    // Whisper's own per-window verdicts (no_speech_prob with avg_logprob, compression_ratio), loops,
    // credit lines: dropped before the answer is kept (lib/asr/hallucination.ts).
    return { ...answer, words: guardWords(answer.words, { segments: segmentStats(json) }).words };
  }

  async function postWithRetries(
    file: string,
    language: string | null,
    signal: AbortSignal | undefined,
    prompt?: string,
  ): Promise<ChunkAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await post(file, language, signal, prompt);
      } catch (error) {
        if (!(error instanceof AsrError) || !error.retryable || attempt >= retries) throw error;
        await sleep(retryDelayMs * 2 ** attempt, signal);
      }
    }
  }

  async function transcribeInChunks(
    audioPath: string,
    size: number,
    startLimit: number,
    language: string | null,
    signal: AbortSignal | undefined,
    progress: (p: number) => void,
    chunkDir: string | undefined,
    prompt?: string,
  ): Promise<AsrResult> {
    const paths = { ffmpegPath: options.ffmpegPath, ffprobePath: options.ffprobePath };
    const duration = await probeDuration(audioPath, { ...paths, signal });
    const ext = path.extname(audioPath).toLowerCase();
    let codec: "copy" | "mp3" = options.chunkCodec === "copy" && ACCEPTED_TYPES[ext] ? "copy" : "mp3";
    let limit = startLimit;
    const fits = (bytesPerSecond: number) => Math.max(0, (limit - MULTIPART_MARGIN) * FILL) / bytesPerSecond;
    let chunkLength = Math.min(chunkSeconds, fits(codec === "copy" ? size / duration : MP3_BYTES_PER_SECOND));
    if (chunkLength < minChunkSeconds && codec === "copy") {
      codec = "mp3";
      chunkLength = Math.min(chunkSeconds, fits(MP3_BYTES_PER_SECOND));
    }

    const dir = await mkdtemp(path.join(options.tmpDir ?? tmpdir(), "verbatim-asr-"));
    try {
      const chunks: ChunkWords[] = [];
      const texts: string[] = [];
      const languages: string[] = [];
      let start = 0;
      for (let index = 0; ;) {
        throwIfAborted(signal);
        if (chunkLength < minChunkSeconds) {
          throw new AsrError(
            "asr_rejected",
            `ASR server takes at most ${limit} bytes: not even ${minChunkSeconds} s of audio fit`,
            { retryable: false },
          );
        }
        // A tail shorter than the overlap rides along with this chunk instead of getting its own.
        const rest = duration - start;
        const length = rest - chunkLength < overlapSeconds ? rest : chunkLength;
        const key = `chunk-${start.toFixed(3)}-${length.toFixed(3)}-${codec}`;
        let answer = await keptAnswer(chunkDir, key);
        let bytes = 0;
        if (!answer) {
          const file = path.join(dir, `chunk-${index}${codec === "copy" ? ext : ".mp3"}`);
          await cutAudio(audioPath, file, start, length, { ...paths, signal, codec, mp3Bitrate: MP3_BITRATE });
          bytes = (await stat(file)).size;
          if (bytes + MULTIPART_MARGIN <= limit) {
            try {
              answer = await postWithRetries(file, language, signal, prompt);
              await keepAnswer(chunkDir, key, answer);
            } catch (error) {
              if (!(error instanceof AsrError && error.status === 413)) throw error;
              limit = Math.min(limit, learnedLimit(error, bytes + MULTIPART_MARGIN)); // The server takes less than we were told.
            }
          }
          await unlink(file).catch(() => {});
        }
        if (!answer) {
          // Too big: aim lower (this chunk's own bitrate), switching to re-encoding when copying cannot fit.
          chunkLength = Math.min(chunkLength * FILL, fits(bytes / length));
          if (chunkLength < minChunkSeconds && codec === "copy") {
            codec = "mp3";
            chunkLength = Math.min(chunkSeconds, fits(MP3_BYTES_PER_SECOND));
          }
          continue;
        }

        chunks.push({
          start,
          end: start + length,
          // Shifted to the whole file's clock; an estimated time stays marked as one.
          words: answer.words.map((w) => ({ ...w, start: w.start + start, end: w.end + start })),
        });
        if (answer.text) texts.push(answer.text);
        if (answer.language) languages.push(answer.language);
        progress((0.98 * (start + length)) / duration);
        if (start + length >= duration - 1e-3) break;
        start += length - overlapSeconds;
        index++;
      }

      const words = stitchChunks(chunks);
      return {
        words,
        text: words.length ? joinWords(words.map((w) => w.text)) : texts.join(" "),
        durationSeconds: duration,
        language: mostCommon(languages),
      };
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }

  return {
    name: "openai-compatible",
    async transcribe(audioPath, { lang, signal, onProgress, chunkDir, vocabulary }) {
      const prompt = whisperPrompt(vocabulary);
      const progress = monotonicProgress(onProgress);
      throwIfAborted(signal);
      progress(0);
      const language = primaryLanguage(lang);
      let size: number;
      try {
        size = (await stat(audioPath)).size;
      } catch (error) {
        throw new AsrError("asr_failed", `cannot read ${audioPath}: ${(error as Error).message}`, {
          retryable: false,
          cause: error,
        });
      }

      let limit = maxUploadBytes;
      if (ACCEPTED_TYPES[path.extname(audioPath).toLowerCase()] && size + MULTIPART_MARGIN <= limit) {
        try {
          let answer = await keptAnswer(chunkDir, "whole");
          if (!answer) {
            answer = await postWithRetries(audioPath, language, signal, prompt);
            await keepAnswer(chunkDir, "whole", answer);
          }
          progress(1);
          return {
            words: answer.words,
            text: answer.text || joinWords(answer.words.map((w) => w.text)),
            durationSeconds: answer.duration ?? answer.words.at(-1)?.end ?? 0,
            language: answer.language,
          };
        } catch (error) {
          if (!(error instanceof AsrError && error.status === 413)) throw error;
          limit = learnedLimit(error, size + MULTIPART_MARGIN); // The server takes less than maxUploadBytes: cut.
        }
      }
      const result = await transcribeInChunks(audioPath, size, limit, language, signal, progress, chunkDir, prompt);
      progress(1);
      return result;
    },
  };
}

/** An answer kept in `chunkDir` by an earlier run for the same piece of audio, if any. */
async function keptAnswer(chunkDir: string | undefined, key: string): Promise<ChunkAnswer | null> {
  if (!chunkDir) return null;
  try {
    return JSON.parse(await readFile(path.join(chunkDir, `${key}.json`), "utf8")) as ChunkAnswer;
  } catch {
    return null;
  }
}

/** Keeps a paid answer (written whole, then renamed: a crash never leaves half a file). */
async function keepAnswer(chunkDir: string | undefined, key: string, answer: ChunkAnswer): Promise<void> {
  if (!chunkDir) return;
  const file = path.join(chunkDir, `${key}.json`);
  await writeFile(`${file}.tmp`, JSON.stringify(answer));
  await rename(`${file}.tmp`, file);
}

/**
 * The server's limit after a 413 for `sent` bytes: OpenAI names it ("Maximum content size limit (26214400)
 * exceeded …"); otherwise assume half of what was sent.
 */
function learnedLimit(error: AsrError, sent: number): number {
  // The server's own words are in the operator's note (the message is the user's sentence).
  const named = /limit\D{0,20}\((\d{4,})\)/i.exec(operatorNote(error).detail);
  const limit = named ? Number(named[1]) : NaN;
  return limit > 0 && limit < sent ? limit : Math.floor(sent / 2);
}

function errorDetail(body: string, statusText: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    const message =
      typeof json.error === "string"
        ? json.error
        : (json.error?.message ?? (typeof json.detail === "string" ? json.detail : json.message));
    if (typeof message === "string" && message) return message;
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 300) || statusText;
}
