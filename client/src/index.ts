// @verbatim/client: the Verbatim API with types generated from its /openapi.json (./openapi.ts, by
// openapi-typescript) over openapi-fetch, and the helpers programs need: transcribe() that waits for a job,
// errors that carry the API's `code`, and verifyWebhook() for the signed events (Standard Webhooks).
import openapiFetch, { type Client, type Middleware } from "openapi-fetch";
import { Webhook } from "standardwebhooks";
import { isRetryableCode } from "./error-codes.js";
import type { components, paths } from "./openapi.js";

export type { components, paths };
export { ERROR_CODES, isRetryableCode, type ErrorCode, type ErrorCodeInfo } from "./error-codes.js";
export type Transcript = components["schemas"]["Transcript"];
/** A timed piece of a JSON transcript; `words` where the source timed each word (automatic captions, speech recognition). */
export type Segment = components["schemas"]["Segment"];
/** One word with its own time, in seconds. */
export type Word = components["schemas"]["Word"];
/** A queued job, as `transcribe(url, {wait: false})` and POST /v1/transcript's 202 give it: `{job_id, status}`. */
export type Job = components["schemas"]["Job"];
/** A job as GET /v1/jobs/{job_id} describes it: status, stage, progress, and the transcript when done. */
export type JobStatus = components["schemas"]["JobResponse"];
export type WebhookEndpoint = components["schemas"]["WebhookEndpoint"];
export type WebhookDelivery = components["schemas"]["WebhookDelivery"];
export type SignedUpload = components["schemas"]["SignedUpload"];
/** The events a webhook endpoint can subscribe to. */
export type WebhookEventType =
  paths["/v1/me/webhooks"]["post"]["requestBody"]["content"]["application/json"]["event_types"][number];
export type TranscriptFormat = Transcript["format"];
/** A segment of a correction (PATCH /v1/transcripts/{id}): `{start, end, text}`, optional `words`. */
export type EditSegment = components["schemas"]["EditSegment"];
export type TranscriptRevisionList = components["schemas"]["TranscriptRevisionList"];
export type TranscriptRevisionDiff = components["schemas"]["TranscriptRevisionDiff"];

export interface FindReplaceOptions {
  /** Match case exactly (default: no). */
  caseSensitive?: boolean;
  /** Only whole words (default: yes): "grit" does not touch "gritty". */
  wholeWord?: boolean;
}

/**
 * `segments` with every occurrence of `find` replaced by `replace`, and how many were replaced. Times are left
 * as they are: the server keeps the times of the words that did not change.
 */
export function replaceInSegments<S extends { start: number; end: number; text: string }>(
  segments: readonly S[],
  find: string,
  replace: string,
  options: FindReplaceOptions = {},
): { segments: EditSegment[]; replaced: number } {
  if (find === "") return { segments: segments.map(({ start, end, text }) => ({ start, end, text })), replaced: 0 };
  const escaped = find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(
    options.wholeWord === false ? escaped : `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`,
    options.caseSensitive ? "gu" : "giu",
  );
  let replaced = 0;
  const out = segments.map(({ start, end, text }) => ({
    start,
    end,
    text: text.replace(pattern, () => {
      replaced += 1;
      return replace;
    }),
  }));
  return { segments: out, replaced };
}

/** A failed call or job: `code` is the API's machine code (`not_found`, `allowance_exhausted`, `no_speech`, ...). */
export class VerbatimError extends Error {
  override readonly name = "VerbatimError";
  constructor(
    readonly code: string,
    message: string,
    /** The HTTP status, or null for a job that ended in error and for webhook verification. */
    readonly status: number | null = null,
    readonly details?: { jobId?: string; body?: unknown; retryAfterSeconds?: number },
  ) {
    super(message);
  }

  /** Whether the same request may work later, as the API's error-code table says (unknown codes: no). */
  get retryable(): boolean {
    return this.code === NETWORK_ERROR || isRetryableCode(this.code);
  }
}

// openapi-fetch's CommonJS build has only `exports.default`: required from dist/index.cjs, the default import is that
// exports object, not the function.
const createClient: typeof openapiFetch =
  typeof openapiFetch === "function"
    ? openapiFetch
    : (openapiFetch as unknown as { default: typeof openapiFetch }).default;

/** The paths whose answer is a file, read as text by `api.GET` (openapi-fetch would parse JSON by default). */
const FILE_PATHS = new Set<string>(["/v1/transcripts/{id}/download", "/v1/public/{slug}/download"]);

/** The code of a VerbatimError for a request that got no answer (DNS, refused connection, reset): retryable. */
export const NETWORK_ERROR = "network_error";

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

