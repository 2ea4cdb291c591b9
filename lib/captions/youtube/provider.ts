/**
 * YouTube captions through youtubei.js (InnerTube), with every request sent through the outbound
 * module. youtubei.js runs unchanged; only its `fetch` is ours (fetch.ts).
 *
 * getInfo: one InnerTube `player` call (youtubei.js `getBasicInfo`) → title, duration, caption tracks;
 *          playability statuses become SourceErrors.
 * fetchTrack: the track's timedtext baseUrl with fmt=json3, parsed and, for auto captions,
 *          de-duplicated (lib/captions/parse).
 *
 * The InnerTube session is made once per provider (locally generated, no player JS download) and
 * reused. OutboundErrors (refused host, timeout, too large, unreachable) reach the caller unchanged.
 */
import { Innertube, Utils } from "youtubei.js";

import type { Segment } from "@/lib/formats/types";
import { type Outbound, createOutbound, isOutboundError } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";

import { CaptionParseError, captionSegments, parseCaptions } from "../parse";
import { type CaptionProvider, type CaptionTrack, SourceError, type SourceErrorCode, type VideoInfo } from "../types";
import { YOUTUBE_API_HOSTS, createOutboundFetch, rewriteYoutubeUrl } from "./fetch";

export interface YoutubeProviderOptions {
  /** The outbound instance (lib/env.ts builds the configured one). */
  outbound: Outbound;
  /**
   * Test hook: origin of a fake youtube.com (test/fakes/youtube/server.ts). Requests to YouTube's
   * API hosts (www.youtube.com, youtubei.googleapis.com...) go there instead, path and query kept.
   */
  innertubeBaseUrl?: string;
  /**
   * A forward proxy for YouTube only (YouTube refuses many datacenter addresses). When set, YouTube
   * traffic uses its own outbound instance, `createOutbound({ proxyUrl })`, with the same guard, caps
   * and timeouts, instead of `outbound`.
   */
  proxyUrl?: string;
}

/** What CaptionTrack.ref holds for YouTube tracks. */
export interface YoutubeTrackRef {
  baseUrl: string;
  languageCode: string;
  vssId: string | null;
}

/** A caption track is a few hundred KiB at most; 20 MiB is a 10-hour auto track in json3 with room to spare. */
export const MAX_TRACK_BYTES = 20 * 1024 * 1024;

const TIMEDTEXT_HEADERS = {
  "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
  "accept-language": "en-US,en;q=0.9",
  accept: "*/*",
};

/** Codes YouTube still uses for languages that have newer ones. */
const LEGACY_LANGUAGE_CODES: Readonly<Record<string, string>> = { iw: "he", in: "id", ji: "yi", jw: "jv", mo: "ro" };

/** "en" → "en", "pt-br" → "pt-BR", "zh-hans" → "zh-Hans", "es-419" → "es-419", "iw" → "he". */
export function normaliseLanguageCode(code: string): string {
  const parts = code.trim().replace(/_/g, "-").split("-").filter((p) => p !== "");
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

function sourceError(code: SourceErrorCode, message: string, cause?: unknown): SourceError {
  const err = new SourceError(code, message);
  if (cause !== undefined) Object.defineProperty(err, "cause", { value: cause, enumerable: false });
  return err;
}

/** The OutboundError behind an error, if any (youtubei.js may wrap what our fetch threw). */
function outboundCause(err: unknown): Error | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (isOutboundError(e)) return e;
    e = typeof e === "object" && e !== null && "cause" in e ? (e as { cause?: unknown }).cause : null;
  }
  return null;
}

interface Playability {
  status?: unknown;
  reason?: unknown;
}

const AGE_STATUSES = new Set(["AGE_VERIFICATION_REQUIRED", "AGE_CHECK_REQUIRED", "CONTENT_CHECK_REQUIRED"]);

/**
 * YouTube playability → SourceError, or null when the video can be read.
 * LOGIN_REQUIRED covers three different things, told apart by the reason YouTube gives (in English:
 * the session asks for hl=en): private videos, the bot check datacenter addresses get, and the age gate.
 */
export function playabilityError(ps: Playability | null | undefined): SourceError | null {
  const status = typeof ps?.status === "string" ? ps.status : "";
  const reason = typeof ps?.reason === "string" ? ps.reason : "";
  if (status === "OK") return null;
  if (status === "ERROR") return sourceError("video_unavailable", "This YouTube video is unavailable: it was removed, or the id is wrong.");
  if (status === "LOGIN_REQUIRED" && /\bprivate\b/i.test(reason)) return sourceError("video_unavailable", "This YouTube video is private.");
  if (status === "LOGIN_REQUIRED" && /\bbot\b/i.test(reason)) {
    return sourceError("upstream_failed", "YouTube refused the request (it asked to confirm this is not a bot). Try again later.");
  }
  if (status === "LOGIN_REQUIRED" || AGE_STATUSES.has(status)) {
    return sourceError("age_restricted", "This YouTube video is age-restricted: YouTube only shows it to signed-in adults.");
  }
  if (status === "") return sourceError("upstream_failed", "YouTube answered without a playability status.");
  return sourceError("upstream_failed", `YouTube cannot play this video (${status.toLowerCase().replace(/_/g, " ")}).`);
}

