// What a YouTube lookup that did not get the captions tells its caller: one SourceError per reason, with the
// operator's note (which setting fixes it) where the fix is theirs.
import { isOutboundError } from "@/lib/http/outbound";
import { withOperatorNote } from "@/lib/observability/failure-cause";

import { SourceError, type SourceErrorCode } from "../types";
import type { Lookup } from "./lookup";
import { readPlayerResponse } from "./player-response";

export function sourceError(
  code: SourceErrorCode,
  message: string,
  cause?: unknown,
  retryAfterSeconds?: number,
): SourceError {
  const err = new SourceError(code, message, retryAfterSeconds);
  if (cause !== undefined) Object.defineProperty(err, "cause", { value: cause, enumerable: false });
  return err;
}

/** The OutboundError behind an error, if any (youtubei.js may wrap what our fetch threw). */
export function outboundCause(err: unknown): (Error & { code: string; status: number }) | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (isOutboundError(e)) return e as Error & { code: string; status: number };
    e = typeof e === "object" && e !== null && "cause" in e ? (e as { cause?: unknown }).cause : null;
  }
  return null;
}

/**
 * YouTube playability → SourceError, or null when the video can be read (kept for callers that only
 * have a playability status; the chain uses readPlayerResponse).
 */
export function playabilityError(ps: { status?: unknown; reason?: unknown } | null | undefined): SourceError | null {
  const verdict = readPlayerResponse({ playabilityStatus: ps ?? {} });
  if (verdict.kind === "ok") return null;
  if (verdict.kind === "final") return verdict.error;
  if (verdict.kind === "blocked") return blockedError();
  return sourceError("video_unplayable", `YouTube will not play this video: ${verdict.reason}`);
}

/**
 * YouTube could not be reached at all: each cause its own code and the sentence that fixes it (none of them
 * goes away by asking again in a moment).
 */
export function unreachableError(network: { cause: string; detail: string }, viaProxy: boolean): SourceError {
  const [code, message, setting]: [SourceErrorCode, string, string] =
    network.cause === "dns"
      ? [
          "upstream_dns_failed",
          "This server could not look up youtube.com (DNS failed): it has no working DNS or no internet connection. Its operator has to give it one; asking again will not help until then.",
          "the server's DNS and network",
        ]
      : network.cause === "connection_refused"
        ? [
            "upstream_refused",
            viaProxy
              ? "The proxy this server reaches YouTube through refused the connection: it is down or at the wrong address (YOUTUBE_PROXIES, OUTBOUND_PROXY)."
              : "YouTube refused this server's connection: a firewall rejects it. Its operator can route YouTube through a proxy (YOUTUBE_PROXIES).",
            viaProxy ? "YOUTUBE_PROXIES / OUTBOUND_PROXY" : "the server's firewall, or YOUTUBE_PROXIES",
          ]
        : network.cause === "tls"
          ? [
              "upstream_tls_failed",
              "This server could not make a secure connection to YouTube: the certificate was not accepted. If it reaches the internet through an intercepting proxy, its operator must trust that proxy's CA (NODE_EXTRA_CA_CERTS).",
              "NODE_EXTRA_CA_CERTS",
            ]
          : [
              "upstream_failed",
              "This server has no route to YouTube: its network is down or it has no internet connection. Its operator can fix the network or route YouTube through a proxy (YOUTUBE_PROXIES).",
              "the server's network, or YOUTUBE_PROXIES",
            ];
  return withOperatorNote(sourceError(code, message), { cause: network.cause, setting, detail: network.detail });
}

/** YouTube's bot check: the user is told to try later, the operator which settings get past it. */
export function blockedError(retryAfterSeconds?: number): SourceError {
  return withOperatorNote(
    sourceError(
      "upstream_blocked",
      "YouTube asked this server to prove it is not a bot (a bot check). It usually passes in a while; to get past it now, its operator can route YouTube through other addresses (YOUTUBE_PROXIES) or add a PO token provider (YOUTUBE_POT_PROVIDER_URL).",
      undefined,
      retryAfterSeconds,
    ),
    {
      cause: "youtube_bot_check",
      setting: "YOUTUBE_PROXIES or YOUTUBE_POT_PROVIDER_URL",
      detail: "YouTube answered LOGIN_REQUIRED (confirm you are not a bot) on every client and exit",
    },
  );
}

/** Why the chain ended without captions, as the error the caller sees. */
export function exhaustedError(
  l: Lookup,
  setup: { retryAfterSeconds: number; potConfigured: boolean; viaProxy: boolean; timeoutMs: number },
): SourceError {
  const wait = Math.max(setup.retryAfterSeconds, 30);
  if (l.blocked) return blockedError(wait);
  if (l.rateLimited) {
    return sourceError(
      "upstream_rate_limited",
      "YouTube is rate-limiting this server (429 Too Many Requests). Try again in a few minutes; a server that asks often can spread its requests over more addresses (YOUTUBE_PROXIES).",
      undefined,
      wait,
    );
  }
  if (l.unplayable) return sourceError("video_unplayable", `YouTube will not play this video: ${l.unplayable}`);
  if (l.potMissing && !setup.potConfigured) {
    return withOperatorNote(
      sourceError(
        "po_token_required",
        "YouTube wants a proof-of-origin (PO) token from this server, and none is configured: its operator can add a PO token provider (YOUTUBE_POT_PROVIDER_URL). Asking again will not help until then.",
        undefined,
        300,
      ),
      {
        cause: "youtube_po_token_missing",
        setting: "YOUTUBE_POT_PROVIDER_URL (a bgutil PO token provider)",
        detail: "YouTube asks for a proof-of-origin (PO) token, and none is configured",
      },
    );
  }
  if (l.potFailed) {
    return withOperatorNote(
      sourceError(
        "upstream_failed",
        "YouTube wants a proof-of-origin (PO) token, and the PO token provider (YOUTUBE_POT_PROVIDER_URL) did not give one. Its operator should check that provider is running.",
      ),
      {
        cause: "youtube_po_token_failed",
        setting: "YOUTUBE_POT_PROVIDER_URL",
        detail: `YouTube wants a PO token, and ${l.potFailed}`,
      },
    );
  }
  if (l.unreachable) return unreachableError(l.unreachable, setup.viaProxy);
  if (l.timedOut)
    return sourceError(
      "upstream_failed",
      `YouTube did not give the captions within ${Math.round(setup.timeoutMs / 1000)} s. Try again later.`,
    );
  return sourceError("upstream_failed", "YouTube did not answer as expected.");
}
