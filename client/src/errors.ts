import { isRetryableCode } from "./error-codes.js";

/** The code of a VerbatimError for a request that got no answer (DNS, refused connection, reset): retryable. */
export const NETWORK_ERROR = "network_error";

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
