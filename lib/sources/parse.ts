/**
 * Recognises a user-supplied source URL and canonicalises it. Pure: no I/O, no process.env.
 *
 * Each platform matches on an exact host list (so `youtube.com.evil.com` and `notyoutube.com` are
 * nobody) and a strict path/id pattern. Short links that only the platform can expand come back with
 * `needsResolve: true`; pass them to `resolveShortLink` (resolve.ts).
 */
import { createHash } from "node:crypto";

import { type CheckUrlOptions, checkUrl } from "@/lib/http/outbound/guard";

import { PLATFORMS, type Platform } from "./platforms";

export { PLATFORMS, type Platform };

export interface ParsedSource {
  platform: Platform;
  /**
   * The platform's id for the item (YouTube 11-char id, tweet/status id, TikTok/Facebook/Vimeo
   * numeric id, Instagram shortcode, RedNote note id). For short links: the short code. For
   * `podcast`: first 16 hex chars of sha256(canonicalUrl).
   */
  videoId: string;
  /** One URL per item, whatever form was pasted. For short links: the normalized short link. */
  canonicalUrl: string;
  /** True for short links (vm.tiktok.com, fb.watch, xhslink.com, ...): call resolveShortLink. */
  needsResolve?: boolean;
}

export interface ParseOptions {
  /** Passed to the outbound guard for direct-file URLs (test hook for local fake servers). */
  allowPrivateFor?: CheckUrlOptions["allowPrivateFor"];
}

export const MAX_SOURCE_URL_LENGTH = 2048;

export const AUDIO_EXTENSIONS = [
  ".mp3",
  ".m4a",
  ".aac",
  ".wav",
  ".ogg",
  ".oga",
  ".opus",
  ".flac",
  ".webm",
  ".mp4",
  ".m4b",
] as const;

export const SUPPORTED_PLATFORMS_SENTENCE =
  "Supported sources are YouTube, X (Twitter), TikTok, Facebook, Instagram, RedNote (Xiaohongshu) and Vimeo links, " +
  `direct links to audio or video files (${AUDIO_EXTENSIONS.join(", ")}), and file uploads.`;

// ---------------------------------------------------------------------------------------------------

const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"]);
const YOUTUBE_NOCOOKIE_HOSTS = new Set(["youtube-nocookie.com", "www.youtube-nocookie.com"]);
const YOUTU_BE_HOSTS = new Set(["youtu.be", "www.youtu.be"]);
const X_HOSTS = new Set(["x.com", "www.x.com", "mobile.x.com", "twitter.com", "www.twitter.com", "mobile.twitter.com"]);
const TIKTOK_HOSTS = new Set(["tiktok.com", "www.tiktok.com", "m.tiktok.com"]);
const TIKTOK_SHORT_HOSTS = new Set(["vm.tiktok.com", "vt.tiktok.com"]);
const FACEBOOK_HOSTS = new Set([
  "facebook.com",
  "www.facebook.com",
  "m.facebook.com",
  "web.facebook.com",
  "mbasic.facebook.com",
]);
const FB_WATCH_HOSTS = new Set(["fb.watch", "www.fb.watch"]);
const INSTAGRAM_HOSTS = new Set(["instagram.com", "www.instagram.com", "m.instagram.com"]);
const REDNOTE_HOSTS = new Set(["xiaohongshu.com", "www.xiaohongshu.com", "rednote.com", "www.rednote.com"]);
const XHSLINK_HOSTS = new Set(["xhslink.com", "www.xhslink.com"]);
const VIMEO_HOSTS = new Set(["vimeo.com", "www.vimeo.com"]);
const VIMEO_PLAYER_HOSTS = new Set(["player.vimeo.com"]);

