/**
 * Fake AssemblyAI async API (https://www.assemblyai.com/docs/api-reference) for the ASR tests: node:http on
 * 127.0.0.1, port 0. The real `assemblyai` SDK talks to it through its `baseUrl`.
 *
 *   POST /v2/upload              raw bytes → {upload_url}
 *   POST /v2/transcript          JSON params → the transcript, status "queued"
 *   GET  /v2/transcript          the list, newest first (limit, before_id, after_id, status), as AssemblyAI pages it
 *   GET  /v2/transcript/:id      each request moves it on: queued → processing → completed | error
 *   DELETE /v2/transcript/:id    deletes it
 *
 * Every request must carry `authorization: <apiKey>` (401 {"error": …} otherwise, as AssemblyAI answers).
 * Errors are {"error": "<message>"}. Word times are milliseconds. What a transcript contains is set per
 * test with `server.respondWith(fn)` (or the `transcript` option); `server.requests` records everything.
 * When the submit named a webhook_url, completing the transcript POSTs {transcript_id, status} there.
 *
 *   const fake = await startFakeAssemblyAi({ apiKey: "k" });
 *   fake.respondWith(() => ({ words: [{ text: "Hi.", start: 0, end: 400 }] }));
 *   ... createAssemblyAiProvider({ apiKey: "k", baseUrl: fake.origin }) ...
 *   await fake.close();
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeWord {
  text: string;
  /** Milliseconds. */
  start: number;
  /** Milliseconds. */
  end: number;
  confidence?: number;
  speaker?: string | null;
}

/** What one transcript turns out as. */
export interface FakeTranscriptSpec {
  words?: FakeWord[];
  /** Default: the words joined with spaces. */
  text?: string;
  /** Seconds. Default: the last word's end, rounded up. */
  audioDuration?: number;
  /** Default: the submitted language_code, or "en_us" after language detection. */
  languageCode?: string;
  /** Makes the transcript end in status "error" with this message. */
  error?: string;
  /** GET requests answered "queued" (default 1), then "processing" (default 1), before the end status. */
  queuedPolls?: number;
  processingPolls?: number;
  /** Do not move on when polled: only complete() ends it (for webhook tests). */
  manual?: boolean;
}

export interface SubmittedTranscript {
  id: string;
  params: Record<string, unknown>;
  /** Bytes of the upload its audio_url points at, null when it is not an upload of this server. */
  uploadBytes: number | null;
  /** That upload's body (the audio AssemblyAI would transcribe and bill), null likewise. */
  uploadAudio: Buffer | null;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** Body length in bytes. */
  bytes: number;
  /** Parsed JSON body, when it was JSON. */
  json?: unknown;
  /** Date.now() when the request ended. */
  at: number;
}

export interface FakeFailure {
  status: number;
  method?: string;
  /** Path prefix, e.g. "/v2/transcript". */
  path?: string;
  error?: string;
}

/**
 * A standing fault for the fault suite, until cleared: every request (to `path`, a prefix, and `method`, when given) is
 * answered 500, never answered ("hang"), answered 200 with a body that is not the API's JSON ("garbage"), or
 * carried out but never answered ("lost-answer": the provider acted, the caller cannot know).
 */
export interface FakeFault {
  mode: "500" | "hang" | "garbage" | "lost-answer";
  /** Only the next this many matching requests; then the fault clears itself. Default: until cleared. */
  count?: number;
  path?: string;
  method?: string;
}

export interface FakeAssemblyAiOptions {
  /** Required `authorization` header value. Default "test-assemblyai-key". */
  apiKey?: string;
  transcript?: FakeTranscriptSpec;
}

export interface FakeAssemblyAi {
  /** http://127.0.0.1:<port> */
  origin: string;
  apiKey: string;
  requests: RecordedRequest[];
  /** Byte length of every upload, in order. */
  uploads: number[];
  /** Transcripts submitted, in order. */
  submitted: SubmittedTranscript[];
  /** Decides each new transcript's content (called at submit). */
  respondWith(fn: (submitted: SubmittedTranscript) => FakeTranscriptSpec): void;
  /** Called after each submit (e.g. to complete it by webhook). */
  onSubmit(fn: ((submitted: SubmittedTranscript) => void) | null): void;
  /** Moves a transcript to its end status now and fires its webhook, if any. Resolves after the webhook's answer. */
  complete(id: string): Promise<{ webhookStatus: number | null }>;
  /**
   * Error answers for the next requests (e.g. 500, 503), consumed one per request; an object only for
   * the next request to that method and path prefix, with the given message.
   */
  failNext(...failures: Array<number | FakeFailure>): void;
  /** Sets (or with null clears) a standing fault; see FakeFault. */
  setFault(fault: FakeFault | null): void;
  close(): Promise<void>;
}

