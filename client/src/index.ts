// @verbatim/client: the Verbatim API with types generated from its /openapi.json (./openapi.ts, by
// openapi-typescript) over openapi-fetch, and the helpers programs need: transcribe() that waits for a job,
// errors that carry the API's `code` (./errors.ts), and verifyWebhook() for the signed events (Standard
// Webhooks, ./webhooks.ts).
import openapiFetch, { type Client } from "openapi-fetch";
import { bearerAuth, type CredentialSource } from "./auth.js";
import { NETWORK_ERROR, toVerbatimError, VerbatimError } from "./errors.js";
import type { components, paths } from "./openapi.js";
import { replaceInSegments, type FindReplaceOptions } from "./find-replace.js";
import type {
  EditSegment,
  Job,
  SignedUpload,
  Transcript,
  TranscriptFormat,
  TranscriptRevisionDiff,
  TranscriptRevisionList,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from "./types.js";
import { verifyWebhook } from "./webhooks.js";

export { bearerAuth, type CredentialSource } from "./auth.js";
export { NETWORK_ERROR, toVerbatimError, VerbatimError } from "./errors.js";
export { replaceInSegments, type FindReplaceOptions } from "./find-replace.js";
export type * from "./types.js";
export { verifyWebhook } from "./webhooks.js";
export type { components, paths };
export { ERROR_CODES, isRetryableCode, type ErrorCode, type ErrorCodeInfo } from "./error-codes.js";
// openapi-fetch's CommonJS build has only `exports.default`: required from dist/index.cjs, the default import is that
// exports object, not the function.
const createClient: typeof openapiFetch =
  typeof openapiFetch === "function"
    ? openapiFetch
    : (openapiFetch as unknown as { default: typeof openapiFetch }).default;

/**
 * The paths whose answer is a file, read as text by `api.GET` (openapi-fetch would parse JSON by default); a
 * podcast feed's transcript.json is JSON.
 */
const FILE_PATHS = new Set<string>([
  "/v1/transcripts/{id}/download",
  "/v1/public/{slug}/download",
  "/v1/public/{slug}/transcript.vtt",
  "/v1/public/{slug}/transcript.srt",
  "/v1/public/{slug}/transcript.html",
]);

/** `fetch` whose failures to get any answer are VerbatimError("network_error"); an abort stays an abort. */
function answeringFetch(inner: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    try {
      return await inner(input, init);
    } catch (error) {
      if (error instanceof VerbatimError || (error instanceof Error && error.name === "AbortError")) throw error;
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
      throw new VerbatimError(NETWORK_ERROR, `The server could not be reached${cause ? `: ${cause}` : ""}.`, null, {
        body: error,
      });
    }
  };
}

export interface VerbatimClientOptions {
  /** Default https://verbatim.example's origin is not assumed: pass the server, e.g. https://api.example.com. */
  baseUrl: string;
  /** An API key (`vbt_…`) or an OAuth access token. */
  apiKey?: string;
  /** A credential that changes (refreshed OAuth tokens); used instead of `apiKey`. */
  credential?: CredentialSource;
  /** Sent with every request (a `user-agent` naming your program, say). */
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
}