const ALL_PLATFORM_HOSTS = new Set([
  ...YOUTUBE_HOSTS,
  ...YOUTUBE_NOCOOKIE_HOSTS,
  ...YOUTU_BE_HOSTS,
  ...X_HOSTS,
  ...TIKTOK_HOSTS,
  ...TIKTOK_SHORT_HOSTS,
  ...FACEBOOK_HOSTS,
  ...FB_WATCH_HOSTS,
  ...INSTAGRAM_HOSTS,
  ...REDNOTE_HOSTS,
  ...XHSLINK_HOSTS,
  ...VIMEO_HOSTS,
  ...VIMEO_PLAYER_HOSTS,
]);

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const NUMERIC_ID = /^[0-9]{1,25}$/;
const X_USER = /^[A-Za-z0-9_]{1,15}$/;
const TIKTOK_USER = /^@[A-Za-z0-9._-]{0,64}$/;
const SHORT_CODE = /^[A-Za-z0-9_-]{3,32}$/;
const INSTAGRAM_CODE = /^[A-Za-z0-9_-]{5,64}$/;
const REDNOTE_ID = /^[0-9a-f]{24}$/;
const VIMEO_HASH = /^[0-9a-f]{6,20}$/;

/** Path segments without empty ones, so trailing and doubled slashes do not matter. */
function segments(url: URL): string[] {
  return url.pathname.split("/").filter((s) => s !== "");
}

function result(platform: Platform, videoId: string, canonicalUrl: string, needsResolve = false): ParsedSource {
  return needsResolve ? { platform, videoId, canonicalUrl, needsResolve: true } : { platform, videoId, canonicalUrl };
}

function toUrl(raw: string): URL | null {
  if (typeof raw !== "string") return null;
  const text = raw.trim();
  if (text === "" || text.length > MAX_SOURCE_URL_LENGTH) return null;
  let candidate = text;
  // Pasted without a scheme ("youtu.be/abc", "www.youtube.com/watch?v=..."): assume https.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/|\?|$)/i.test(text)) return null;
    candidate = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username !== "" || url.password !== "") return null;
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.+$/, "");
}

// ---------------------------------------------------------------------------------------------------
// Platforms
// ---------------------------------------------------------------------------------------------------

function youtube(url: URL, host: string): ParsedSource | null {
  const seg = segments(url);
  let id: string | null = null;
  if (YOUTU_BE_HOSTS.has(host)) {
    if (seg.length === 1) id = seg[0] ?? null;
  } else if (YOUTUBE_NOCOOKIE_HOSTS.has(host)) {
    if (seg.length === 2 && seg[0] === "embed") id = seg[1] ?? null;
  } else if (seg[0] === "watch" && seg.length === 1) {
    id = url.searchParams.get("v");
  } else if (seg.length === 2 && ["shorts", "live", "embed", "v", "e", "watch"].includes(seg[0] ?? "")) {
    id = seg[1] ?? null;
  }
  if (id === null || !YOUTUBE_ID.test(id)) return null;
  return result("youtube", id, `https://www.youtube.com/watch?v=${id}`);
}

function x(url: URL): ParsedSource | null {
  const seg = segments(url);
  let id: string | undefined;
  // /i/status/<id>, /i/web/status/<id>, /<user>/status/<id>[/photo/1|/video/1|/analytics]
  if (seg[0] === "i" && seg[1] === "status") id = seg[2];
  else if (seg[0] === "i" && seg[1] === "web" && seg[2] === "status") id = seg[3];
  else if (seg[0] !== undefined && X_USER.test(seg[0]) && (seg[1] === "status" || seg[1] === "statuses")) id = seg[2];
  if (id === undefined || !NUMERIC_ID.test(id)) return null;
  return result("x", id, `https://x.com/i/status/${id}`);
}