function isPlayability(value: unknown): value is Playability {
  return typeof value === "object" && value !== null && typeof (value as Playability).status === "string";
}

function trackRef(track: CaptionTrack): YoutubeTrackRef {
  const ref = track.ref as Partial<YoutubeTrackRef> | null | undefined;
  if (!ref || typeof ref.baseUrl !== "string") throw sourceError("upstream_failed", "That caption track has no address to fetch it from.");
  return { baseUrl: ref.baseUrl, languageCode: String(ref.languageCode ?? track.lang), vssId: typeof ref.vssId === "string" ? ref.vssId : null };
}

export function createYoutubeProvider(opts: YoutubeProviderOptions): CaptionProvider {
  const outbound = opts.proxyUrl ? createOutbound({ proxyUrl: opts.proxyUrl }) : opts.outbound;
  const innertubeFetch = createOutboundFetch({ outbound, baseUrl: opts.innertubeBaseUrl });
  let session: Promise<Innertube> | null = null;

  function innertube(): Promise<Innertube> {
    session ??= Innertube.create({
      retrieve_player: false,
      generate_session_locally: true,
      lang: "en",
      location: "US",
      fetch: innertubeFetch,
    }).catch((err: unknown) => {
      session = null; // the next call tries again
      throw err;
    });
    return session;
  }

  async function getInfo(source: ParsedSource): Promise<VideoInfo> {
    if (source.platform !== "youtube") throw sourceError("unsupported_source", "The YouTube provider only reads YouTube videos.");
    let info: Awaited<ReturnType<Innertube["getBasicInfo"]>>;
    try {
      info = await (await innertube()).getBasicInfo(source.videoId);
    } catch (err) {
      const out = outboundCause(err);
      if (out) throw out;
      // youtubei.js throws for status ERROR, with the playability status as `info`.
      if (err instanceof Utils.InnertubeError && isPlayability(err.info)) throw playabilityError(err.info) ?? err;
      throw sourceError("upstream_failed", "YouTube did not answer as expected.", err);
    }

    const refused = playabilityError(info.playability_status);
    if (refused) throw refused;
    const details = info.basic_info;
    if (details.id && details.id !== source.videoId) {
      // YouTube answers some blocked requests with another video's player response.
      throw sourceError("upstream_failed", "YouTube answered with a different video.");
    }

    const tracks: CaptionTrack[] = [];
    for (const ct of info.captions?.caption_tracks ?? []) {
      if (typeof ct.base_url !== "string" || typeof ct.language_code !== "string") continue;
      const auto = ct.kind === "asr";
      const lang = normaliseLanguageCode(ct.language_code);
      const ref: YoutubeTrackRef = { baseUrl: ct.base_url, languageCode: ct.language_code, vssId: ct.vss_id ?? null };
      tracks.push({ lang, name: trackName(ct.name?.toString() ?? "", auto, lang), kind: auto ? "auto" : "manual", ref });
    }

    const duration = Number(details.duration);
    return {
      platform: "youtube",
      videoId: source.videoId,
      canonicalUrl: source.canonicalUrl,
      title: typeof details.title === "string" && details.title !== "" ? details.title : null,
      durationSeconds: Number.isFinite(duration) && duration > 0 ? Math.round(duration) : 0,
      tracks,
    };
  }

  async function fetchTrack(_info: VideoInfo, track: CaptionTrack): Promise<Segment[]> {
    const ref = trackRef(track);
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
    url.searchParams.set("fmt", "json3");

    const res = await outbound.safeFetchBuffer(rewriteYoutubeUrl(url, opts.innertubeBaseUrl), {
      headers: TIMEDTEXT_HEADERS,
      maxBytes: MAX_TRACK_BYTES,
    });
    if (!res.ok) throw sourceError("upstream_failed", `YouTube answered ${res.status} for the caption track.`);
    const body = res.body.toString("utf8");
    // An empty 200 is what YouTube sends when it wants a proof-of-origin token for the track.
    if (body.trim() === "") throw sourceError("upstream_failed", "YouTube sent an empty caption track.");

    let cues;
    try {
      cues = parseCaptions(body, "json3");
    } catch (err) {
      if (err instanceof CaptionParseError) throw sourceError("upstream_failed", "YouTube sent a caption track Verbatim could not read.", err);
      throw err;
    }
    return captionSegments(cues, track.kind);
  }

  return { getInfo, fetchTrack };
}
