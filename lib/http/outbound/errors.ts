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
  | "upstream_failed";

const STATUS: Record<OutboundErrorCode, number> = {
  // The caller's URL (or where it leads) is not something we will fetch: their input is the problem.
  url_not_allowed: 422,
  address_not_allowed: 422,
  // The file behind the caller's URL exceeds our limit: retrying will not help, so not a 5xx.
  response_too_large: 422,
  // The upstream misbehaved.
  too_many_redirects: 502,
  upstream_failed: 502,
  upstream_timeout: 504,
};

export class OutboundError extends Error {
  override readonly name = "OutboundError";
  readonly code: OutboundErrorCode;
  readonly status: number;

  constructor(code: OutboundErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = STATUS[code];
  }
}

export function isOutboundError(err: unknown): err is OutboundError {
  return err instanceof OutboundError;
}
