/**
 * YouTube captions through youtubei.js (InnerTube), every request sent through the outbound module.
 * youtubei.js runs unchanged; only its `fetch` is ours (fetch.ts).
 *
 * The lookup is a chain, bounded by one time budget (`timeoutMs`, all clients and retries):
 *
 *   for each client of `clients` (YOUTUBE_CLIENTS, clients.ts):
 *     `/player` as that client (`actions.execute("/player", { client, ... })`), with a PO token bound to
 *     the video when the client needs one and a provider is configured (pot.ts);
 *     - bot check (LOGIN_REQUIRED "not a bot"), 429, an unreachable proxy → that exit cools down and
 *       the same client is asked again through the next proxy (at most `blockRetries` times per
 *       lookup), else the next client;
 *     - UNPLAYABLE, another video's answer, no caption tracks, only tracks marked `exp=xpe` it cannot
 *       fetch (no token) → the next client;
 *     - unavailable, private, age-restricted, live → that error at once (no client does better);
 *   fetchTrack: the track's timedtext URL (json3, parsed by lib/captions/parse; `pot`/`potc`/`c` appended
 *     when it needs a token);
 *     an empty body, a 429 or an error → the exit cools down and the chain goes on from the next
 *     client for the same track;
 *   when InnerTube is exhausted without an answer about the video (blocked, token required, client
 *   errors), the `fallback` provider (yt-dlp) is asked; `info.servedBy` says which client or path served.
 *
 * When everything fails the error says why: upstream_blocked / upstream_rate_limited (503 +
 * Retry-After), po_token_required (503), video_unplayable (YouTube's reason), upstream_failed.
 *
 * One file on purpose: the chain is one loop over one time budget whose branches (cool-downs, retries
 * through the next proxy, the fallback) share its state; its stand-alone parts have their own modules
 * (clients.ts, pot.ts, fetch.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";

import { Innertube } from "youtubei.js";

import type { Segment } from "@/lib/formats/types";
import { type Outbound, createOutbound, isOutboundError } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";

import { CaptionParseError, isBlankBytes } from "../parse";
import { CaptionTrackTooLarge, parseCaptionsOffThread } from "../parse-off-thread";
import { pickTrack } from "../pick-track";
import { type CaptionProvider, type CaptionTrack, SourceError, type SourceErrorCode, type VideoInfo } from "../types";
import { DEFAULT_YOUTUBE_CLIENTS, type InnerTubeClient, needsPoToken } from "./clients";
import { type Egress, type Exit, createEgress } from "./egress";
import { YOUTUBE_API_HOSTS, createOutboundFetch, rewriteYoutubeUrl } from "./fetch";
import { type PlayerDetails, type RawTrack, readPlayerResponse } from "./player-response";
import { PotError, type PotProvider, withPoToken } from "./pot";
import { countUpstream } from "@/lib/observability/metrics";
import { networkFailure, withOperatorNote } from "@/lib/observability/failure-cause";

export interface YoutubeProviderOptions {
  /** The outbound instance (lib/env.ts builds the configured one); used when no proxy is set. */
  outbound: Outbound;
  /**
   * Test hook: origin of a fake youtube.com (test/fakes/youtube/server.ts). Requests to YouTube's
   * API hosts (www.youtube.com, youtubei.googleapis.com...) go there instead, path and query kept.
   */
  innertubeBaseUrl?: string;
  /** One forward proxy for YouTube (kept for OUTBOUND_PROXY); `proxies` wins when both are set. */
  proxyUrl?: string;
  /** Forward proxies YouTube traffic rotates through (YOUTUBE_PROXIES). */
  proxies?: readonly string[];
  /** The outbound instance for one proxy. Default: `createOutbound({ proxyUrl })`. */
  makeOutbound?: (proxyUrl: string) => Outbound;
  /** InnerTube clients, in order. Default DEFAULT_YOUTUBE_CLIENTS. */
  clients?: readonly InnerTubeClient[];
  /** PO tokens (YOUTUBE_POT_PROVIDER_URL). */
  pot?: PotProvider;
  /** A Cookie header value for youtube.com (YOUTUBE_COOKIES_FILE). */
  cookie?: string;
  /** Extra attempts through another proxy after a block, per lookup. Default 2. */
  blockRetries?: number;
  /** How long a blocked exit is avoided. Default 5 minutes. */
  cooldownMs?: number;
  /** The budget of one lookup: every client, retry and the fallback. Default 45 s. */
  timeoutMs?: number;
  /** The second path (yt-dlp) when InnerTube cannot get the captions; given the time left of the budget. */
  fallback?: CaptionProvider;
}

