import { ERROR_CODES } from "@/lib/http/error-codes";

/**
 * The one error type thrown by the outbound module. `status` is the HTTP status the API should answer
 * with when this error escapes a route handler; `message` is a sentence safe to show the caller
 * (it never contains resolved internal addresses).
 */
export type OutboundErrorCode =
  | "url_not_allowed"
  | "address_not_allowed"
  | "too_many_redirects"
  | "response_too_large"
  | "upstream_timeout"
  | "upstream_failed"
  | "upstream_dns_failed"
  | "upstream_refused"
  | "upstream_tls_failed";

export class OutboundError extends Error {
  override readonly name = "OutboundError";
  readonly code: OutboundErrorCode;
  readonly status: number;
  /** The host the failing request went to (after redirects), when known: for sentences that name it. */
  host?: string;

  constructor(code: OutboundErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code].status;
  }
}

export function isOutboundError(err: unknown): err is OutboundError {
  return err instanceof OutboundError;
}