export interface TranscribeOptions {
  /** What `url` is: a video or episode page (default), a direct audio URL, or an upload's object_path. */
  source?: "url" | "audio" | "upload";
  lang?: string;
  format?: TranscriptFormat;
  /** Also tell this https URL when the job ends (signed with the account's request secret). */
  webhookUrl?: string;
  /** Wait for a job (default true); false returns the queued job at once. */
  wait?: boolean;
  /** First wait between job polls (default 1 s); grows ×1.5 up to maxPollMs (default 10 s). */
  pollMs?: number;
  maxPollMs?: number;
  /** Give up waiting after this long (default 2 h): VerbatimError("wait_timeout"). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type TranscribeResult = { kind: "transcript"; transcript: Transcript } | { kind: "job"; job: Job };

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export interface VerbatimClient {
  /** Every endpoint, typed from /openapi.json (openapi-fetch): `api.GET("/v1/me")`, ... */
  api: Client<paths>;
  /** POST /v1/transcript; waits for a job (202) unless `wait: false`. Throws VerbatimError. */
  transcribe(url: string, options: TranscribeOptions & { wait: false }): Promise<TranscribeResult>;
  transcribe(url: string, options?: TranscribeOptions): Promise<Transcript>;
  /** Polls GET /v1/jobs/{job_id} with backoff until it is done (its transcript) or error (VerbatimError with the job's code). */
  waitForJob(
    jobId: string,
    options?: Omit<TranscribeOptions, "source" | "lang" | "webhookUrl" | "wait">,
  ): Promise<Transcript>;
  verifyWebhook: typeof verifyWebhook;
  /**
   * Uploads a file (POST /v1/uploads/sign, then PUT to the signed URL) and answers its object_path, to pass as
   * `transcribe(objectPath, {source: "upload"})`.
   */
  upload(file: Blob, options: { filename: string; contentType: string; signal?: AbortSignal }): Promise<SignedUpload>;
  /** A transcript from the history as a file's text (GET /v1/transcripts/{id}/download): SRT, VTT, text, Markdown, JSON. */
  download(transcriptId: string, format?: TranscriptFormat): Promise<string>;
  /**
   * Corrections of a transcript in the history, the caller's own (nobody else sees them; editing is free).
   * `save` sends the whole corrected list, `saveFile` a corrected SRT or VTT file; `findReplace` reads the
   * caller's current version, replaces a word or phrase everywhere and saves it (nothing is saved when
   * nothing matched). `restore` drops every correction.
   */
  edits: {
    save(transcriptId: string, segments: EditSegment[]): Promise<Transcript>;
    saveFile(transcriptId: string, format: "srt" | "vtt", content: string): Promise<Transcript>;
    findReplace(
      transcriptId: string,
      find: string,
      replace: string,
      options?: FindReplaceOptions,
    ): Promise<{ transcript: Transcript; replaced: number }>;
    revisions(transcriptId: string): Promise<TranscriptRevisionList>;
    diff(transcriptId: string, revisionId?: string): Promise<TranscriptRevisionDiff>;
    restore(transcriptId: string): Promise<Transcript>;
  };
  /** Webhook endpoints (/v1/me/webhooks): the secret is in `create`'s answer only. */
  webhooks: {
    list(): Promise<WebhookEndpoint[]>;
    create(url: string, eventTypes: WebhookEventType[]): Promise<WebhookEndpoint>;
    delete(id: string): Promise<void>;
    test(id: string): Promise<WebhookDelivery>;
    deliveries(id: string): Promise<WebhookDelivery[]>;
  };
}

