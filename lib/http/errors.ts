import { NextResponse } from "next/server";
import { log } from "@/lib/observability/logger";
import { allowanceRefusals } from "@/lib/observability/metrics";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { ERROR_CODES, type ErrorCode } from "@/lib/http/error-codes";

// The one place errors become HTTP responses. 422 bodies follow FastAPI (see validation.ts);
// everything else is {"detail": "<a sentence a person can act on>", "code": "<machine_code>"}.

// Next.js may bundle this module more than once (one copy per route bundle), and process-wide singletons
// (the rate limiter) throw errors made by whichever copy created them: recognise ApiErrors by a global
// brand rather than by class identity, so `instanceof ApiError` holds across copies.
const API_ERROR = Symbol.for("verbatim.ApiError");

export class ApiError extends Error {
  readonly [API_ERROR] = true;
  readonly status: number;

  static [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ApiError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true;
  }

  /** `detail` defaults to the code's meaning; the status is the code's (lib/http/error-codes.ts). */
  constructor(
    readonly code: ErrorCode,
    readonly detail: string = sentence(ERROR_CODES[code].meaning),
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = ERROR_CODES[code].status;
  }
}

function sentence(meaning: string): string {
  return `${meaning.charAt(0).toUpperCase()}${meaning.slice(1)}.`;
}

type CodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]["status"] extends S ? C : never;
}[ErrorCode];

export const errors = {
  unauthorized: (detail = "Missing or invalid credentials. Send 'Authorization: Bearer <API key>'.") =>
    new ApiError("unauthorized", detail, { "WWW-Authenticate": 'Bearer realm="verbatim"' }),
  invalidToken: (detail = "The credential is not valid or has been revoked.") =>
    new ApiError("invalid_token", detail, {
      "WWW-Authenticate": 'Bearer realm="verbatim", error="invalid_token"',
    }),
  allowanceExhausted: (detail: string) => {
    allowanceRefusals.inc();
    return new ApiError("allowance_exhausted", detail);
  },
  forbidden: (detail: string) => new ApiError("forbidden", detail),
  notFound: (detail = "Not found.") => new ApiError("not_found", detail),
  conflict: (code: CodeWithStatus<409>, detail: string) => new ApiError(code, detail),
  payloadTooLarge: (detail: string) => new ApiError("payload_too_large", detail),
  unsupportedMediaType: (detail: string) => new ApiError("unsupported_media_type", detail),
  rangeNotSatisfiable: (sizeBytes: number) =>
    new ApiError("range_not_satisfiable", `The requested range lies outside the file (${sizeBytes} bytes).`, {
      "Content-Range": `bytes */${sizeBytes}`,
    }),
  rateLimited: (retryAfterSeconds: number, headers: Record<string, string> = {}) =>
    new ApiError("rate_limited", `Too many requests. Try again in ${retryAfterSeconds} s.`, {
      ...headers,
      "Retry-After": String(retryAfterSeconds),
    }),
  notConfigured: (code: CodeWithStatus<503>, detail: string) => new ApiError(code, detail),
  upstream: (detail: string) => new ApiError("upstream_failed", detail),
  insufficientStorage: () =>
    new ApiError("insufficient_storage", "The server has no room to store this file right now. Try again later.", {
      "Retry-After": "60",
    }),
  databaseUnavailable: () =>
    new ApiError("database_unavailable", "The database cannot answer right now. Try again in a few seconds.", {
      "Retry-After": "5",
    }),
};

export function errorResponse(error: ApiError): NextResponse {
  // The contract's 422 is always an HTTPValidationError. A 422 raised while acting on the input (a link no
  // platform serves, a malformed feed, an internal address) is one item against the body, its code as `type`.
  if (error.status === 422) {
    return NextResponse.json(
      { detail: [{ type: error.code, loc: ["body"], msg: error.detail }] },
      { status: 422, headers: error.headers },
    );
  }
  return NextResponse.json(
    { detail: error.detail, code: error.code },
    { status: error.status, headers: error.headers },
  );
}

/** Anything unexpected: logged with its stack, answered without it (a database outage: 503, logged in one line). */
/** Node's error for a request whose client went away mid-body ("aborted"), also as the cause of a stream's error. */
function isClientAbort(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    const code = (at as NodeJS.ErrnoException).code;
    if ((code === "ECONNRESET" && at.message === "aborted") || code === "ERR_STREAM_PREMATURE_CLOSE") return true;
  }
  return false;
}

/**
 * The failure as the client's doing, or null: an ApiError under 500 (a body that ended early, or any other refusal
 * that reached a catch-all), or a request body cut off by the client's connection (400 body_interrupted).
 */
export function clientFault(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error.status < 500 ? error : null;
  if (isClientAbort(error))
    return new ApiError("body_interrupted", "The request body ended early. Send the request again.");
  return null;
}

/** A client's mistake in the log: one warn line with its code, no stack (nothing on our side to look into). */
export function logClientFault(fault: ApiError, context: string): void {
  log.warn({ operation: context, code: fault.code, status: fault.status }, `request refused: ${fault.detail}`);
}

export function internalErrorResponse(error: unknown, context: string): NextResponse {
  const fault = clientFault(error);
  if (fault) {
    logClientFault(fault, context);
    return errorResponse(fault);
  }
  if (isDatabaseUnavailable(error)) {
    log.warn(
      {
        operation: context,
        reason: error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error),
      },
      "database unavailable",
    );
    return errorResponse(errors.databaseUnavailable());
  }
  log.error({ operation: context, err: error }, "request failed");
  return NextResponse.json(
    {
      detail: "Something went wrong on our side. Try again; if it keeps happening, contact support.",
      code: "internal_error" satisfies ErrorCode,
    },
    { status: 500 },
  );
}