function tiktok(url: URL, host: string): ParsedSource | null {
  const seg = segments(url);
  if (TIKTOK_SHORT_HOSTS.has(host)) {
    const code = seg[0];
    if (seg.length !== 1 || code === undefined || !SHORT_CODE.test(code)) return null;
    return result("tiktok", code, `https://${host}/${code}/`, true);
  }
  let id: string | undefined;
  if (seg.length >= 3 && TIKTOK_USER.test(seg[0] ?? "") && seg[1] === "video") id = seg[2];
  else if (seg.length === 2 && seg[0] === "t") {
    const code = seg[1];
    if (code === undefined || !SHORT_CODE.test(code)) return null;
    return result("tiktok", code, `https://www.tiktok.com/t/${code}/`, true);
  } else if (seg.length === 2 && seg[0] === "v") id = seg[1]?.replace(/\.html$/, "");
  else if (seg[0] === "embed" && seg.length === 2) id = seg[1];
  else if (seg[0] === "embed" && seg[1] === "v2" && seg.length === 3) id = seg[2];
  else if (seg[0] === "player" && seg[1] === "v1" && seg.length === 3) id = seg[2];
  if (id === undefined || !NUMERIC_ID.test(id)) return null;
  // TikTok serves a video from /@/video/<id> whatever the author, which keeps one URL per video.
  return result("tiktok", id, `https://www.tiktok.com/@/video/${id}`);
}

function facebook(url: URL, host: string): ParsedSource | null {
  const seg = segments(url);
  if (FB_WATCH_HOSTS.has(host)) {
    const code = seg[0];
    if (seg.length !== 1 || code === undefined || !SHORT_CODE.test(code)) return null;
    return result("facebook", code, `https://fb.watch/${code}/`, true);
  }
  let id: string | null | undefined;
  if (seg[0] === "watch" && seg.length <= 2 && (seg[1] === undefined || seg[1] === "live"))
    id = url.searchParams.get("v");
  else if (seg[0] === "video.php" && seg.length === 1) id = url.searchParams.get("v");
  else if ((seg[0] === "reel" || seg[0] === "reels") && seg.length === 2) id = seg[1];
  else if (seg[0] === "share" && (seg[1] === "v" || seg[1] === "r") && seg.length === 3) {
    const code = seg[2];
    if (code === undefined || !SHORT_CODE.test(code)) return null;
    return result("facebook", code, `https://www.facebook.com/share/${seg[1]}/${code}/`, true);
  } else if (seg[1] === "videos" && seg.length >= 3) {
    // /<page>/videos/<id>/ and the older /<page>/videos/<slug>/<id>/
    id = seg.length === 3 ? seg[2] : seg.length === 4 ? seg[3] : undefined;
  }
  if (id === null || id === undefined || !NUMERIC_ID.test(id)) return null;
  return result("facebook", id, `https://www.facebook.com/watch/?v=${id}`);
}

function instagram(url: URL): ParsedSource | null {
  let seg = segments(url);
  // Newer links carry the author first: /<user>/p/<code>/, /<user>/reel/<code>/
  if (seg.length === 3 && ["p", "reel", "reels", "tv"].includes(seg[1] ?? "")) seg = seg.slice(1);
  if (seg.length !== 2 || !["p", "reel", "reels", "tv"].includes(seg[0] ?? "")) return null;
  const code = seg[1];
  if (code === undefined || !INSTAGRAM_CODE.test(code)) return null;
  return result("instagram", code, `https://www.instagram.com/p/${code}/`);
}

function rednote(url: URL, host: string): ParsedSource | null {
  const seg = segments(url);
  if (XHSLINK_HOSTS.has(host)) {
    // xhslink.com/<code> and the newer xhslink.com/<a|m|o>/<code>
    const parts = seg.length === 2 && /^[a-z]$/.test(seg[0] ?? "") ? seg : seg.length === 1 ? seg : null;
    const code = parts?.[parts.length - 1];
    if (!parts || code === undefined || !SHORT_CODE.test(code)) return null;
    return result("rednote", code, `https://xhslink.com/${parts.join("/")}`, true);
  }
  let id: string | undefined;
  if (seg[0] === "explore" && seg.length === 2) id = seg[1];
  else if (seg[0] === "discovery" && seg[1] === "item" && seg.length === 3) id = seg[2];
  else if (seg[0] === "user" && seg[1] === "profile" && seg.length === 4) id = seg[3];
  if (id === undefined) return null;
  id = id.toLowerCase();
  if (!REDNOTE_ID.test(id)) return null;
  return result("rednote", id, `https://www.xiaohongshu.com/explore/${id}`);
}