export function createVerbatimClient(options: VerbatimClientOptions): VerbatimClient {
  const fetcher = answeringFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: fetcher,
    headers: { ...options.headers },
  });
  const apiKey = options.apiKey;
  const credential = options.credential ?? (apiKey ? { token: () => apiKey } : null);
  if (credential) api.use(bearerAuth(credential));
  // A download is a file (SRT, VTT, text, Markdown, or JSON as a file): its text, unless the caller asks otherwise.
  const get = api.GET.bind(api);
  api.GET = ((path: string, init?: { parseAs?: string }) =>
    get(path as never, (FILE_PATHS.has(path) ? { parseAs: "text", ...init } : init) as never)) as typeof api.GET;

  async function waitForJob(
    jobId: string,
    opts: Omit<TranscribeOptions, "source" | "lang" | "webhookUrl" | "wait"> = {},
  ): Promise<Transcript> {
    const deadline = Date.now() + (opts.timeoutMs ?? 2 * 3600_000);
    let delay = opts.pollMs ?? 1_000;
    for (;;) {
      const { data, error, response } = await api.GET("/v1/jobs/{job_id}", {
        params: { path: { job_id: jobId }, query: { format: opts.format ?? "json" } },
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      if (data) {
        if (data.status === "done" && data.transcript) return data.transcript;
        if (data.status === "error") {
          throw new VerbatimError(data.error?.code ?? "job_failed", data.error?.message ?? "The job failed.", null, {
            jobId,
            body: data,
          });
        }
      } else if (response.status === 429) {
        delay = Math.max(delay, Number(response.headers.get("retry-after")) * 1000 || delay);
      } else {
        throw toVerbatimError(response.status, error, response.headers);
      }
      if (Date.now() + delay > deadline)
        throw new VerbatimError("wait_timeout", `Job ${jobId} was not finished after the time allowed.`, null, {
          jobId,
        });
      await sleep(delay, opts.signal);
      delay = Math.min(opts.maxPollMs ?? 10_000, Math.round(delay * 1.5));
    }
  }

  async function transcribe(url: string, opts: TranscribeOptions = {}): Promise<Transcript | TranscribeResult> {
    const field = opts.source ?? "url";
    const body = {
      ...(field === "url" ? { url } : field === "audio" ? { audio: url } : { upload: url }),
      ...(opts.lang ? { lang: opts.lang } : {}),
      ...(opts.format ? { format: opts.format } : {}),
      ...(opts.webhookUrl ? { webhook_url: opts.webhookUrl } : {}),
    };
    const { data, error, response } = await api.POST("/v1/transcript", {
      body: body as never,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!data) throw toVerbatimError(response.status, error, response.headers);
    if (response.status === 202) {
      const job = data as Job;
      if (opts.wait === false) return { kind: "job", job };
      return waitForJob(job.job_id, opts);
    }
    const transcript = data as Transcript;
    return opts.wait === false ? { kind: "transcript", transcript } : transcript;
  }

  /** The data of an answer, or its error as a VerbatimError. */
  function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
    if (result.data === undefined) throw toVerbatimError(result.response.status, result.error, result.response.headers);
    return result.data;
  }

  async function upload(file: Blob, opts: { filename: string; contentType: string; signal?: AbortSignal }) {
    const signal = opts.signal ? { signal: opts.signal } : {};
    const signed = ok(
      await api.POST("/v1/uploads/sign", {
        body: { filename: opts.filename, content_type: opts.contentType },
        ...signal,
      }),
    );
    const put = await fetcher(signed.upload_url, {
      method: "PUT",
      headers: { "content-type": opts.contentType },
      body: file,
      ...signal,
    });
    if (!put.ok) throw toVerbatimError(put.status, await put.json().catch(() => null), put.headers);
    return signed;
  }

  async function download(transcriptId: string, format: TranscriptFormat = "srt"): Promise<string> {
    return ok(
      await api.GET("/v1/transcripts/{id}/download", {
        params: { path: { id: transcriptId }, query: { format } },
        parseAs: "text",
      }),
    );
  }

  const patch = async (id: string, body: { segments: EditSegment[] } | { format: "srt" | "vtt"; content: string }) =>
    ok(await api.PATCH("/v1/transcripts/{id}", { params: { path: { id } }, body }));
  const edits: VerbatimClient["edits"] = {
    save: (id, segments) => patch(id, { segments }),
    saveFile: (id, format, content) => patch(id, { format, content }),
    findReplace: async (id, find, replace, opts) => {
      const current = ok(
        await api.GET("/v1/transcripts/{id}", { params: { path: { id }, query: { format: "json" } } }),
      );
      const { segments, replaced } = replaceInSegments(current.segments ?? [], find, replace, opts);
      if (replaced === 0) return { transcript: current, replaced };
      return { transcript: await patch(id, { segments }), replaced };
    },
    revisions: async (id) => ok(await api.GET("/v1/transcripts/{id}/revisions", { params: { path: { id } } })),
    diff: async (id, revisionId = "current") =>
      ok(
        await api.GET("/v1/transcripts/{id}/revisions/{revision_id}/diff", {
          params: { path: { id, revision_id: revisionId } },
        }),
      ),
    restore: async (id) => ok(await api.DELETE("/v1/transcripts/{id}/edits", { params: { path: { id } } })),
  };

  const webhooks: VerbatimClient["webhooks"] = {
    list: async () => ok(await api.GET("/v1/me/webhooks")).endpoints,
    create: async (url, eventTypes) =>
      ok(await api.POST("/v1/me/webhooks", { body: { url, event_types: eventTypes } })),
    delete: async (id) => {
      const { error, response } = await api.DELETE("/v1/me/webhooks/{id}", { params: { path: { id } } });
      if (!response.ok) throw toVerbatimError(response.status, error, response.headers);
    },
    test: async (id) => ok(await api.POST("/v1/me/webhooks/{id}/test", { params: { path: { id } } })),
    deliveries: async (id) =>
      ok(await api.GET("/v1/me/webhooks/{id}/deliveries", { params: { path: { id } } })).deliveries,
  };

  return {
    api,
    transcribe: transcribe as VerbatimClient["transcribe"],
    waitForJob,
    verifyWebhook,
    upload,
    download,
    edits,
    webhooks,
  };
}
