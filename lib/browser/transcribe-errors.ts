// What the Transcribe page says when a request fails: whose fault it is and what to try. The API's own
// sentence (`detail`) is kept where it speaks to the person asking; where it speaks to an operator or
// would blame the link for the server's trouble, the page says it in the user's terms.

import { ApiRequestError } from "@/lib/browser/api";
import { ERROR_CODES, isErrorCode, isRetryableCode } from "@/lib/http/error-codes";

export interface ShownError {
  message: string;
  /** The API's own sentence, shown smaller when `message` is the page's paraphrase. */
  detail: string | null;
  /** Asking again may work (the platform or the network, not the request). */
  retry: boolean;
}

/** The platform (or the way to it) failed this server, not the link: a retryable gateway error (502, 503, 504). */
function isUpstreamCode(code: string | null | undefined): boolean {
  return (
    isErrorCode(code) &&
    isRetryableCode(code) &&
    [502, 503, 504].includes(ERROR_CODES[code].status) &&
    code !== "database_unavailable"
  );
}

const PLATFORM_HOSTS: readonly [RegExp, string][] = [
  [/(^|\.)(youtube\.com|youtu\.be|youtube-nocookie\.com)$/, "YouTube"],
  [/(^|\.)(x\.com|twitter\.com)$/, "X"],
  [/(^|\.)tiktok\.com$/, "TikTok"],
  [/(^|\.)(facebook\.com|fb\.watch)$/, "Facebook"],
  [/(^|\.)instagram\.com$/, "Instagram"],
  [/(^|\.)(xiaohongshu\.com|xhslink\.com)$/, "RedNote"],
  [/(^|\.)vimeo\.com$/, "Vimeo"],
];

/** "YouTube" for a YouTube link, …; null for any other address (a podcast host, a file's server). */
export function platformOfLink(url: string | null): string | null {
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url ?? "") ? url! : `https://${url}`).hostname.toLowerCase();
  } catch {
    return null;
  }
  return PLATFORM_HOSTS.find(([pattern]) => pattern.test(host))?.[1] ?? null;
}

function hostOf(url: string | null): string | null {
  try {
    return url ? new URL(url).hostname : null;
  } catch {
    return null;
  }
}

/**
 * Failures whose API sentence already names the cause and what fixes it (DNS, a refused connection, TLS, a
 * bot check, 429, the PO-token wall, a missing speech model): shown as they are, with a retry only where
 * waiting helps, never the generic "try again in a moment".
 */
const CAUSE_NAMED_CODES: ReadonlySet<string> = new Set([
  "upstream_dns_failed",
  "upstream_refused",
  "upstream_tls_failed",
  "upstream_blocked",
  "upstream_rate_limited",
  "po_token_required",
  "asr_model_missing",
]);

/** The sentence for a failed transcription request for `url` (null for a file). */
export function describeTranscribeError(error: unknown, url: string | null): ShownError {
  if (!(error instanceof ApiRequestError)) {
    // fetch itself failed: this page could not reach Verbatim.
    return { message: "Could not reach Verbatim. Check your connection and try again.", detail: null, retry: true };
  }
  if (error.code && CAUSE_NAMED_CODES.has(error.code)) {
    return { message: error.message, detail: null, retry: isRetryableCode(error.code) };
  }
  const upstream = isUpstreamCode(error.code) || ((error.status === 502 || error.status === 504) && !error.code);
  if (upstream) {
    const platform = platformOfLink(url);
    // An uploaded file has no link to check: a service the server relies on for it did not answer.
    const message =
      url === null
        ? "A service this server relies on did not answer just now. Your file is fine; try again in a moment."
        : platform
          ? `${platform} could not be reached from this server just now. Your link is fine; try again in a moment.`
          : `The server at ${hostOf(url) ?? "that address"} could not be reached from here just now. Check the link, or try again in a moment.`;
    return { message, detail: error.message, retry: true };
  }
  if (error.code === "asr_not_configured") {
    return {
      message: url
        ? "This has no captions in that language, and transcribing audio is not available on this server. Try another language, or a video with captions."
        : "Transcribing files is not available on this server.",
      detail: null,
      retry: false,
    };
  }
  if (error.status === 0) return { message: error.message, detail: null, retry: true };
  const retry = error.code ? isRetryableCode(error.code) : error.status === 429 || error.status >= 500;
  return { message: error.message, detail: null, retry };
}