/** AssemblyAI's `language_code` values (assemblyai SDK 4.41.5, TranscriptLanguageCode). */
const LANGUAGE_CODES = new Set(
  (
    "en en_au en_uk en_us es fr de de_ch it pt nl af sq am ar hy as az ba eu be bn bs br bg my ca zh hr cs da et fo fi " +
    "gl ka el gu ht ha haw he hi hu is id ja jw kn kk km ko lo la lv ln lt lb mk mg ms ml mt mi mr mn ne no nn oc pa ps " +
    "fa pl ro ru sa sr sn sd si sk sl so su sw sv tl tg ta tt te th bo tr tk uk ur uz vi cy yi yo"
  ).split(" "),
);

interface Stored {
  id: string;
  params: Record<string, unknown>;
  spec: FakeTranscriptSpec;
  polls: number;
  status: "queued" | "processing" | "completed" | "error";
  created: string;
  completed: string | null;
}

/** AssemblyAI's timestamps: UTC with microseconds and no zone, e.g. "2023-11-02T21:49:25.586965". */
const timestamp = () => new Date().toISOString().replace("Z", "000");

const DEFAULT_WORDS: FakeWord[] = [
  { text: "Hello", start: 240, end: 560, confidence: 0.98, speaker: null },
  { text: "world.", start: 600, end: 1010, confidence: 0.97, speaker: null },
];

