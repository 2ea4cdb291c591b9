// The SDK's services with every HTTP call sent through guardedFetch (assemblyai.ts).
import { FileService, TranscriptService, type BaseServiceParams } from "assemblyai";

import { AsrError, httpAsrError, throwIfAborted, unreachableAsrError } from "./types";

/**
 * Every SDK request goes through here: abortable, bounded in time (a server that never answers is a
 * retryable failure, not a job stuck for ever), and HTTP errors become AsrErrors that keep the status.
 */
async function guardedFetch(
  call: (init: RequestInit | undefined) => Promise<Response>,
  init: RequestInit | undefined,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<Response> {
  throwIfAborted(signal);
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await call({ ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throwIfAborted(signal);
    throw unreachableAsrError(
      "AssemblyAI",
      "ASSEMBLYAI_BASE_URL and the server's network",
      error,
      timeout.aborted ? timeoutMs : undefined,
    );
  }
  if (response.status >= 400) {
    const text = await response.text().catch(() => "");
    let detail = text.trim().slice(0, 300) || response.statusText;
    try {
      const json = JSON.parse(text) as { error?: unknown };
      if (typeof json.error === "string" && json.error) detail = json.error;
    } catch {
      // not JSON
    }
    throw httpAsrError("AssemblyAI", response.status, detail, "ASSEMBLYAI_API_KEY");
  }
  if (!(response.headers.get("content-type") ?? "").includes("json")) return response;
  // The SDK parses JSON answers itself; a broken one (a proxy's error page, a cut body) is a retryable
  // failure with a sentence, not a SyntaxError.
  const text = await response.text().catch((error: unknown) => {
    throw new AsrError("asr_failed", `AssemblyAI's answer was cut off: ${(error as Error).message}`, {
      retryable: true,
      cause: error,
    });
  });
  try {
    JSON.parse(text);
  } catch {
    throw new AsrError("asr_failed", `AssemblyAI answered ${response.status} with something that is not JSON`, {
      retryable: true,
    });
  }
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

// The SDK's own services, with their one request method wrapped (see guardedFetch). The SDK's errors are
// plain Errors without the HTTP status, which is needed to tell a bad key (rejected) from an outage.
export class GuardedFileService extends FileService {
  constructor(
    params: BaseServiceParams,
    private readonly abortSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    super(params);
  }
  protected override fetchResponse(input: string, init?: RequestInit): Promise<Response> {
    return guardedFetch((i) => super.fetchResponse(input, i), init, this.abortSignal, this.timeoutMs);
  }
}

/** One page of GET /v2/transcript as AssemblyAI sends it: `created` is UTC without a zone ("2023-11-02T21:49:25.586965"). */
interface RawTranscriptList {
  transcripts: Array<{ id: string; audio_url: string; created: string }>;
}

export class GuardedTranscriptService extends TranscriptService {
  constructor(
    params: BaseServiceParams,
    files: FileService,
    private readonly abortSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    super(params, files);
  }
  protected override fetchResponse(input: string, init?: RequestInit): Promise<Response> {
    return guardedFetch((i) => super.fetchResponse(input, i), init, this.abortSignal, this.timeoutMs);
  }
  /**
   * The SDK's list() turns `created` into a Date read in the server's local time zone, which is wrong by
   * the zone's offset unless the server runs on UTC; this keeps the text, for createdAt() to read as UTC.
   */
  listPage(params: { limit: number; before_id?: string }): Promise<RawTranscriptList> {
    const query = new URLSearchParams({
      limit: String(params.limit),
      ...(params.before_id ? { before_id: params.before_id } : {}),
    });
    return this.fetchJson<RawTranscriptList>(`/v2/transcript?${query}`);
  }
}

/** AssemblyAI's `created` in ms since the epoch: UTC when it names no zone. NaN when unreadable. */
export function createdAt(created: string): number {
  return Date.parse(/(Z|[+-]\d\d:?\d\d)$/i.test(created) ? created : `${created}Z`);
}
