// AssemblyAI through its official SDK (`assemblyai`), with the SDK's HTTP calls sent through the outbound
// guard: upload, submit once per job, then wait for the result by polling with backoff or, given a
// `webhookUrl`, by AssemblyAI's webhook (handleAssemblyAiWebhook wakes the waiters, assemblyai-waiters.ts).
// The guarded services are assemblyai-services.ts.
import type { BaseServiceParams, SubmitParams, Transcript } from "assemblyai";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { log } from "@/lib/observability/logger";
import { createdAt, GuardedFileService, GuardedTranscriptService } from "./assemblyai-services";
import { addWaiter, handleAssemblyAiWebhook, nap, removeWaiter } from "./assemblyai-waiters";
import { fromAssemblyAiLanguage, toAssemblyAiLanguage } from "./language";
import { joinWords } from "./segment-words";
import { assemblyAiKeyterms } from "./vocabulary";
import {
  AsrError,
  monotonicProgress,
  throwIfAborted,
  type AsrProvider,
  type AsrResult,
  type AsrTranscribeOptions,
  type Word,
} from "./types";

export { createdAt } from "./assemblyai-services";
export { handleAssemblyAiWebhook } from "./assemblyai-waiters";

export interface AssemblyAiOptions {
  apiKey: string;
  /** Default https://api.assemblyai.com (https://api.eu.assemblyai.com for the EU region). */
  baseUrl?: string;
  /** First wait between status polls; each later one is 1.5× longer, up to maxPollIntervalMs. Default 1000. */
  pollIntervalMs?: number;
  /** Longest wait between polls. Default 15000 (60000 with a webhook, which usually wakes the wait first). */
  maxPollIntervalMs?: number;
  /** Give up (retryable asr_failed) when the transcript is not done after this long. Default 3 hours. */
  maxWaitMs?: number;
  /** Sent as webhook_url: AssemblyAI POSTs {transcript_id, status} there when done; pass that body to
   * handleAssemblyAiWebhook() to end the wait early. Polling continues (less often) either way. */
  webhookUrl?: string;
  /** Optional header AssemblyAI adds to the webhook request, for the receiving route to check. */
  webhookAuthHeaderName?: string;
  webhookAuthHeaderValue?: string;
  /** AssemblyAI's speech_models (priority order); its default when unset. */
  speechModels?: string[];
  /** One API call (submit, status) that has not answered after this long fails, retryably. Default 60000. */
  requestTimeoutMs?: number;
  /** The same for the audio upload. Default 30 minutes. */
  uploadTimeoutMs?: number;
}

/** Polls that fail retryably (5xx, network) in a row before the wait gives up. */
const MAX_POLL_FAILURES = 5;
const BACKOFF = 1.5;

/** The wait before the next status poll: the last one 1.5× longer, never over the cap. */
export function nextPollDelay(delay: number, capMs: number): number {
  return Math.min(delay * BACKOFF, capMs);
}
/** Looking for an earlier submission: pages of AssemblyAI's maximum size, at most this many of them. */
const LOOKUP_PAGE_SIZE = 200;
const LOOKUP_MAX_PAGES = 10;
/** How far our clock and AssemblyAI's may disagree about when the audio was uploaded. */
const LOOKUP_CLOCK_SKEW_MS = 2 * 60_000;

