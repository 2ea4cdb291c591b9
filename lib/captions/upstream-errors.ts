import { SourceError, type SourceErrorCode } from "@/lib/captions/types";
import { ERROR_CODES } from "@/lib/http/error-codes";
import { isOutboundError, type OutboundErrorCode } from "@/lib/http/outbound";

import { ApiError } from "@/lib/http/errors";

/** Failures of platforms and of the outbound guard, as API errors with their own status and code. */
export function asApiError(error: unknown): unknown {
  if (error instanceof SourceError) {
    const headers: Record<string, string> =
      error.retryAfterSeconds !== undefined
        ? { "Retry-After": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) }
        : {};
    return withCause(new ApiError(error.code, error.message, headers), error);
  }
  if (isOutboundError(error)) return withCause(new ApiError(error.code, error.message), error);
  return error;
}

/** Keeps what failed underneath, for the operator's log line (lib/observability/failure-cause.ts). */
function withCause(api: ApiError, cause: unknown): ApiError {
  api.cause = cause;
  return api;
}

export async function mapUpstreamErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asApiError(error);
  }
}

/** Every code a platform (SourceError) or the outbound guard (OutboundError) can fail with. */
const UPSTREAM_CODES = {
  video_unavailable: true,
  age_restricted: true,
  unsupported_source: true,
  upstream_failed: true,
  upstream_dns_failed: true,
  upstream_refused: true,
  upstream_tls_failed: true,
  upstream_blocked: true,
  upstream_rate_limited: true,
  po_token_required: true,
  live_not_finished: true,
  video_unplayable: true,
  url_not_allowed: true,
  address_not_allowed: true,
  too_many_redirects: true,
  response_too_large: true,
  upstream_timeout: true,
} satisfies Record<SourceErrorCode | OutboundErrorCode, true>;

/**
 * The statuses an endpoint that asks a platform can answer through mapUpstreamErrors, each with its codes,
 * for its `errors` (the OpenAPI document lists them): a status it can send is never missing from it.
 */
export function upstreamErrorStatuses(): Record<number, string> {
  const byStatus = new Map<number, (keyof typeof UPSTREAM_CODES)[]>();
  for (const code of Object.keys(UPSTREAM_CODES) as (keyof typeof UPSTREAM_CODES)[]) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      status,
      codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].meaning}`).join("; "),
    ]),
  );
}