/** What CaptionTrack.ref holds for YouTube tracks. */
export interface YoutubeTrackRef {
  baseUrl: string;
  languageCode: string;
  vssId: string | null;
  /** The client whose player response listed it (the `c` of a token-carrying URL). */
  client?: InnerTubeClient;
  needsPot?: boolean;
  pot?: string;
  /** Label of the exit that got the player response (the caption URL is fetched the same way). */
  exit?: string;
}

/** A caption track is a few hundred KiB at most; 20 MiB is a 10-hour auto track in json3 with room to spare. */
export const MAX_TRACK_BYTES = 20 * 1024 * 1024;

const TIMEDTEXT_HEADERS = {
  "user-agent":
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
  "accept-language": "en-US,en;q=0.9",
  accept: "*/*",
};

/** The `c` value YouTube's own players put on caption URLs (context.client.clientName). */
const CLIENT_NAMES: Partial<Record<InnerTubeClient, string>> = {
  WEB: "WEB",
  MWEB: "MWEB",
  WEB_EMBEDDED: "WEB_EMBEDDED_PLAYER",
  WEB_CREATOR: "WEB_CREATOR",
};

/** Codes YouTube still uses for languages that have newer ones. */
const LEGACY_LANGUAGE_CODES: Readonly<Record<string, string>> = { iw: "he", in: "id", ji: "yi", jw: "jv", mo: "ro" };

/** "en" → "en", "pt-br" → "pt-BR", "zh-hans" → "zh-Hans", "es-419" → "es-419", "iw" → "he". */
export function normalizeLanguageCode(code: string): string {
  const parts = code
    .trim()
    .replace(/_/g, "-")
    .split("-")
    .filter((p) => p !== "");
  const [first, ...rest] = parts;
  if (first === undefined) return code.trim();
  const lang = LEGACY_LANGUAGE_CODES[first.toLowerCase()] ?? first.toLowerCase();
  const subtags = rest.map((p) => {
    if (p.length === 4 && /^[A-Za-z]+$/.test(p)) return p[0]?.toUpperCase() + p.slice(1).toLowerCase(); // script
    if (p.length === 2 || /^\d{3}$/.test(p)) return p.toUpperCase(); // region
    return p.toLowerCase();
  });
  return [lang, ...subtags].join("-");
}

/** "English (auto-generated)" → "English"; manual names stay as they are. */
export function trackName(name: string, auto: boolean, fallback: string): string {
  const trimmed = name.trim();
  const clean = auto ? trimmed.replace(/\s*\([^()]*\)\s*$/, "").trim() : trimmed;
  return clean || fallback;
}

function sourceError(code: SourceErrorCode, message: string, cause?: unknown, retryAfterSeconds?: number): SourceError {
  const err = new SourceError(code, message, retryAfterSeconds);
  if (cause !== undefined) Object.defineProperty(err, "cause", { value: cause, enumerable: false });
  return err;
}

