import { ERROR_CODES, isErrorCode, isRetryableCode } from "../../lib/http/error-codes";

// Exit codes, one per kind of failure a script may want to tell apart (gh and the Stripe CLI do the same).
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  allowance: 4,
  notFound: 5,
  upstream: 6,
  /** Ctrl-C, as shells report a SIGINT. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports in one line and exits with. `code` is the API's machine code when it sent one. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = "CliError";
  }
}

// A platform or provider that failed, or a server that cannot do it now: a retryable 5xx in the API's table.
function isUpstreamCode(code: string): boolean {
  return isErrorCode(code) && isRetryableCode(code) && ERROR_CODES[code].status >= 500;
}

/** The exit code for an API answer: its machine code first (also a failed job's), then its status. */
export function exitCodeFor(status: number | null, code: string | null): ExitCode {
  if (code === "allowance_exhausted") return EXIT.allowance;
  if (code === "video_unavailable" || code === "not_found") return EXIT.notFound;
  if (code && isUpstreamCode(code)) return EXIT.upstream;
  if (code === "unauthorized" || code === "invalid_token") return EXIT.auth;
  switch (true) {
    case status === 401:
      return EXIT.auth;
    case status === 402:
      return EXIT.allowance;
    case status === 404:
      return EXIT.notFound;
    case status === 400 || status === 422:
      return EXIT.usage;
    case status !== null && status >= 502:
      return EXIT.upstream;
    default:
      return EXIT.other;
  }
}