/**
 * Where the bearer token comes from when it can change while the program runs: an OAuth login whose access
 * token runs out and is refreshed (the `verbatim` CLI's stored login). A fixed key is simply `apiKey`.
 */
export interface CredentialSource {
  /** The token for the next request; null sends none. It may throw to refuse the call (e.g. nobody is logged in). */
  token(): string | null | Promise<string | null>;
  /** After a 401 answer to a request sent with `rejected`: renew the credential; true sends the request once more. */
  refresh?(rejected: string): Promise<boolean>;
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

/**
 * openapi-fetch middleware that sends `Authorization: Bearer` from `credentials` and, when the answer is 401 and the
 * credentials can refresh, renews the credential and sends the request once more.
 */
export function bearerAuth(credentials: CredentialSource): Middleware {
  // Per request id: the token sent, and a copy of the request (its body unread) for the one retry.
  const sent = new Map<string, { token: string; retry: Request | null }>();
  return {
    async onRequest({ request, id }) {
      const token = await credentials.token();
      if (!token) return undefined;
      request.headers.set("authorization", `Bearer ${token}`);
      sent.set(id, { token, retry: credentials.refresh ? request.clone() : null });
      return request;
    },
    async onResponse({ response, id, options }) {
      const attempt = sent.get(id);
      sent.delete(id);
      if (response.status !== 401 || !attempt?.retry || !credentials.refresh) return undefined;
      if (!(await credentials.refresh(attempt.token))) return undefined;
      const token = await credentials.token();
      if (!token) return undefined;
      await response.body?.cancel();
      attempt.retry.headers.set("authorization", `Bearer ${token}`);
      return options.fetch(attempt.retry);
    },
    onError({ id }) {
      sent.delete(id);
      return undefined;
    },
  };
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

/** The events Verbatim sends (payload `{type, timestamp, data}`), from the `webhooks` section of /openapi.json. */
export type WebhookEvent =
  | components["schemas"]["TranscriptEvent"]
  | components["schemas"]["ImportEvent"]
  | components["schemas"]["WebhookTestEvent"];
export type TranscriptEventData = components["schemas"]["TranscriptEvent"]["data"];
export type ImportEventData = components["schemas"]["ImportEvent"]["data"];

/** The API's error body as a VerbatimError: `{detail, code}`, or a 422's `{detail: [{loc, msg}]}`. */
export function toVerbatimError(status: number, body: unknown, headers?: Headers): VerbatimError {
  const retry = Number(headers?.get("retry-after"));
  const details = { body, ...(Number.isFinite(retry) && retry > 0 ? { retryAfterSeconds: retry } : {}) };
  if (body && typeof body === "object" && "detail" in body) {
    const { detail, code } = body as { detail: unknown; code?: unknown };
    if (typeof detail === "string")
      return new VerbatimError(typeof code === "string" ? code : `http_${status}`, detail, status, details);
    if (Array.isArray(detail)) {
      const first = detail[0] as { loc?: unknown[]; msg?: string } | undefined;
      const where = first?.loc?.filter((part) => part !== "body").join(".");
      return new VerbatimError(
        "validation_error",
        `${where ? `${where}: ` : ""}${first?.msg ?? "invalid request"}`,
        status,
        details,
      );
    }
  }
  return new VerbatimError(`http_${status}`, `The server answered ${status}.`, status, details);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * Checks a webhook request's Standard Webhooks signature with `secret` (`whsec_…`; several during a rotation)
 * and returns the event. Pass the raw body: a fetch Request, or `{headers, body}` with the body as received.
 */
export async function verifyWebhook(
  request: Request | { headers: Headers | Record<string, string | string[] | undefined>; body: string },
  secret: string | string[],
): Promise<WebhookEvent> {
  const body = request instanceof Request ? await request.text() : request.body;
  const raw = request.headers;
  const headers: Record<string, string> = {};
  if (typeof (raw as Headers).forEach === "function" && typeof (raw as Headers).get === "function") {
    (raw as Headers).forEach((value, key) => (headers[key.toLowerCase()] = value));
  } else {
    for (const [key, value] of Object.entries(raw as Record<string, string | string[] | undefined>)) {
      if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
  }
  for (const candidate of Array.isArray(secret) ? secret : [secret]) {
    try {
      return new Webhook(candidate).verify(body, headers) as WebhookEvent;
    } catch {
      // next secret
    }
  }
  throw new VerbatimError(
    "invalid_signature",
    "The webhook's signature does not match the secret (or its timestamp is too old).",
  );
}

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
