import { AsrError } from "@/lib/asr";
import { SourceError } from "@/lib/captions/types";
import { isRetryableCode } from "@/lib/http/error-codes";
import { isOutboundError } from "@/lib/http/outbound";
import { PermanentError, RetryableError } from "@/lib/jobs/pipeline";
import { isMediaError } from "@/lib/media";

/**
 * Source failures a later attempt may get past. A bot check or a 429 passes with time; DNS, a refused
 * connection or a certificate (upstream_dns_failed, …) need the operator, so they fail the job at once.
 */
const RETRIED_SOURCE_CODES = new Set<string>(["upstream_failed", "upstream_blocked", "upstream_rate_limited"]);

/** Media, platform and network failures: permanent when retrying cannot help. */
export function asJobError(error: unknown): unknown {
  if (error instanceof SourceError)
    return RETRIED_SOURCE_CODES.has(error.code)
      ? new RetryableError(error.code, error.message, { cause: error })
      : new PermanentError(error.code, error.message, { cause: error });
  if (isMediaError(error))
    return error.retryable
      ? new RetryableError(error.code, error.message, { cause: error })
      : new PermanentError(error.code, error.message, { cause: error });
  if (error instanceof AsrError)
    return error.retryable
      ? new RetryableError(error.code, error.message, { cause: error })
      : new PermanentError(error.code, error.message, { cause: error });
  if (isOutboundError(error))
    // The closed list says which need the operator or the link (DNS, refused, TLS): those fail the job at once.
    return error.status < 500 || !isRetryableCode(error.code)
      ? new PermanentError(error.code, error.message, { cause: error })
      : new RetryableError(error.code, error.message, { cause: error });
  return error;
}
