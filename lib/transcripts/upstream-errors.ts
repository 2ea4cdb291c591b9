import { SourceError } from "@/lib/captions/types";
import { isOutboundError } from "@/lib/http/outbound";
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
