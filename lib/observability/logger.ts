import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { env } from "@/lib/env";
import { logContext } from "@/lib/observability/request-context";

// The one logger: JSON lines on stdout (pino), pretty-printed when stdout is a terminal, at LOG_LEVEL.
// Every line carries the request id and job id of the work it belongs to (request-context.ts).
// Secrets never reach a line: known fields are redacted by path, and whatever looks like one of our
// keys or tokens, or a Stripe key or webhook secret, is masked in the finished line.

/** Values that look like credentials: API keys, OAuth tokens, Stripe secret/restricted keys, webhook secrets. */
const SECRET_VALUE = /\b(vbt|vat|vrt|sk|rk|whsec)_[A-Za-z0-9_]{6,}/g;

export function maskSecrets(line: string): string {
  return line.replace(SECRET_VALUE, "$1_[redacted]");
}

// Explicit paths only: wildcard paths make pino copy every line's object (~4x the cost of a request line);
// secret values anywhere else are caught by maskSecrets.
const REDACT_PATHS = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "token",
  "apiKey",
  "accessToken",
  "refreshToken",
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  "req.headers.authorization",
  "req.headers.cookie",
];

/** A logger writing to `destination` (default: stdout); exported for tests. */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const destination = options.destination ?? defaultDestination();
  const masked: DestinationStream = { write: (line: string) => destination.write(maskSecrets(line)) };
  return pino(
    {
      level: options.level ?? "info",
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      mixin: () => ({ ...logContext() }),
    },
    masked,
  );
}

function defaultDestination(): DestinationStream {
  if (process.stdout.isTTY) return pretty({ colorize: true, sync: true });
  // Synchronous writes: no line is lost when the process exits right after logging.
  return pino.destination({ dest: 1, sync: true });
}

function configuredLevel(): string {
  try {
    return env().LOG_LEVEL;
  } catch {
    // A bad setting stops the app at start, and that message needs a logger too.
    return "info";
  }
}

// One per process (Next.js may bundle this module more than once).
const holder = globalThis as { verbatimLogger?: Logger };

function root(): Logger {
  return (holder.verbatimLogger ??= createLogger({ level: configuredLevel() }));
}

/**
 * For a command whose standard output is its answer (`npm run doctor`): the process's lines go to standard
 * error instead, from `level` up, so that what the lib functions it calls log (the embedded database opening, a
 * failed probe) neither mixes with the answer nor buries it. Call before anything logs.
 */
export function logToStderr(level = "warn"): void {
  holder.verbatimLogger = createLogger({
    level,
    destination: process.stderr.isTTY
      ? pretty({ colorize: true, sync: true, destination: 2 })
      : pino.destination({ dest: 2, sync: true }),
  });
}

/** The process's logger (created on first use, at LOG_LEVEL). */
export const log: Logger = new Proxy({} as Logger, {
  get(_, property) {
    const logger = root();
    const value: unknown = Reflect.get(logger, property, logger);
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(logger) : value;
  },
});