/** The OutboundError behind an error, if any (youtubei.js may wrap what our fetch threw). */
function outboundCause(err: unknown): (Error & { code: string; status: number }) | null {
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
function blockedError(retryAfterSeconds?: number): SourceError {
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

function trackRef(track: CaptionTrack): YoutubeTrackRef {
  const ref = track.ref as Partial<YoutubeTrackRef> | null | undefined;
  if (!ref || typeof ref.baseUrl !== "string")
    throw sourceError("upstream_failed", "That caption track has no address to fetch it from.");
  return {
    ...ref,
    baseUrl: ref.baseUrl,
    languageCode: String(ref.languageCode ?? track.lang),
    vssId: typeof ref.vssId === "string" ? ref.vssId : null,
  };
}

/** Per-call scope seen by the fetch handed to youtubei.js: the budget's signal, and the last status. */
interface CallScope {
  signal: AbortSignal;
  lastStatus?: number;
}

/** What one lookup has learnt so far; it continues from getInfo into fetchTrack. */
interface Lookup {
  source: ParsedSource;
  deadline: number;
  /** Index of the next client to ask. */
  next: number;
  retriesLeft: number;
  blocked: boolean;
  rateLimited: boolean;
  potMissing: boolean;
  potFailed: string | null;
  unplayable: string | null;
  /** A client answered OK (so the video itself is fine: no yt-dlp for "no captions"). */
  answered: boolean;
  /** A client listed caption tracks (perhaps none it could fetch). */
  sawTracks: boolean;
  timedOut: boolean;
  /** The network failure when YouTube could not be reached at all (refused, DNS, no route). */
  unreachable: { cause: string; detail: string } | null;
  /** The last caption-track answer that was neither a block nor empty (404, 5xx). */
  trackError: SourceError | null;
  lastDetails: PlayerDetails | null;
}

interface Served {
  client: InnerTubeClient;
  exit: Exit;
  details: PlayerDetails;
  pot: string | undefined;
}

export function createYoutubeProvider(opts: YoutubeProviderOptions): CaptionProvider {
  const clients = opts.clients && opts.clients.length > 0 ? opts.clients : DEFAULT_YOUTUBE_CLIENTS;
  const proxies = opts.proxies && opts.proxies.length > 0 ? opts.proxies : opts.proxyUrl ? [opts.proxyUrl] : [];
  const makeOutbound = opts.makeOutbound ?? ((proxyUrl: string) => createOutbound({ proxyUrl }));
  const egress: Egress = createEgress({
    proxies,
    makeOutbound: (p) => (p ? makeOutbound(p) : opts.outbound),
    cooldownMs: opts.cooldownMs ?? 300_000,
  });
  const timeoutMs = opts.timeoutMs ?? 45_000;
  const blockRetries = opts.blockRetries ?? 2;
  const scope = new AsyncLocalStorage<CallScope>();
  const sessions = new Map<string, Promise<Innertube>>();
  const lookups = new WeakMap<VideoInfo, Lookup>();

  function innertube(exit: Exit): Promise<Innertube> {
    let session = sessions.get(exit.label);
    if (!session) {
      const base = createOutboundFetch({ outbound: exit.outbound, baseUrl: opts.innertubeBaseUrl });
      const scoped: typeof fetch = async (input, init) => {
        const s = scope.getStore();
        const signal = s
          ? init?.signal
            ? AbortSignal.any([init.signal, s.signal])
            : s.signal
          : (init?.signal ?? undefined);
        const res = await base(input, { ...init, signal });
        if (s) s.lastStatus = res.status;
        return res;
      };
      session = Innertube.create({
        retrieve_player: false,
        generate_session_locally: true,
        lang: "en",
        location: "US",
        fetch: scoped,
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
      }).catch((err: unknown) => {
        sessions.delete(exit.label); // the next call tries again
        throw err;
      });
      sessions.set(exit.label, session);
    }
    return session;
  }

  const left = (l: Lookup) => l.deadline - Date.now();

  function budgetSignal(l: Lookup): AbortSignal {
    return AbortSignal.timeout(Math.max(1, left(l)));
  }

  /** One `/player` call as `client` through `exit`. */
  async function callPlayer(l: Lookup, client: InnerTubeClient, exit: Exit, pot: string | undefined): Promise<unknown> {
    const s: CallScope = { signal: budgetSignal(l) };
    return scope.run(s, async () => {
      try {
        const yt = await innertube(exit);
        const res = await yt.actions.execute("/player", {
          videoId: l.source.videoId,
          client,
          racyCheckOk: true,
          contentCheckOk: true,
          playbackContext: { contentPlaybackContext: { vis: 0, splay: false, lactMilliseconds: "-1" } },
          ...(pot ? { serviceIntegrityDimensions: { poToken: pot } } : {}),
        });
        return res.data;
      } catch (err) {
        throw Object.assign(err instanceof Error ? err : new Error(String(err)), { httpStatus: s.lastStatus });
      }
    });
  }

  /** The PO token for this client and video, when it needs one and a provider is configured. */
  async function tokenFor(l: Lookup, client: InnerTubeClient): Promise<string | undefined> {
    // Without a provider the client is still asked: YouTube does not always insist. Its answer (UNPLAYABLE,
    // tracks marked exp=xpe) is what marks the lookup as wanting a token.
    if (!needsPoToken(client) || !opts.pot) return undefined;
    return mint(l);
  }

  /** A token bound to the video, from the provider (cached there for its lifetime). */
  async function mint(l: Lookup): Promise<string | undefined> {
    if (!opts.pot) return undefined;
    try {
      return await opts.pot.tokenFor(l.source.videoId, budgetSignal(l));
    } catch (err) {
      l.potFailed = err instanceof PotError ? err.message : String(err);
      return undefined;
    }
  }

  /**
   * Asks the remaining clients until one answers with a usable track (matching `wanted` when given).
   * Returns null when the chain is exhausted; throws final errors (unavailable, age, live) at once.
   */
  async function runChain(l: Lookup, wanted: CaptionTrack | null): Promise<Served | null> {
    while (l.next < clients.length) {
      if (left(l) <= 0) {
        l.timedOut = true;
        return null;
      }
      const client = clients[l.next] as InnerTubeClient;
      l.next++;
      const pot = await tokenFor(l, client);
      const tried = new Set<string | null>();
      for (;;) {
        const exit = egress.pick(tried);
        if (!exit) break;
        tried.add(exit.proxy);
        const outcome = await askOnce(l, client, exit, pot);
        if (outcome === "retry") {
          if (l.retriesLeft > 0 && tried.size < egress.size && left(l) > 0) {
            l.retriesLeft--;
            continue;
          }
          break;
        }
        if (outcome === "next") break;
        // Tracks marked exp=xpe are usable with a token: this client's, or one minted when fetching.
        const usable = outcome.tracks.filter((t) => !t.needsPot || pot !== undefined || opts.pot !== undefined);
        const candidates = wanted ? outcome.tracks.filter((t) => sameTrack(t, wanted)) : outcome.tracks;
        if (candidates.length > 0 && candidates.every((t) => t.needsPot) && !usable.some((t) => candidates.includes(t)))
          l.potMissing = true;
        if (usable.length === 0) break;
        if (wanted && !usable.some((t) => sameTrack(t, wanted))) break;
        return { client, exit, details: outcome, pot };
      }
    }
    return null;
  }

  /** "retry": this exit is blocked; "next": this client cannot help; else the details of an OK answer. */
  async function askOnce(
    l: Lookup,
    client: InnerTubeClient,
    exit: Exit,
    pot: string | undefined,
  ): Promise<PlayerDetails | "retry" | "next"> {
    const count = (code: string) => countUpstream("youtube", `innertube:${client}`, code);
    let raw: unknown;
    try {
      raw = await callPlayer(l, client, exit, pot);
    } catch (err) {
      if (left(l) <= 0) {
        l.timedOut = true;
        count("upstream_timeout");
        return "next";
      }
      const status = (err as { httpStatus?: number }).httpStatus;
      const out = outboundCause(err);
      if (status === 429) {
        l.rateLimited = true;
        egress.block(exit);
        count("upstream_rate_limited");
        return "retry";
      }
      count(out?.code ?? "upstream_failed");
      if (
        out &&
        (out.code === "upstream_timeout" ||
          out.code === "upstream_failed" ||
          out.code === "upstream_dns_failed" ||
          out.code === "upstream_refused" ||
          out.code === "upstream_tls_failed")
      ) {
        // No connection at all (refused, no DNS answer, no route): the answer says the server could not reach YouTube.
        const network = networkFailure(out);
        if (network && ["connection_refused", "dns", "no_route", "tls"].includes(network.cause))
          l.unreachable ??= network;
        egress.block(exit); // the proxy (or the way to YouTube) does not work: another exit may
        return "retry";
      }
      if (out) throw out; // refused by the guard: no client will do better
      return "next"; // 400 for an outdated client version, 5xx, unreadable JSON
    }
    const verdict = readPlayerResponse(raw);
    if (verdict.kind === "final") {
      count(verdict.error.code);
      throw verdict.error;
    }
    if (verdict.kind === "blocked") {
      l.blocked = true;
      egress.block(exit);
      count("upstream_blocked");
      return "retry";
    }
    if (verdict.kind === "unplayable") {
      // A browser client without its token is often told UNPLAYABLE; that is the token's fault.
      if (needsPoToken(client) && !pot) l.potMissing = true;
      else l.unplayable ??= verdict.reason;
      count(needsPoToken(client) && !pot ? "po_token_required" : "video_unplayable");
      return "next";
    }
    if (verdict.details.videoId && verdict.details.videoId !== l.source.videoId) {
      count("upstream_blocked");
      return "next"; // another video's answer: a soft block
    }
    count("ok");
    l.answered = true;
    if (verdict.details.tracks.length > 0) l.sawTracks = true;
    l.lastDetails = verdict.details;
    return verdict.details;
  }

  function toTrack(t: RawTrack, served: Served): CaptionTrack {
    const lang = normalizeLanguageCode(t.languageCode);
    const ref: YoutubeTrackRef = {
      baseUrl: t.baseUrl,
      languageCode: t.languageCode,
      vssId: t.vssId,
      client: served.client,
      needsPot: t.needsPot,
      exit: served.exit.label,
      ...(t.needsPot && served.pot ? { pot: served.pot } : {}),
    };
    return { lang, name: trackName(t.name, t.auto, lang), kind: t.auto ? "auto" : "manual", ref };
  }

  function sameTrack(t: RawTrack, wanted: CaptionTrack): boolean {
    const ref = wanted.ref as Partial<YoutubeTrackRef> | null;
    const code = typeof ref?.languageCode === "string" ? ref.languageCode : wanted.lang;
    return t.languageCode === code && t.auto === (wanted.kind === "auto");
  }

  function infoFrom(source: ParsedSource, details: PlayerDetails, tracks: CaptionTrack[], servedBy: string): VideoInfo {
    return {
      platform: "youtube",
      videoId: source.videoId,
      canonicalUrl: source.canonicalUrl,
      title: details.title,
      durationSeconds: details.durationSeconds,
      channel: details.channel,
      publishedAt: details.publishedAt,
      chapters: details.chapters,
      tracks,
      servedBy,
    };
  }

  /** Why the chain ended without captions, as the error the caller sees. */
  function exhausted(l: Lookup): SourceError {
    const wait = Math.max(egress.retryAfterSeconds(), 30);
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
    if (l.potMissing && !opts.pot) {
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
    if (l.unreachable) return unreachableError(l.unreachable, proxies.length > 0);
    if (l.timedOut)
      return sourceError(
        "upstream_failed",
        `YouTube did not give the captions within ${Math.round(timeoutMs / 1000)} s. Try again later.`,
      );
    return sourceError("upstream_failed", "YouTube did not answer as expected.");
  }

  /** yt-dlp, when it may help (InnerTube never said anything final about the video). */
  async function viaFallback(l: Lookup): Promise<VideoInfo | null> {
    if (!opts.fallback || (l.answered && !l.sawTracks)) return null;
    if (left(l) <= 0) return null;
    let info: VideoInfo;
    try {
      // Through the exit that is ready (yt-dlp gets one proxy per run).
      const exit = egress.pick(new Set());
      info = await opts.fallback.getInfo(l.source, {
        timeoutMs: left(l),
        ...(exit?.proxy ? { outbound: exit.outbound } : {}),
      });
    } catch (err) {
      // A final answer from yt-dlp about the video itself wins over our summary.
      if (
        err instanceof SourceError &&
        (err.code === "video_unavailable" || err.code === "age_restricted" || err.code === "live_not_finished")
      )
        throw err;
      return null;
    }
    return { ...info, servedBy: "yt-dlp" };
  }

  async function getInfo(source: ParsedSource): Promise<VideoInfo> {
    if (source.platform !== "youtube")
      throw sourceError("unsupported_source", "The YouTube provider only reads YouTube videos.");
    const l: Lookup = {
      source,
      deadline: Date.now() + timeoutMs,
      next: 0,
      retriesLeft: blockRetries,
      blocked: false,
      rateLimited: false,
      potMissing: false,
      potFailed: null,
      unplayable: null,
      answered: false,
      sawTracks: false,
      timedOut: false,
      unreachable: null,
      trackError: null,
      lastDetails: null,
    };
    const served = await runChain(l, null);
    let info: VideoInfo;
    if (served) {
      info = infoFrom(
        source,
        served.details,
        served.details.tracks.map((t) => toTrack(t, served)),
        `innertube:${served.client}`,
      );
    } else if (l.answered && !l.sawTracks && l.lastDetails) {
      // Every client that answered said the same: no caption tracks (captions disabled): speech recognition's turn.
      info = infoFrom(source, l.lastDetails, [], `innertube:${clients[clients.length - 1]}`);
    } else {
      const fallback = await viaFallback(l);
      if (!fallback) throw exhausted(l);
      info = fallback;
    }
    lookups.set(info, l);
    return info;
  }

  async function fetchOne(
    track: CaptionTrack,
    ref: YoutubeTrackRef,
    l: Lookup | undefined,
  ): Promise<Segment[] | "failed"> {
    let url: URL;
    try {
      url = new URL(ref.baseUrl);
    } catch {
      throw sourceError("upstream_failed", "YouTube gave an invalid caption track address.");
    }
    // Caption tracks live on www.youtube.com; anything else in a baseUrl is not followed.
    if (!YOUTUBE_API_HOSTS.has(url.hostname.toLowerCase()) || url.pathname !== "/api/timedtext") {
      throw sourceError("upstream_failed", "YouTube gave an unexpected caption track address.");
    }
    if (ref.needsPot && !ref.pot && opts.pot && l) ref.pot = await mint(l);
    if (ref.needsPot && !ref.pot) {
      if (l) l.potMissing = true;
      return "failed";
    }
    url.searchParams.set("fmt", "json3");
    if (ref.pot && ref.client) url = withPoToken(url, ref.pot, CLIENT_NAMES[ref.client] ?? ref.client);

    // The track is fetched the way its player response came (caption URLs can be bound to the address).
    const chosen = (ref.exit ? egress.byLabel(ref.exit) : null) ?? egress.pick(new Set());
    const outbound = chosen?.outbound ?? opts.outbound;
    const res = await outbound.safeFetchBuffer(rewriteYoutubeUrl(url, opts.innertubeBaseUrl), {
      headers: TIMEDTEXT_HEADERS,
      maxBytes: MAX_TRACK_BYTES,
      retries: 0,
      ...(l ? { signal: budgetSignal(l) } : {}),
    });
    // The track is decoded and read in the parse thread: here only whether it has anything but white space.
    const empty = !res.ok || isBlankBytes(res.body);
    countUpstream(
      "youtube",
      "timedtext",
      !empty
        ? "ok"
        : res.status === 429
          ? "upstream_rate_limited"
          : res.ok && ref.needsPot
            ? "po_token_required"
            : "upstream_failed",
    );
    if (empty) {
      if (!l) {
        if (!res.ok) throw sourceError("upstream_failed", `YouTube answered ${res.status} for the caption track.`);
        throw sourceError("upstream_failed", "YouTube sent an empty caption track.");
      }
      if (!res.ok && res.status !== 429)
        l.trackError = sourceError("upstream_failed", `YouTube answered ${res.status} for the caption track.`);
      if (res.status === 429) l.rateLimited = true;
      // An empty 200 where a track was expected: YouTube wants a token, or blocks this exit.
      else if (res.ok && ref.needsPot) l.potMissing = true;
      if (chosen && (res.status === 429 || res.ok)) {
        egress.block(chosen);
        // A block, not the client's fault: the same client once more through another ready exit.
        if (!(res.ok && ref.needsPot) && ref.client && l.retriesLeft > 0 && egress.hasOtherReady(chosen)) {
          l.retriesLeft--;
          l.next = Math.max(0, clients.indexOf(ref.client));
        }
      }
      return "failed";
    }
    try {
      return await parseCaptionsOffThread(res.body, "json3", track.kind);
    } catch (err) {
      if (err instanceof CaptionTrackTooLarge) throw sourceError("response_too_large", err.message, err);
      if (err instanceof CaptionParseError)
        throw sourceError("upstream_failed", "YouTube sent a caption track Verbatim could not read.", err);
      throw err;
    }
  }

  async function fetchTrack(info: VideoInfo, track: CaptionTrack): Promise<Segment[]> {
    const l = lookups.get(info);
    if (info.servedBy === "yt-dlp" && opts.fallback) return opts.fallback.fetchTrack(info, track);
    let current = track;
    for (;;) {
      const ref = trackRef(current);
      const result = await fetchOne(current, ref, l);
      if (result !== "failed") {
        if (ref.client) info.servedBy = `innertube:${ref.client}`;
        return result;
      }
      if (!l) throw sourceError("upstream_failed", "YouTube sent an empty caption track.");
      const served = await runChain(l, current);
      if (!served) break;
      const raw = served.details.tracks.find((t) => sameTrack(t, current));
      if (!raw) break;
      current = toTrack(raw, served);
    }
    // InnerTube could not deliver this track: yt-dlp, for the same language and kind.
    if (l && opts.fallback && left(l) > 0) {
      const ytInfo = await viaFallback({ ...l, answered: false, sawTracks: true });
      const same = ytInfo
        ? pickTrack(
            ytInfo.tracks.filter((t) => t.kind === track.kind),
            track.lang,
          )
        : null;
      if (ytInfo && same) {
        const segments = await opts.fallback.fetchTrack(ytInfo, same);
        info.servedBy = "yt-dlp";
        return segments;
      }
    }
    throw l ? (l.trackError ?? exhausted(l)) : sourceError("upstream_failed", "YouTube sent an empty caption track.");
  }

  return { getInfo, fetchTrack };
}
