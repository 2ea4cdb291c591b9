import { ERROR_CODES, isErrorCode } from "../../lib/http/error-codes";

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

// The server or the platform behind it failed: any 5xx in the API's table, whether asking again may help
// (upstream_failed) or not (upstream_dns_failed, asr_model_missing).
function isServerCode(code: string): boolean {
  return isErrorCode(code) && ERROR_CODES[code].status >= 500;
}

/**
 * The exit code for an API answer or a failed job (status null): its machine code first, then its status.
 * docs/cli.md: 2 usage, 3 auth, 4 allowance, 5 not found, 6 server or platform failed, 1 anything else. A job
 * that fails on the server is 6 whatever its own code (asr_failed, download_failed, …), unless the code
 * says the request itself was at fault (its 4xx in the table).
 */
export function exitCodeFor(status: number | null, code: string | null): ExitCode {
  if (code === "allowance_exhausted") return EXIT.allowance;
  if (code === "video_unavailable" || code === "not_found" || code === "upload_not_found") return EXIT.notFound;
  if (code && isServerCode(code)) return EXIT.upstream;
  if (code === "unauthorized" || code === "invalid_token") return EXIT.auth;
  const effective = status ?? (code && isErrorCode(code) ? ERROR_CODES[code].status : null);
  switch (true) {
    case effective === 401:
      return EXIT.auth;
    case effective === 402:
      return EXIT.allowance;
    case effective === 404:
      return EXIT.notFound;
    case effective === 400 || effective === 422:
      return EXIT.usage;
    case effective !== null && effective >= 500:
      return EXIT.upstream;
    case status === null && code !== null && effective === null:
      return EXIT.upstream; // a job's own failure code: it failed on the server
    default:
      return EXIT.other;
  }
}
