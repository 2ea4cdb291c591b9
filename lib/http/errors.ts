import { NextResponse } from "next/server";
import { log } from "@/lib/observability/logger";
import { allowanceRefusals } from "@/lib/observability/metrics";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";

// The one place errors become HTTP responses. 422 bodies follow FastAPI (see validation.ts);
// everything else is {"detail": "<a sentence a person can act on>", "code": "<machine_code>"}.

// Next.js may bundle this module more than once (one copy per route bundle), and process-wide singletons
// (the rate limiter) throw errors made by whichever copy created them: recognise ApiErrors by a global
// brand rather than by class identity, so `instanceof ApiError` holds across copies.
const API_ERROR = Symbol.for("verbatim.ApiError");

export class ApiError extends Error {
  readonly [API_ERROR] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ApiError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true;
  }

  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

export const errors = {
  unauthorized: (detail = "Missing or invalid credentials. Send 'Authorization: Bearer <API key>'.") =>
    new ApiError(401, "unauthorized", detail, { "WWW-Authenticate": 'Bearer realm="verbatim"' }),
  invalidToken: (detail = "The credential is not valid or has been revoked.") =>
    new ApiError(401, "invalid_token", detail, {
      "WWW-Authenticate": 'Bearer realm="verbatim", error="invalid_token"',
    }),
  allowanceExhausted: (detail: string) => {
    allowanceRefusals.inc();
    return new ApiError(402, "allowance_exhausted", detail);
  },
  forbidden: (detail: string) => new ApiError(403, "forbidden", detail),
  notFound: (detail = "Not found.") => new ApiError(404, "not_found", detail),
  conflict: (code: string, detail: string) => new ApiError(409, code, detail),
  payloadTooLarge: (detail: string) => new ApiError(413, "payload_too_large", detail),
  unsupportedMediaType: (detail: string) => new ApiError(415, "unsupported_media_type", detail),
  rangeNotSatisfiable: (sizeBytes: number) =>
    new ApiError(416, "range_not_satisfiable", `The requested range lies outside the file (${sizeBytes} bytes).`, { "Content-Range": `bytes */${sizeBytes}` }),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, "rate_limited", `Too many requests. Try again in ${retryAfterSeconds} s.`, {
      "Retry-After": String(retryAfterSeconds),
    }),
  notConfigured: (code: string, detail: string) => new ApiError(503, code, detail),
  upstream: (detail: string) => new ApiError(502, "upstream_failed", detail),
  insufficientStorage: () =>
    new ApiError(507, "insufficient_storage", "The server has no room to store this file right now. Try again later.", { "Retry-After": "60" }),
  databaseUnavailable: () =>
    new ApiError(503, "database_unavailable", "The database is not reachable right now. Try again in a few seconds.", { "Retry-After": "5" }),
};

export function errorResponse(error: ApiError): NextResponse {
  // The contract's 422 is always an HTTPValidationError. A 422 raised while acting on the input (a link no
  // platform serves, a malformed feed, an internal address) is one item against the body, its code as `type`.
  if (error.status === 422) {
    return NextResponse.json({ detail: [{ type: error.code, loc: ["body"], msg: error.detail }] }, { status: 422, headers: error.headers });
  }
  return NextResponse.json({ detail: error.detail, code: error.code }, { status: error.status, headers: error.headers });
}

/** Anything unexpected: logged with its stack, answered without it (a database outage: 503, logged in one line). */
export function internalErrorResponse(error: unknown, context: string): NextResponse {
  if (isDatabaseUnavailable(error)) {
    log.warn({ operation: context, reason: error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error) }, "database unavailable");
    return errorResponse(errors.databaseUnavailable());
  }
  log.error({ operation: context, err: error }, "request failed");
  return NextResponse.json(
    { detail: "Something went wrong on our side. Try again; if it keeps happening, contact support.", code: "internal_error" },
    { status: 500 },
  );
}

/**
 * Codes a platform lookup can answer with (lib/captions/types.ts SourceError), each with its status
 * and what a client should do. 503s carry Retry-After when the platform or our cooldown says when.
 */
export const UPSTREAM_ERROR_CODES = {
  video_unavailable: { status: 404, doc: "the video was removed, is private, or the id is wrong" },
  age_restricted: { status: 403, doc: "the platform only shows it to signed-in adults" },
  unsupported_source: { status: 422, doc: "the platform cannot serve this item" },
  video_unplayable: { status: 422, doc: "the platform will not play it; detail carries the platform's own reason" },
  live_not_finished: { status: 409, doc: "a live stream or premiere that has not ended yet; ask again after it ends" },
  upstream_blocked: { status: 503, doc: "the platform refused this server (bot check); retry after Retry-After" },
  upstream_rate_limited: { status: 503, doc: "the platform rate-limited this server; retry after Retry-After" },
  po_token_required: { status: 503, doc: "the platform wants a proof-of-origin token and none is configured (YOUTUBE_POT_PROVIDER_URL)" },
  upstream_failed: { status: 502, doc: "the platform or tool failed or answered unexpectedly" },
} as const;
