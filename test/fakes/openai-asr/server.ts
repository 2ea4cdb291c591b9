/**
 * Fake OpenAI-compatible speech-to-text server (POST /v1/audio/transcriptions, as in
 * https://platform.openai.com/docs/api-reference/audio/createTranscription) for the ASR tests: node:http on
 * 127.0.0.1, port 0.
 *
 * - multipart/form-data with `file`, `model` (required), `language`, `response_format`,
 *   `timestamp_granularities[]` (only with verbose_json, as OpenAI insists);
 * - a request body over `maxUploadBytes` gets OpenAI's 413
 *   {"error": {"message": "Maximum content size limit (N) exceeded (M bytes read)", "type": "server_error", …}};
 * - other errors in OpenAI's shape {"error": {message, type, param, code}} (401 on a wrong key);
 * - verbose_json: {task, language, duration, text, words?: [{word, start, end}], segments: [...]}, with
 *   `words` only when word granularity was asked for (and `includeWords` is on).
 *
 * What is "heard" in each upload is set per test with `respondWith(fn)`; fn gets the upload (bytes, file
 * name, params) and returns the words (seconds, relative to that upload). See ./tones.ts for a recogniser
 * of generated tone "speech" that follows the audio actually sent. `requests` records each request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeAsrWord {
  word: string;
  start: number;
  end: number;
}

export interface FakeAsrUpload {
  audio: Buffer;
  filename: string;
  contentType: string;
  params: Record<string, string | string[]>;
}

export interface FakeAsrTranscript {
  words: FakeAsrWord[];
  /** Default "english" (OpenAI answers with Whisper's language name). */
  language?: string;
  /** Seconds. Default: the last word's end. */
  duration?: number;
  /** Default: the words joined with spaces. */
  text?: string;
  /** verbose_json segments as the server reports them (Whisper's per-window figures); default: made from the words. */
  segments?: Array<{
    start: number;
    end: number;
    text: string;
    no_speech_prob?: number;
    avg_logprob?: number;
    compression_ratio?: number;
  }>;
}

export interface RecordedAsrRequest {
  /** Bytes of the uploaded file (0 when there was none). */
  audioBytes: number;
  /** Bytes of the whole request body. */
  bodyBytes: number;
  filename: string | null;
  authorization: string | undefined;
  /** Form fields other than the file; repeated fields (timestamp_granularities[]) as arrays. */
  params: Record<string, string | string[]>;
  status: number;
}

export interface FakeOpenAiAsrOptions {
  /** Required bearer token; null accepts any request (like a local server). Default null. */
  apiKey?: string | null;
  /** Largest request body accepted. Default 26214400 (OpenAI's 25 MiB). */
  maxUploadBytes?: number;
  /** Answer `words` (when asked for). Off: segments only, as some servers do. Default true. */
  includeWords?: boolean;
  /** Words in segments (like faster-whisper servers) instead of or besides the top level. Default false. */
  wordsInSegments?: boolean;
}

export interface FakeOpenAiAsr {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedAsrRequest[];
  respondWith(fn: (upload: FakeAsrUpload) => FakeAsrTranscript | Promise<FakeAsrTranscript>): void;
  /** Status answers of the next requests (e.g. 500, 429, 400), consumed one per request. */
  failNext(...statuses: number[]): void;
  /** A standing fault until cleared with null: every transcription answers 500, never answers, or answers 200 with garbage. */
  setFault(mode: "500" | "hang" | "garbage" | null): void;
  setMaxUploadBytes(bytes: number): void;
  close(): Promise<void>;
}

const SUPPORTED = ["flac", "mp3", "mp4", "mpeg", "mpga", "m4a", "ogg", "oga", "wav", "webm"];

