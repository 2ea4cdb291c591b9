// YouTube's caption tracks as the rest of Verbatim sees them: language codes and names normalized, and the ref
// a track carries from the player response that listed it to the fetch of its timedtext.
import type { ParsedSource } from "@/lib/sources";

import type { CaptionTrack, VideoInfo } from "../types";
import type { InnerTubeClient } from "./clients";
import { sourceError } from "./errors";
import type { Served } from "./lookup";
import type { PlayerDetails, RawTrack } from "./player-response";

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

export function trackRef(track: CaptionTrack): YoutubeTrackRef {
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

export function toTrack(t: RawTrack, served: Served): CaptionTrack {
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

export function sameTrack(t: RawTrack, wanted: CaptionTrack): boolean {
  const ref = wanted.ref as Partial<YoutubeTrackRef> | null;
  const code = typeof ref?.languageCode === "string" ? ref.languageCode : wanted.lang;
  return t.languageCode === code && t.auto === (wanted.kind === "auto");
}

export function infoFrom(
  source: ParsedSource,
  details: PlayerDetails,
  tracks: CaptionTrack[],
  servedBy: string,
): VideoInfo {
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