function toWords(transcript: Transcript): Word[] {
  const words: Word[] = [];
  for (const w of transcript.words ?? []) {
    if (!w.text?.trim() || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    words.push({ text: w.text.trim(), start: w.start / 1000, end: Math.max(w.start, w.end) / 1000 });
  }
  return words.sort((a, b) => a.start - b.start);
}

export function createAssemblyAiProvider(options: AssemblyAiOptions): Required<Omit<AsrProvider, "prepare">> & {
  handleWebhook: typeof handleAssemblyAiWebhook;
} {
  const params: BaseServiceParams = {
    apiKey: options.apiKey,
    baseUrl: (options.baseUrl ?? "https://api.assemblyai.com").replace(/\/+$/, ""),
  };
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const maxPollIntervalMs = options.maxPollIntervalMs ?? (options.webhookUrl ? 60_000 : 15_000);
  const maxWaitMs = options.maxWaitMs ?? 3 * 60 * 60_000;

  const requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
  const uploadTimeoutMs = options.uploadTimeoutMs ?? 30 * 60_000;
  const clientFor = (signal: AbortSignal | undefined) => {
    const files = new GuardedFileService(params, signal, uploadTimeoutMs);
    return { files, transcripts: new GuardedTranscriptService(params, files, signal, requestTimeoutMs) };
  };

  /** 1. Upload, streaming the file (upload progress: 0 → 0.3). Free: only the submission is paid. */
  async function upload(
    audioPath: string,
    { signal, onProgress }: AsrTranscribeOptions,
  ): Promise<{ audioUrl: string }> {
    const progress = monotonicProgress(onProgress);
    throwIfAborted(signal);
    progress(0);
    let size: number;
    try {
      size = (await stat(audioPath)).size;
    } catch (error) {
      throw new AsrError("asr_failed", `cannot read ${audioPath}: ${(error as Error).message}`, {
        retryable: false,
        cause: error,
      });
    }
    const client = clientFor(signal);
    let sent = 0;
    const file = createReadStream(audioPath);
    const counted = file.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          sent += chunk.length;
          progress(size > 0 ? (0.3 * sent) / size : 0);
          callback(null, chunk);
        },
      }),
    );
    file.on("error", (error) => counted.destroy(error));
    try {
      return {
        audioUrl: await client.files.upload(
          Readable.toWeb(counted) as NodeWebReadableStream<Uint8Array> as ReadableStream,
        ),
      };
    } finally {
      file.destroy();
      counted.destroy();
    }
  }

  /** 2. Submit the uploaded audio for recognition (paid). Returns the queued transcript. */
  async function submitQueued(
    audioUrl: string,
    { lang, signal, onProgress, vocabulary }: AsrTranscribeOptions,
  ): Promise<Transcript> {
    const progress = monotonicProgress(onProgress);
    throwIfAborted(signal);
    const languageCode = toAssemblyAiLanguage(lang);
    const params: SubmitParams = {
      audio_url: audioUrl,
      punctuate: true,
      format_text: true,
      ...(languageCode ? { language_code: languageCode } : { language_detection: true }),
      ...(options.speechModels ? { speech_models: options.speechModels } : {}),
      // The vocabulary as AssemblyAI's own list of key terms (lib/asr/vocabulary.ts).
      ...(assemblyAiKeyterms(vocabulary) ? { keyterms_prompt: assemblyAiKeyterms(vocabulary) } : {}),
      ...(options.webhookUrl ? { webhook_url: options.webhookUrl } : {}),
      ...(options.webhookUrl && options.webhookAuthHeaderName && options.webhookAuthHeaderValue
        ? {
            webhook_auth_header_name: options.webhookAuthHeaderName,
            webhook_auth_header_value: options.webhookAuthHeaderValue,
          }
        : {}),
    };
    const queued = await clientFor(signal).transcripts.submit(params);
    progress(0.35);
    return queued;
  }

  /**
   * An earlier submission of this uploaded audio, if AssemblyAI has one. AssemblyAI takes no idempotency
   * key, but each upload URL is new, so the transcript whose audio_url is this URL is ours. Pages back
   * from the newest transcript until one older than the upload (less clock skew), or LOOKUP_MAX_PAGES.
   */
  async function findSubmitted(
    audioUrl: string,
    uploadedAt: Date,
    { signal }: AsrTranscribeOptions,
  ): Promise<{ id: string } | null> {
    const client = clientFor(signal).transcripts;
    const oldest = uploadedAt.getTime() - LOOKUP_CLOCK_SKEW_MS;
    let beforeId: string | undefined;
    for (let page = 0; page < LOOKUP_MAX_PAGES; page++) {
      const { transcripts } = await client.listPage({
        limit: LOOKUP_PAGE_SIZE,
        ...(beforeId ? { before_id: beforeId } : {}),
      });
      const match = transcripts.find((t) => t.audio_url === audioUrl);
      if (match) return { id: match.id };
      const last = transcripts.at(-1);
      if (!last || transcripts.length < LOOKUP_PAGE_SIZE || !(createdAt(last.created) >= oldest)) return null;
      beforeId = last.id;
    }
    log.warn(
      { audioUrl, pages: LOOKUP_MAX_PAGES },
      "no earlier AssemblyAI submission found in the newest transcripts; submitting",
    );
    return null;
  }

  /** 3. Wait: poll with backoff (1 s, 1.5 s, 2.25 s … up to the cap), woken early by a webhook. */
  async function waitForTranscript(
    id: string,
    { lang, signal, onProgress }: AsrTranscribeOptions,
    first: Transcript | null,
  ): Promise<AsrResult> {
    const progress = monotonicProgress(onProgress);
    throwIfAborted(signal);
    const client = clientFor(signal);
    const languageCode = toAssemblyAiLanguage(lang);
    const waiter = addWaiter(id);
    const deadline = Date.now() + maxWaitMs;
    let delay = pollIntervalMs;
    let failures = 0;
    let processingSince: number | null = null;
    // Null: nothing known yet (a wait resumed by id), so the first look is at once.
    let transcript: Transcript | null = first;
    try {
      for (;;) {
        if (transcript) {
          if (transcript.status === "completed") break;
          if (transcript.status === "error") {
            throw new AsrError(
              "asr_failed",
              `AssemblyAI could not transcribe (${id}): ${transcript.error ?? "no reason given"}`,
              {
                retryable: false,
              },
            );
          }
          if (transcript.status === "processing") {
            processingSince ??= Date.now();
            // AssemblyAI gives no progress: creep from 0.5 towards 0.95 (half way after a minute).
            progress(0.5 + 0.45 * (1 - Math.exp(-(Date.now() - processingSince) / 86_000)));
          }
          const left = deadline - Date.now();
          if (left <= 0) {
            throw new AsrError(
              "asr_failed",
              `AssemblyAI transcript ${id} not done after ${Math.round(maxWaitMs / 1000)} s`,
              {
                retryable: true,
              },
            );
          }
          await nap(waiter, Math.min(delay, left), signal);
          delay = nextPollDelay(delay, maxPollIntervalMs);
        }
        try {
          transcript = await client.transcripts.get(id);
          failures = 0;
        } catch (error) {
          // The job goes on at AssemblyAI: ride out a few transient failures of the status request.
          if (!(error instanceof AsrError) || !error.retryable || ++failures > MAX_POLL_FAILURES) throw error;
          transcript ??= { id, status: "queued" } as Transcript;
        }
      }
    } finally {
      removeWaiter(id, waiter);
    }

    const words = toWords(transcript);
    progress(1);
    return {
      words,
      text: transcript.text?.trim() || joinWords(words.map((w) => w.text)),
      durationSeconds: transcript.audio_duration ?? words.at(-1)?.end ?? 0,
      language:
        fromAssemblyAiLanguage(transcript.language_code) ??
        (languageCode ? fromAssemblyAiLanguage(languageCode) : null),
    };
  }

  return {
    name: "assemblyai",
    handleWebhook: handleAssemblyAiWebhook,
    upload,
    async submit(audioUrl, opts) {
      return { id: (await submitQueued(audioUrl, opts)).id };
    },
    findSubmitted,
    waitFor: (id, opts) => waitForTranscript(id, opts, null),
    async transcribe(audioPath, opts) {
      const progress = monotonicProgress(opts.onProgress);
      const { audioUrl } = await upload(audioPath, { ...opts, onProgress: progress });
      const queued = await submitQueued(audioUrl, { ...opts, onProgress: progress });
      return waitForTranscript(queued.id, { ...opts, onProgress: progress }, queued);
    },
  };
}