function openAiError(
  res: http.ServerResponse,
  status: number,
  message: string,
  type = "invalid_request_error",
  param: string | null = null,
) {
  const body = JSON.stringify({ error: { message, type, param, code: null } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** Groups words into segments of up to 8 words or until a sentence end, like Whisper's segments. */
function segmentsOf(words: FakeAsrWord[], withWords: boolean) {
  const segments: Array<Record<string, unknown>> = [];
  let group: FakeAsrWord[] = [];
  const flush = () => {
    if (!group.length) return;
    const id = segments.length;
    segments.push({
      id,
      seek: 0,
      start: group[0].start,
      end: group.at(-1)!.end,
      text: " " + group.map((w) => w.word).join(" "),
      tokens: group.map((_, i) => 50364 + i),
      temperature: 0,
      avg_logprob: -0.21,
      compression_ratio: 1.3,
      no_speech_prob: 0.01,
      ...(withWords
        ? { words: group.map((w) => ({ word: ` ${w.word}`, start: w.start, end: w.end, probability: 0.9 })) }
        : {}),
    });
    group = [];
  };
  for (const w of words) {
    group.push(w);
    if (group.length >= 8 || /[.?!]$/.test(w.word)) flush();
  }
  flush();
  return segments;
}

export async function startFakeOpenAiAsr(options: FakeOpenAiAsrOptions = {}): Promise<FakeOpenAiAsr> {
  const apiKey = options.apiKey ?? null;
  let maxUploadBytes = options.maxUploadBytes ?? 26_214_400;
  const includeWords = options.includeWords ?? true;
  const requests: RecordedAsrRequest[] = [];
  const failures: number[] = [];
  let fault: "500" | "hang" | "garbage" | null = null;
  let respond: (u: FakeAsrUpload) => FakeAsrTranscript | Promise<FakeAsrTranscript> = () => ({
    words: [
      { word: "Hello", start: 0.2, end: 0.5 },
      { word: "world", start: 0.6, end: 1.0 },
    ],
    text: "Hello world.",
  });
  let origin = "";

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on("data", (c: Buffer) => {
      bytes += c.length;
      if (bytes <= maxUploadBytes) chunks.push(c); // past the limit, only count (OpenAI reads it all too)
    });
    req.on("end", () => {
      void handle(req, res, Buffer.concat(chunks), bytes).catch((error: unknown) => {
        if (!res.headersSent) openAiError(res, 500, `fake failed: ${(error as Error).message}`, "server_error");
      });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, bodyBytes: number) {
    const record: RecordedAsrRequest = {
      audioBytes: 0,
      bodyBytes,
      filename: null,
      authorization: req.headers.authorization,
      params: {},
      status: 200,
    };
    requests.push(record);
    const fail = (status: number, message: string, type?: string, param?: string | null) => {
      record.status = status;
      openAiError(res, status, message, type, param);
    };

    const url = new URL(req.url ?? "/", origin);
    if (req.method !== "POST" || url.pathname !== "/v1/audio/transcriptions") {
      fail(404, `Invalid URL (${req.method} ${url.pathname})`);
      return;
    }
    if (fault === "hang") return;
    if (fault === "500")
      return fail(500, "The server had an error while processing your request. Sorry about that!", "server_error");
    if (fault === "garbage") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"task": "transcribe", "language": "english", "words": [{"word": "Hel');
      return;
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      fail(
        failure,
        failure >= 500
          ? "The server had an error while processing your request. Sorry about that!"
          : `Fake failure ${failure}`,
        failure >= 500 ? "server_error" : "invalid_request_error",
      );
      return;
    }
    if (apiKey !== null && req.headers.authorization !== `Bearer ${apiKey}`) {
      fail(401, "Incorrect API key provided.", "invalid_request_error");
      return;
    }
    if (bodyBytes > maxUploadBytes) {
      fail(413, `Maximum content size limit (${maxUploadBytes}) exceeded (${bodyBytes} bytes read)`, "server_error");
      return;
    }
    const contentType = req.headers["content-type"] ?? "";
    if (!contentType.startsWith("multipart/form-data")) {
      fail(400, "Invalid Content-Type header, expected multipart/form-data");
      return;
    }
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    } catch (error) {
      fail(400, `Could not parse multipart form: ${(error as Error).message}`);
      return;
    }
    let file: File | null = null;
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") {
        const existing = record.params[key];
        record.params[key] = existing === undefined ? value : ([] as string[]).concat(existing, value);
      } else if (key === "file") {
        file = value;
      }
    }
    if (!file) {
      fail(
        400,
        "1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)",
        "invalid_request_error",
        "file",
      );
      return;
    }
    const audio = Buffer.from(await file.arrayBuffer());
    record.audioBytes = audio.length;
    record.filename = file.name;
    if (typeof record.params.model !== "string" || !record.params.model) {
      fail(400, "you must provide a model parameter", "invalid_request_error", "model");
      return;
    }
    // `prompt` is one optional text field (OpenAI: "An optional text to guide the model's style or continue
    // a previous audio segment"), not repeated.
    if (record.params.prompt !== undefined && typeof record.params.prompt !== "string") {
      fail(400, "prompt must be a single string", "invalid_request_error", "prompt");
      return;
    }
    const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
    if (!SUPPORTED.includes(extension)) {
      fail(
        400,
        `Invalid file format. Supported formats: ${JSON.stringify(SUPPORTED)}`,
        "invalid_request_error",
        "file",
      );
      return;
    }
    const format = (record.params.response_format as string | undefined) ?? "json";
    const granularities = ([] as string[]).concat(record.params["timestamp_granularities[]"] ?? []);
    if (granularities.length && format !== "verbose_json") {
      fail(
        400,
        "timestamp_granularities requires response_format=verbose_json",
        "invalid_request_error",
        "timestamp_granularities",
      );
      return;
    }

    const heard = await respond({ audio, filename: file.name, contentType: file.type, params: record.params });
    const text = heard.text ?? heard.words.map((w) => w.word).join(" ");
    const duration = heard.duration ?? heard.words.at(-1)?.end ?? 0;
    let answer: unknown;
    if (format === "verbose_json") {
      const wantWords = granularities.includes("word") && includeWords;
      const wantSegments = granularities.length === 0 || granularities.includes("segment") || !includeWords;
      answer = {
        task: "transcribe",
        language: heard.language ?? "english",
        duration,
        text,
        ...(wantWords ? { words: heard.words.map((w) => ({ word: w.word, start: w.start, end: w.end })) } : {}),
        ...(wantSegments
          ? { segments: heard.segments ?? segmentsOf(heard.words, options.wordsInSegments ?? false) }
          : {}),
      };
    } else if (format === "text") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(text);
      return;
    } else {
      answer = { text };
    }
    const json = JSON.stringify(answer);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
    res.end(json);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    requests,
    respondWith(fn) {
      respond = fn;
    },
    failNext(...statuses) {
      failures.push(...statuses);
    },
    setFault(mode) {
      fault = mode;
    },
    setMaxUploadBytes(bytes) {
      maxUploadBytes = bytes;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