export async function startFakeAssemblyAi(options: FakeAssemblyAiOptions = {}): Promise<FakeAssemblyAi> {
  const apiKey = options.apiKey ?? "test-assemblyai-key";
  const requests: RecordedRequest[] = [];
  const uploads: number[] = [];
  const uploadSizes = new Map<string, number>();
  const uploadBodies = new Map<string, Buffer>();
  const submitted: SubmittedTranscript[] = [];
  const transcripts = new Map<string, Stored>();
  const failures: FakeFailure[] = [];
  let decide: (s: SubmittedTranscript) => FakeTranscriptSpec = () => options.transcript ?? {};
  let submitHook: ((s: SubmittedTranscript) => void) | null = null;
  let fault: FakeFault | null = null;
  let origin = "";

  function transcriptJson(t: Stored): Record<string, unknown> {
    const p = t.params;
    const done = t.status === "completed";
    const words = done ? (t.spec.words ?? DEFAULT_WORDS) : null;
    const languageCode =
      t.spec.languageCode ??
      (typeof p.language_code === "string" ? p.language_code : p.language_detection ? "en_us" : "en_us");
    const lastEnd = words?.length ? Math.max(...words.map((w) => w.end)) : 0;
    return {
      id: t.id,
      status: t.status,
      audio_url: p.audio_url,
      created: t.created,
      language_code: languageCode,
      language_detection: p.language_detection ?? false,
      language_confidence: done && p.language_detection ? 0.97 : null,
      language_confidence_threshold: null,
      language_codes: null,
      language_model: "assemblyai_default",
      acoustic_model: "assemblyai_default",
      speech_model: null,
      speech_models: p.speech_models ?? null,
      speech_model_used: done ? "universal-3-pro" : null,
      punctuate: p.punctuate ?? true,
      format_text: p.format_text ?? true,
      text: done ? (t.spec.text ?? words!.map((w) => w.text).join(" ")) : null,
      words:
        words?.map((w) => ({
          text: w.text,
          start: w.start,
          end: w.end,
          confidence: w.confidence ?? 0.95,
          speaker: w.speaker ?? null,
        })) ?? null,
      utterances: null,
      confidence: done ? 0.95 : null,
      audio_duration: done ? (t.spec.audioDuration ?? Math.ceil(lastEnd / 1000)) : null,
      webhook_url: p.webhook_url ?? null,
      webhook_status_code: null,
      webhook_auth: Boolean(p.webhook_auth_header_name),
      webhook_auth_header_name: p.webhook_auth_header_name ?? null,
      auto_highlights: false,
      redact_pii: false,
      summarization: false,
      speaker_labels: p.speaker_labels ?? false,
      ...(t.status === "error" ? { error: t.spec.error } : {}),
    };
  }

  async function finish(t: Stored): Promise<number | null> {
    if (t.status === "completed" || t.status === "error") return null;
    t.status = t.spec.error !== undefined ? "error" : "completed";
    t.completed = timestamp();
    const url = t.params.webhook_url;
    if (typeof url !== "string") return null;
    const headers: Record<string, string> = { "content-type": "application/json" };
    const name = t.params.webhook_auth_header_name;
    const value = t.params.webhook_auth_header_value;
    if (typeof name === "string" && typeof value === "string") headers[name] = value;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ transcript_id: t.id, status: t.status }),
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return null;
    }
  }

  // Answers of requests under a "lost-answer" fault: carried out, never sent.
  const unanswered = new WeakSet<http.ServerResponse>();
  function send(res: http.ServerResponse, status: number, body: unknown): void {
    if (unanswered.has(res)) return;
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", origin);
      const contentType = req.headers["content-type"];
      let json: unknown;
      if (contentType?.includes("application/json") && body.length) {
        try {
          json = JSON.parse(body.toString("utf8"));
        } catch {
          json = undefined;
        }
      }
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        authorization: req.headers.authorization,
        contentType,
        bytes: body.length,
        ...(json === undefined ? {} : { json }),
        at: Date.now(),
      });

      const faulted =
        fault && (!fault.path || url.pathname.startsWith(fault.path)) && (!fault.method || fault.method === req.method)
          ? fault.mode
          : null;
      if (faulted && fault?.count !== undefined && --fault.count <= 0) fault = null;
      if (faulted === "hang") return;
      if (faulted === "lost-answer") unanswered.add(res);
      else if (faulted) {
        if (faulted === "500") return send(res, 500, { error: "Internal server error" });
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id": "5551722-f677-48a6-a58c-b1b4d3c1a72", "status": "compl\u0000<html><body>502 Bad Gateway');
        return;
      }
      const failureAt = failures.findIndex(
        (f) => (!f.method || f.method === req.method) && (!f.path || url.pathname.startsWith(f.path)),
      );
      if (failureAt >= 0) {
        const [failure] = failures.splice(failureAt, 1);
        send(res, failure.status, {
          error: failure.error ?? (failure.status >= 500 ? "Internal server error" : `Fake failure ${failure.status}`),
        });
        return;
      }
      if (req.headers.authorization !== apiKey) {
        send(res, 401, { error: "Authentication error, API token missing/invalid" });
        return;
      }

      if (req.method === "POST" && url.pathname === "/v2/upload") {
        if (body.length === 0) {
          send(res, 400, { error: "Upload body is empty" });
          return;
        }
        const id = randomUUID();
        uploadSizes.set(id, body.length);
        uploadBodies.set(id, body);
        uploads.push(body.length);
        send(res, 200, { upload_url: `${origin}/upload/${id}` });
        return;
      }

      if (req.method === "POST" && url.pathname === "/v2/transcript") {
        if (!json || typeof json !== "object") {
          send(res, 400, { error: "Invalid JSON body" });
          return;
        }
        const params = json as Record<string, unknown>;
        if (typeof params.audio_url !== "string" || !params.audio_url) {
          send(res, 400, { error: "audio_url is required" });
          return;
        }
        if (
          params.language_code !== undefined &&
          params.language_code !== null &&
          !LANGUAGE_CODES.has(String(params.language_code))
        ) {
          send(res, 400, { error: `Invalid language_code: ${String(params.language_code)}` });
          return;
        }
        // keyterms_prompt as AssemblyAI documents it (docs: keyterms prompting): a list of up to 1,000
        // words or phrases, each at most 6 words.
        if (params.keyterms_prompt !== undefined) {
          const terms = params.keyterms_prompt;
          if (
            !Array.isArray(terms) ||
            terms.length > 1000 ||
            terms.some((t) => typeof t !== "string" || !t.trim() || t.trim().split(/\s+/).length > 6)
          ) {
            send(res, 400, { error: "keyterms_prompt must be a list of up to 1000 phrases of at most 6 words" });
            return;
          }
        }
        const uploadId = params.audio_url.startsWith(`${origin}/upload/`)
          ? params.audio_url.slice(`${origin}/upload/`.length)
          : null;
        const entry: SubmittedTranscript = {
          id: randomUUID(),
          params,
          uploadBytes: uploadId ? (uploadSizes.get(uploadId) ?? null) : null,
          uploadAudio: uploadId ? (uploadBodies.get(uploadId) ?? null) : null,
        };
        let spec = decide(entry);
        if (entry.uploadBytes === null && spec.error === undefined) {
          spec = { ...spec, error: `Download error, unable to download ${params.audio_url}` };
        }
        const stored: Stored = {
          id: entry.id,
          params,
          spec,
          polls: 0,
          status: "queued",
          created: timestamp(),
          completed: null,
        };
        transcripts.set(entry.id, stored);
        submitted.push(entry);
        send(res, 200, transcriptJson(stored));
        submitHook?.(entry);
        return;
      }

      if (req.method === "GET" && url.pathname === "/v2/transcript") {
        const limit = Number(url.searchParams.get("limit") ?? "10");
        if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
          send(res, 400, { error: "limit must be an integer between 1 and 200" });
          return;
        }
        let list = [...transcripts.values()].reverse(); // newest first
        const beforeId = url.searchParams.get("before_id");
        const afterId = url.searchParams.get("after_id");
        const status = url.searchParams.get("status");
        if (beforeId) list = list.slice(list.findIndex((t) => t.id === beforeId) + 1 || list.length);
        if (afterId)
          list = list.slice(
            0,
            Math.max(
              0,
              list.findIndex((t) => t.id === afterId),
            ),
          );
        if (status) list = list.filter((t) => t.status === status);
        const page = list.slice(0, limit);
        const pageUrl = (extra: string) => `${origin}/v2/transcript?limit=${limit}${extra}`;
        send(res, 200, {
          page_details: {
            limit,
            result_count: page.length,
            current_url: `${origin}${req.url}`,
            prev_url: page.length ? pageUrl(`&before_id=${page.at(-1)!.id}`) : null,
            next_url: page.length ? pageUrl(`&after_id=${page[0]!.id}`) : null,
          },
          transcripts: page.map((t) => ({
            id: t.id,
            resource_url: `${origin}/v2/transcript/${t.id}`,
            status: t.status,
            created: t.created,
            completed: t.completed,
            audio_url: t.params.audio_url,
            error: t.status === "error" ? (t.spec.error ?? null) : null,
          })),
        });
        return;
      }

      const match = /^\/v2\/transcript\/([^/]+)$/.exec(url.pathname);
      if (match) {
        const t = transcripts.get(match[1]);
        if (!t) {
          send(res, 404, { error: "Transcript not found" });
          return;
        }
        if (req.method === "DELETE") {
          transcripts.delete(t.id);
          send(res, 200, { ...transcriptJson(t), text: "", words: [], audio_url: "http://deleted_by_user" });
          return;
        }
        if (req.method === "GET") {
          if (!t.spec.manual && t.status !== "completed" && t.status !== "error") {
            t.polls++;
            const queued = t.spec.queuedPolls ?? 1;
            const processing = t.spec.processingPolls ?? 1;
            if (t.polls <= queued) t.status = "queued";
            else if (t.polls <= queued + processing) t.status = "processing";
            else {
              void finish(t);
            }
          }
          send(res, 200, transcriptJson(t));
          return;
        }
      }
      send(res, 404, { error: "Not found" });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    apiKey,
    requests,
    uploads,
    submitted,
    respondWith(fn) {
      decide = fn;
    },
    onSubmit(fn) {
      submitHook = fn;
    },
    async complete(id) {
      const t = transcripts.get(id);
      if (!t) throw new Error(`no transcript ${id}`);
      return { webhookStatus: await finish(t) };
    },
    failNext(...items) {
      failures.push(...items.map((f) => (typeof f === "number" ? { status: f } : f)));
    },
    setFault(next) {
      fault = next && { ...next };
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
