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

// A platform, provider or this server failed (a 5xx in the API's table): a failed job's download_failed,
// asr_failed, convert_failed, job_failed… as much as an answer's upstream_failed.
function isServerCode(code: string): boolean {
  return isErrorCode(code) && ERROR_CODES[code].status >= 500;
}

/**
 * The exit code for an API answer: its machine code first, then its status. A failed job's code comes without
 * a status (null): the status its code has in lib/http/error-codes.ts stands in.
 */
export function exitCodeFor(answered: number | null, code: string | null): ExitCode {
  if (code === "allowance_exhausted") return EXIT.allowance;
  if (code === "video_unavailable" || code === "not_found") return EXIT.notFound;
  if (code && isServerCode(code)) return EXIT.upstream;
  if (code === "unauthorized" || code === "invalid_token") return EXIT.auth;
  const status = answered ?? (isErrorCode(code) ? ERROR_CODES[code].status : null);
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