function vimeo(url: URL, host: string): ParsedSource | null {
  const seg = segments(url);
  let id: string | undefined;
  let hash: string | null | undefined;
  if (VIMEO_PLAYER_HOSTS.has(host)) {
    if (seg[0] !== "video" || seg.length !== 2) return null;
    id = seg[1];
    hash = url.searchParams.get("h");
  } else if (seg.length === 1 || (seg.length === 2 && VIMEO_HASH.test(seg[1] ?? ""))) {
    id = seg[0];
    hash = seg[1];
  } else if (seg[0] === "channels" && seg.length === 3) id = seg[2];
  else if (seg[0] === "groups" && seg[2] === "videos" && seg.length === 4) id = seg[3];
  else if ((seg[0] === "album" || seg[0] === "showcase") && seg[2] === "video" && seg.length === 4) id = seg[3];
  else if (seg[0] === "video" && seg.length === 2) id = seg[1];
  if (id === undefined || !/^[0-9]{1,15}$/.test(id)) return null;
  // The hash of an unlisted video is part of its address: without it the video cannot be fetched.
  const canonical = hash && VIMEO_HASH.test(hash) ? `https://vimeo.com/${id}/${hash}` : `https://vimeo.com/${id}`;
  return result("vimeo", id, canonical);
}

function directFile(url: URL, opts: ParseOptions): ParsedSource | null {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname).toLowerCase();
  } catch {
    return null;
  }
  if (!AUDIO_EXTENSIONS.some((ext) => path.endsWith(ext) && path.length > ext.length + 1)) return null;
  // Internal hosts are never a source; the outbound module would refuse them at fetch time anyway.
  try {
    checkUrl(url.href, { allowPrivateFor: opts.allowPrivateFor, maxLength: MAX_SOURCE_URL_LENGTH });
  } catch {
    return null;
  }
  const normalized = new URL(url.href);
  normalized.hash = "";
  const canonicalUrl = normalized.href;
  const videoId = createHash("sha256").update(canonicalUrl).digest("hex").slice(0, 16);
  return result("podcast", videoId, canonicalUrl);
}

/**
 * Recognises a source URL. Returns null for anything unsupported (other hosts, lookalike hosts,
 * malformed ids, non-http schemes, URLs with credentials, longer than 2048 characters).
 * Never returns platform "upload" (that is for files sent to the API directly).
 */
export function parseSourceUrl(raw: string, opts: ParseOptions = {}): ParsedSource | null {
  const url = toUrl(raw);
  if (!url) return null;
  const host = hostOf(url);
  if (ALL_PLATFORM_HOSTS.has(host)) {
    // Platform hosts only ever answer on their default ports.
    if (url.port !== "") return null;
    if (YOUTUBE_HOSTS.has(host) || YOUTUBE_NOCOOKIE_HOSTS.has(host) || YOUTU_BE_HOSTS.has(host))
      return youtube(url, host);
    if (X_HOSTS.has(host)) return x(url);
    if (TIKTOK_HOSTS.has(host) || TIKTOK_SHORT_HOSTS.has(host)) return tiktok(url, host);
    if (FACEBOOK_HOSTS.has(host) || FB_WATCH_HOSTS.has(host)) return facebook(url, host);
    if (INSTAGRAM_HOSTS.has(host)) return instagram(url);
    if (REDNOTE_HOSTS.has(host) || XHSLINK_HOSTS.has(host)) return rednote(url, host);
    if (VIMEO_HOSTS.has(host) || VIMEO_PLAYER_HOSTS.has(host)) return vimeo(url, host);
    return null;
  }
  return directFile(url, opts);
}

export function isPlatform(value: unknown): value is Platform {
  return typeof value === "string" && (PLATFORMS as readonly string[]).includes(value);
}
