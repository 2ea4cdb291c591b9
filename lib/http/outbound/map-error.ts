// Failures as the caller is told them: every error a hop, an attempt or a body can meet becomes an
// OutboundError with a code from the closed list (retryable ones marked for the retry loop), or the caller's
// own abort reason.
import { retryableError } from "./connect";
import { type CallContext, timeoutError } from "./deadline";
import { OutboundError } from "./errors";

const RETRYABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  // undici: the socket closed or failed under a request (e.g. a pooled connection the server had dropped)
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

// What the person is told for the network failures that retrying will not fix, with what does fix them.
export const DNS_FAILED =
  "The host's name could not be resolved (DNS). Check the link; if every site fails, this server has no working DNS or no route to the internet, which its operator has to fix.";
export const REFUSED =
  "The connection was refused: nothing answers at that address, or the proxy this server sends requests through (OUTBOUND_PROXY) is down.";
export const TLS_FAILED =
  "A secure connection could not be made: the certificate was not accepted. If this server reaches the internet through an intercepting proxy, its operator must trust that proxy's CA (NODE_EXTRA_CA_CERTS).";

export function errCode(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : "";
}

export function mapError(err: unknown, ctx: CallContext): unknown {
  if (err instanceof OutboundError) return err;
  if (ctx.userSignal?.aborted) return ctx.userSignal.reason;
  if (ctx.timedOut) return timeoutError();
  const code = errCode(err);
  if (code === "ENOTFOUND" || code === "EAI_NONAME" || code === "EAI_NODATA") {
    return new OutboundError("upstream_dns_failed", DNS_FAILED, { cause: err });
  }
  if (code === "EAI_AGAIN") {
    // "Try again" from the resolver: retried, then said as what it is (no DNS answer) when retries run out.
    return retryableError(new OutboundError("upstream_dns_failed", DNS_FAILED, { cause: err }));
  }
  if (code === "ECONNREFUSED") {
    // Retried like any connection failure; the code says what it was when the retries run out.
    return retryableError(new OutboundError("upstream_refused", REFUSED, { cause: err }));
  }
  if (code === "UND_ERR_HEADERS_TIMEOUT") {
    return retryableError(
      new OutboundError("upstream_timeout", "The upstream server stopped responding.", { cause: err }),
    );
  }
  if (code === "UND_ERR_BODY_TIMEOUT") {
    return new OutboundError("upstream_timeout", "The upstream server stopped sending data.", { cause: err });
  }
  if (RETRYABLE_CODES.has(code)) {
    return retryableError(
      new OutboundError("upstream_failed", "The upstream server could not be reached.", { cause: err }),
    );
  }
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_INVALID_CERT)/.test(code)) {
    return new OutboundError("upstream_tls_failed", TLS_FAILED, { cause: err });
  }
  if (code === "UND_ERR_INVALID_ARG" || code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
    return new OutboundError("upstream_failed", "The request could not be sent.", { cause: err });
  }
  return new OutboundError("upstream_failed", "The request to the upstream server failed.", { cause: err });
}

export function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError(
    "response_too_large",
    `The file at that URL is larger than the ${formatBytes(maxBytes)} limit.`,
  );
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KiB`;
  return `${n} bytes`;
}
