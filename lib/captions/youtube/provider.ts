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
 * The chain is here, one loop over one time budget whose branches (cool-downs, retries through the next proxy,
 * the fallback) share its state (lookup.ts); the parts that stand alone have their own modules: the clients
 * (clients.ts), exits (egress.ts), `/player` sessions (player.ts), PO tokens (pot.ts), tracks
 * (tracks.ts), their timedtext (timedtext.ts) and the errors the caller sees (errors.ts).
 */
import type { Segment } from "@/lib/formats/types";
import { type Outbound, createOutbound } from "@/lib/http/outbound";
import { countUpstream } from "@/lib/observability/metrics";
import { networkFailure } from "@/lib/observability/failure-cause";
import type { ParsedSource } from "@/lib/sources";

import { isBlankBytes } from "../parse";
import { pickTrack } from "../pick-track";
import { type CaptionProvider, type CaptionTrack, SourceError, type VideoInfo } from "../types";
import { DEFAULT_YOUTUBE_CLIENTS, type InnerTubeClient, needsPoToken } from "./clients";
import { type Egress, type Exit, createEgress } from "./egress";
import { exhaustedError, outboundCause, sourceError } from "./errors";
import { rewriteYoutubeUrl } from "./fetch";
import { type Lookup, newLookup, type Served } from "./lookup";
import { createPlayerCaller } from "./player";
import { type PlayerDetails, readPlayerResponse } from "./player-response";
import { PotError, type PotProvider } from "./pot";
import { MAX_TRACK_BYTES, TIMEDTEXT_HEADERS, checkedTrackUrl, json3Url, parseTrack } from "./timedtext";
import { type YoutubeTrackRef, infoFrom, sameTrack, toTrack, trackRef } from "./tracks";

export { playabilityError, unreachableError } from "./errors";
export { MAX_TRACK_BYTES } from "./timedtext";
export { normalizeLanguageCode, trackName, type YoutubeTrackRef } from "./tracks";

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
  const callPlayer = createPlayerCaller({ innertubeBaseUrl: opts.innertubeBaseUrl, cookie: opts.cookie });
  const lookups = new WeakMap<VideoInfo, Lookup>();

  const left = (l: Lookup) => l.deadline - Date.now();

  function budgetSignal(l: Lookup): AbortSignal {
    return AbortSignal.timeout(Math.max(1, left(l)));
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
      raw = await callPlayer(budgetSignal(l), l.source.videoId, client, exit, pot);
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

  /** Why the chain ended without captions, as the error the caller sees. */
  function exhausted(l: Lookup): SourceError {
    return exhaustedError(l, {
      retryAfterSeconds: egress.retryAfterSeconds(),
      potConfigured: opts.pot !== undefined,
      viaProxy: proxies.length > 0,
      timeoutMs,
    });
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
    const l = newLookup(source, timeoutMs, blockRetries);
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
    const checked = checkedTrackUrl(ref.baseUrl);
    if (ref.needsPot && !ref.pot && opts.pot && l) ref.pot = await mint(l);
    if (ref.needsPot && !ref.pot) {
      if (l) l.potMissing = true;
      return "failed";
    }
    const url = json3Url(checked, ref);

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
    return parseTrack(res.body, track.kind);
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
