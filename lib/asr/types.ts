import { networkFailure, withOperatorNote } from "@/lib/observability/failure-cause";

// Speech recognition: what every ASR backend (AssemblyAI, an OpenAI-compatible
// /v1/audio/transcriptions server, the local whisper.cpp) gives the transcripts domain when a source has no captions.

export interface Word {
  text: string;
  /** Seconds from the start of the audio. */
  start: number;
  /** Seconds from the start of the audio; >= start. */
  end: number;
  /**
   * The backend timed only the segment or the whole text, and this word's time is a share of it
   * (lib/asr/verbose-json.ts): good for cutting segments, not a time to show
   * (docs/decisions/0006-word-times-where-the-source-measured-them.md).
   */
  estimated?: true;
}

export interface AsrResult {
  /** In time order, no duplicates. */
  words: Word[];
  text: string;
  durationSeconds: number;
  /** BCP-47-ish code of the language heard ("en", "en-US", "pt"), null when the backend does not say. */
  language: string | null;
}

export interface AsrTranscribeOptions {
  /** The language expected (BCP-47, e.g. "en-US", "pt-BR"); backends map it to their own codes. */
  lang: string;
  /** Aborting rejects with the signal's reason (not an AsrError) and stops polling/uploads/ffmpeg. */
  signal?: AbortSignal;
  /** Called with a fraction in [0, 1], never decreasing; 1 once the result is ready. */
  onProgress?(p: number): void;
  /**
   * Synchronous backends that send the audio in pieces: keep each piece's answer in this folder and reuse
   * it when the same file is transcribed again (a retried job), so no piece is paid for twice.
   */
  chunkDir?: string;
  /** Terms to expect (lib/asr/vocabulary.ts), given to each engine in its own form. */
  vocabulary?: string[];
  /**
   * Where someone speaks (lib/asr/vad.ts), seconds on the file's clock: the local recogniser hears only
   * these; every engine's words outside them are dropped (lib/asr/hallucination.ts). Absent: all of it.
   */
  speech?: Array<{ start: number; end: number }>;
}

export interface AsrPrepareOptions {
  signal?: AbortSignal;
  /** What the provider is doing before recognition starts ("downloading the speech model, 40 %"), with a fraction. */
  onStatus?(stage: string, fraction: number): void;
}

export interface AsrProvider {
  name: string;
  /** Work a provider needs done before it can recognise anything (the local model's download), reported as a stage. */
  prepare?(opts: AsrPrepareOptions): Promise<void>;
  /** Recognises the file and waits for the result (one paid submission per call). */
  transcribe(audioPath: string, opts: AsrTranscribeOptions): Promise<AsrResult>;
  /*
   * Providers with an asynchronous API take the same work in steps, each of whose results the caller can
   * checkpoint, so that the same audio is never paid for twice: upload (free) → submit (paid) → waitFor.
   */
  /** Sends the audio to the provider and returns the provider's URL for it. */
  upload?(audioPath: string, opts: AsrTranscribeOptions): Promise<{ audioUrl: string }>;
  /** Asks for recognition of uploaded audio and returns the provider's transcript id, without waiting. */
  submit?(audioUrl: string, opts: AsrTranscribeOptions): Promise<{ id: string }>;
  /**
   * The transcript an earlier submit of this uploaded audio created, or null: for a retry that cannot know
   * whether its last submit reached the provider (a crash or a lost answer after the provider accepted it).
   */
  findSubmitted?(audioUrl: string, uploadedAt: Date, opts: AsrTranscribeOptions): Promise<{ id: string } | null>;
  /** Waits for a submitted transcript by its id (as often as needed: it submits nothing). */
  waitFor?(id: string, opts: AsrTranscribeOptions): Promise<AsrResult>;
}

export type AsrErrorCode =
  | "asr_failed" // the backend failed or could not be reached (5xx, network, timeout, its own job error)
  | "asr_unavailable" // this backend cannot run here at all (e.g. ffmpeg missing)
  | "asr_model_missing" // the local model is not here and cannot be downloaded (lib/http/error-codes.ts)
  | "asr_rejected"; // the backend refused the request (4xx: bad key, bad audio, too large)

export class AsrError extends Error {
  readonly code: AsrErrorCode;
  /** Whether the same request may succeed later. */
  readonly retryable: boolean;
  /** HTTP status of the backend's answer, when there was one. */
  readonly status: number | undefined;

  constructor(
    code: AsrErrorCode,
    message: string,
    options: { retryable?: boolean; status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AsrError";
    this.code = code;
    this.retryable = options.retryable ?? code === "asr_failed";
    this.status = options.status;
  }
}

/**
 * The AsrError for an HTTP error answer from a backend: 408/429 and 5xx are retryable failures, other 4xx
 * are rejections (bad key, bad request, too large).
 */
export function httpAsrError(backend: string, status: number, detail: string, setting: string): AsrError {
  const note = { cause: `http_${status}`, setting, detail: `${backend} answered ${status}: ${detail}` };
  if (status === 408 || status === 429 || status >= 500) {
    return withOperatorNote(
      new AsrError("asr_failed", "Speech recognition failed on the recogniser's side. Try again later.", {
        retryable: true,
        status,
      }),
      note,
    );
  }
  // A refused credential is the operator's to fix; anything else the recogniser refused is about this audio.
  const message =
    status === 401 || status === 403
      ? "Speech recognition is not available on this server right now."
      : "The speech recogniser could not process this audio.";
  return withOperatorNote(new AsrError("asr_rejected", message, { retryable: false, status }), note);
}

/**
 * The recogniser could not be reached or did not answer in time: a sentence for the user, the cause
 * (refused, DNS, no route, timeout) and the setting for the operator.
 */
export function unreachableAsrError(
  backend: string,
  setting: string,
  error: unknown,
  timedOutAfterMs?: number,
): AsrError {
  const network = networkFailure(error);
  const note =
    timedOutAfterMs !== undefined
      ? {
          cause: "timeout",
          setting,
          detail: `${backend} did not answer within ${Math.round(timedOutAfterMs / 1000)} s`,
        }
      : {
          cause: network?.cause ?? "unreachable",
          setting,
          detail: `${backend} unreachable: ${network?.detail ?? (error instanceof Error ? error.message : String(error))}`,
        };
  const message =
    timedOutAfterMs !== undefined
      ? "Speech recognition took too long to answer. Try again later."
      : "Speech recognition is not reachable right now. Try again later.";
  return withOperatorNote(new AsrError("asr_failed", message, { retryable: true, cause: error }), note);
}

/** Rejects with the signal's reason when it is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Waits `ms`, or less when the signal aborts (then rejects with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new DOMException("This operation was aborted", "AbortError"));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("This operation was aborted", "AbortError"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Wraps onProgress so it is never called with a smaller value, never above 1, and never throws. */
export function monotonicProgress(onProgress: ((p: number) => void) | undefined): (p: number) => void {
  let last = -1;
  return (p: number) => {
    if (!onProgress) return;
    const clamped = Math.min(1, Math.max(0, p));
    if (clamped <= last) return;
    last = clamped;
    try {
      onProgress(clamped);
    } catch {
      // A listener's failure must not fail the transcription.
    }
  };
}
