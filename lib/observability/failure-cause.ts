import { log } from "@/lib/observability/logger";
import { failuresByCause } from "@/lib/observability/metrics";

// Users get a sentence in their own words; the operator gets the cause, with the setting to change, in
// the log line and in /metrics (verbatim_failures_total by cause). An error carries the operator's side
// as a note (withOperatorNote), or it is read from the network error underneath (the `cause` chain).

export interface OperatorNote {
  /** Short, for the metric's label: connection_refused, dns, no_route, timeout, youtube_bot_check, … */
  cause: string;
  /** What to change, e.g. "ASR_OPENAI_BASE_URL (http://127.0.0.1:3486)" or "YOUTUBE_PROXIES or YOUTUBE_POT_PROVIDER_URL". */
  setting?: string;
  /** The technical detail: "connect ECONNREFUSED 127.0.0.1:3486". */
  detail: string;
}

const NOTE = Symbol.for("verbatim.operatorNote");

/** Attaches what the operator needs to an error whose message is for the user. */
export function withOperatorNote<E extends Error>(error: E, note: OperatorNote): E {
  Object.defineProperty(error, NOTE, { value: note, enumerable: false });
  return error;
}

const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: "connection_refused",
  ENOTFOUND: "dns",
  EAI_AGAIN: "dns",
  EAI_NONAME: "dns",
  ENETUNREACH: "no_route",
  EHOSTUNREACH: "no_route",
  EHOSTDOWN: "no_route",
  ENETDOWN: "no_route",
  EADDRNOTAVAIL: "no_route",
  ETIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  ECONNRESET: "connection_reset",
  EPIPE: "connection_reset",
  UND_ERR_SOCKET: "connection_reset",
  CERT_HAS_EXPIRED: "tls",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls",
  DEPTH_ZERO_SELF_SIGNED_CERT: "tls",
  ERR_TLS_CERT_ALTNAME_INVALID: "tls",
  SELF_SIGNED_CERT_IN_CHAIN: "tls",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "tls",
  UNABLE_TO_GET_ISSUER_CERT: "tls",
  CERT_NOT_YET_VALID: "tls",
  CERT_UNTRUSTED: "tls",
};

/** The errors under an error, outermost first (its `cause` chain, and an AggregateError's errors). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && out.length < 10) {
    const next = queue.shift();
    if (next === undefined || next === null || out.includes(next)) continue;
    out.push(next);
    if (typeof next === "object") {
      queue.push((next as { cause?: unknown }).cause);
      if (next instanceof AggregateError) queue.push(...next.errors);
    }
  }
  return out;
}

/** The network failure under an error (refused, no DNS answer, no route, timed out, reset, TLS), or null. */
export function networkFailure(error: unknown): { cause: string; detail: string } | null {
  for (const e of chain(error)) {
    const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
    if (typeof code === "string" && NETWORK_CAUSES[code])
      return { cause: NETWORK_CAUSES[code], detail: e instanceof Error ? e.message : code };
  }
  return null;
}

/** What the operator is told about an error: its note, else the network failure under it, else its own message. */
export function operatorNote(error: unknown): OperatorNote {
  for (const e of chain(error)) {
    const note = typeof e === "object" && e !== null ? (e as { [NOTE]?: OperatorNote })[NOTE] : undefined;
    if (note) return note;
  }
  const network = networkFailure(error);
  if (network) return network;
  const last = chain(error).at(-1);
  return { cause: "other", detail: last instanceof Error ? last.message : String(error) };
}

/**
 * Logs a failure a user was told about (the user's sentence, the operator's cause and setting) and counts
 * it by cause. `surface`: "api" for an answer, "job" for a job attempt.
 */
export function reportFailure(
  surface: "api" | "job",
  code: string,
  error: unknown,
  fields: Record<string, unknown> = {},
): OperatorNote {
  const note = operatorNote(error);
  failuresByCause.inc({ surface, code, cause: note.cause });
  const told = error instanceof Error ? error.message : String(error);
  log.warn(
    {
      ...fields,
      code,
      cause: note.cause,
      ...(note.setting ? { setting: note.setting } : {}),
      detail: note.detail,
      told,
    },
    `${surface === "api" ? "request" : "job"} failed (${code}): ${note.cause}${note.setting ? `; check ${note.setting}` : ""}: ${note.detail}`,
  );
  return note;
}
