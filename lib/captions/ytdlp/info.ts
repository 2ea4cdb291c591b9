/**
 * Reads the info dict that `yt-dlp -J --skip-download --write-subs --write-auto-subs` prints: title,
 * duration and the caption tracks (`subtitles` → manual, `automatic_captions` → auto), with language
 * codes normalized and one subtitle format chosen per track. Pure: no I/O.
 */
import { chaptersFromDescription, chaptersFromList } from "@/lib/captions/chapters";
import type { CaptionKind, CaptionTrack, Chapter } from "@/lib/captions/types";

import type { CaptionFormat as SubtitleFormat } from "../parse";
import { languageName, normalizeLang } from "./language-keys";

/** What fetchTrack needs to get one track: kept in CaptionTrack.ref. */
export interface YtDlpTrackRef {
  /** The subtitle file (or, with protocol "m3u8_native", the HLS playlist of WebVTT segments). */
  url: string | null;
  /** Inline content some extractors (TikTok's aweme API) put in the info dict instead of a URL. */
  data?: string;
  format: SubtitleFormat;
  protocol?: string;
  /** The key of the track in the info dict, e.g. "eng-US", "en_US", "en-x-autogen". */
  key: string;
}

export interface YtDlpInfo {
  /** yt-dlp's id for the item (for X: the media id; the tweet id is `displayId`). */
  id: string | null;
  displayId: string | null;
  title: string | null;
  /** Whole seconds, rounded up; 0 when unknown. */
  durationSeconds: number;
  webpageUrl: string | null;
  extractor: string | null;
  extractorKey: string | null;
  /** The channel, uploader or account name. */
  channel: string | null;
  /** ISO date (from upload_date / release_date) or date-time (from timestamps). */
  publishedAt: string | null;
  /** yt-dlp's chapters, else the description's timestamps. */
  chapters: Chapter[];
  tracks: CaptionTrack[];
}

/** Preference order of the formats we can parse; anything else (TikTok's creator_caption "json", srv1/srv2…) is ignored. */
export const FORMAT_PREFERENCE: readonly SubtitleFormat[] = ["json3", "vtt", "srt", "srv3", "ttml"];

/** "English (auto-generated)" → "English". */
function cleanName(name: string): string {
  return name.replace(/\s*\((?:auto-generated|automatic|automatically generated|ai-generated|auto)\)\s*$/i, "").trim();
}

interface SubtitleEntry {
  url?: unknown;
  data?: unknown;
  ext?: unknown;
  name?: unknown;
  protocol?: unknown;
}

function formatOf(entry: SubtitleEntry): SubtitleFormat | null {
  const ext = typeof entry.ext === "string" ? entry.ext.toLowerCase() : "";
  if (ext === "webvtt") return "vtt";
  if (ext === "dfxp" || ext === "xml") return "ttml";
  return (FORMAT_PREFERENCE as readonly string[]).includes(ext) ? (ext as SubtitleFormat) : null;
}

function usable(entry: SubtitleEntry): boolean {
  const hasUrl = typeof entry.url === "string" && /^https?:\/\//i.test(entry.url);
  const hasData = typeof entry.data === "string" && entry.data !== "";
  if (!hasUrl && !hasData) return false;
  // HLS playlists can only carry WebVTT; other streaming protocols (DASH fragments, rtmp…) we do not fetch.
  if (typeof entry.protocol === "string" && entry.protocol !== "" && !/^(https?|m3u8(_native)?)$/.test(entry.protocol))
    return false;
  if (typeof entry.protocol === "string" && entry.protocol.startsWith("m3u8") && formatOf(entry) !== "vtt")
    return false;
  return formatOf(entry) !== null;
}

/** The best format of one track: json3 > vtt > srt > srv3 > ttml, among the entries we can fetch. */
export function chooseFormat<T extends SubtitleEntry>(entries: readonly T[]): T | null {
  let best: T | null = null;
  let bestRank = Infinity;
  for (const e of entries) {
    if (typeof e !== "object" || e === null || !usable(e)) continue;
    const rank = FORMAT_PREFERENCE.indexOf(formatOf(e) as SubtitleFormat);
    if (rank < bestRank) {
      best = e;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * Where a machine translation's source language starts in its key, or -1. yt-dlp lists YouTube's
 * translations of a manual track as `<target>-<source>`: "de-en", "zh-Hans-en", "fr-en-GB".
 */
function translationSource(parts: readonly string[]): number {
  for (let j = 1; j < parts.length; j++) {
    const p = parts[j] as string;
    if (j === 1 && /^[A-Z][a-z]{3}$/.test(p)) continue; // a script: zh-Hans
    return /^[a-z]{2,3}$/.test(p) && languageName(p) !== null ? j : -1;
  }
  return -1;
}

/** The target language of an automatic track when it is a machine translation, else null. */
export function translationTarget(key: string, url: unknown): string | null {
  const parts = key.split("-");
  const at = translationSource(parts);
  if (at > 0) return parts.slice(0, at).join("-");
  // Translations of auto captions keep the plain key ("de") but ask YouTube for `tlang`.
  try {
    if (typeof url === "string" && new URL(url).searchParams.has("tlang")) return key;
  } catch {
    // not a URL: not a translation we can tell
  }
  return null;
}

function tracksOf(dict: unknown, kind: CaptionKind): CaptionTrack[] {
  if (typeof dict !== "object" || dict === null || Array.isArray(dict)) return [];
  const out: CaptionTrack[] = [];
  for (const [key, entries] of Object.entries(dict as Record<string, unknown>)) {
    if (!Array.isArray(entries)) continue;
    const chosen = chooseFormat(entries as SubtitleEntry[]);
    if (!chosen) continue;
    const target = kind === "auto" ? translationTarget(key, chosen.url) : null;
    const norm = normalizeLang(target ?? key);
    if (!norm) continue;
    const ref: YtDlpTrackRef = {
      url: typeof chosen.url === "string" ? chosen.url : null,
      format: formatOf(chosen) as SubtitleFormat,
      key,
    };
    if (typeof chosen.data === "string" && chosen.data !== "") ref.data = chosen.data;
    if (typeof chosen.protocol === "string" && chosen.protocol !== "") ref.protocol = chosen.protocol;
    const platformName = typeof chosen.name === "string" ? cleanName(chosen.name) : "";
    out.push({
      lang: norm.lang,
      name: languageName(norm.lang) ?? (platformName || norm.lang),
      kind: target !== null ? "translated" : norm.auto ? "auto" : kind,
      ref,
    });
  }
  return out;
}

const KIND_ORDER: Readonly<Record<CaptionKind, number>> = { manual: 0, auto: 1, translated: 2 };

/** Manual tracks first, then auto, then machine translations; one track per (lang, kind), the first one yt-dlp listed. */
export function captionTracks(subtitles: unknown, automaticCaptions: unknown): CaptionTrack[] {
  const seen = new Set<string>();
  const all = [...tracksOf(subtitles, "manual"), ...tracksOf(automaticCaptions, "auto")].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind],
  );
  return all.filter((t) => {
    const id = `${t.kind}:${t.lang}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : null;
}

function firstText(...values: unknown[]): string | null {
  for (const v of values) if (typeof v === "string" && v.trim() !== "") return v.trim();
  return null;
}

/** "20240131" → "2024-01-31"; a Unix timestamp → ISO date-time. */
function publishedAt(info: Record<string, unknown>): string | null {
  for (const key of ["release_date", "upload_date"]) {
    const v = info[key];
    if (typeof v === "string" && /^\d{8}$/.test(v)) return `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
  }
  for (const key of ["release_timestamp", "timestamp"]) {
    const v = info[key];
    if (typeof v === "number" && Number.isFinite(v) && v > 0 && v < 1e11) return new Date(v * 1000).toISOString();
  }
  return null;
}

function hasTracks(entry: Record<string, unknown>): boolean {
  const nonEmpty = (v: unknown) => typeof v === "object" && v !== null && Object.keys(v).length > 0;
  return nonEmpty(entry.subtitles) || nonEmpty(entry.automatic_captions);
}

/**
 * The info dict → what the provider needs. A playlist (a tweet with several videos, an Instagram
 * carousel) yields its first entry that has captions, else its first entry.
 * Throws on anything that is not a yt-dlp info dict.
 */
export function parseInfoJson(input: unknown): YtDlpInfo {
  let doc: unknown = input;
  if (typeof doc === "string") {
    try {
      doc = JSON.parse(doc);
    } catch {
      throw new Error("yt-dlp printed something that is not JSON.");
    }
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new Error("yt-dlp printed no info dict.");
  let info = doc as Record<string, unknown>;
  if (info._type === "playlist" || info._type === "multi_video") {
    const entries = Array.isArray(info.entries)
      ? (info.entries as unknown[]).filter(
          (e): e is Record<string, unknown> => typeof e === "object" && e !== null && !Array.isArray(e),
        )
      : [];
    const entry = entries.find(hasTracks) ?? entries[0];
    if (!entry) throw new Error("yt-dlp found no video in that post.");
    info = { ...entry, title: entry.title ?? info.title, webpage_url: info.webpage_url ?? entry.webpage_url };
  }
  const duration =
    typeof info.duration === "number" && Number.isFinite(info.duration) && info.duration > 0
      ? Math.ceil(info.duration - 1e-9)
      : 0;
  const listed = chaptersFromList(info.chapters);
  return {
    channel: firstText(info.channel, info.uploader, info.creator, info.uploader_id),
    publishedAt: publishedAt(info),
    chapters:
      listed.length > 0
        ? listed
        : chaptersFromDescription(typeof info.description === "string" ? info.description : null, duration),
    id: str(info.id),
    displayId: str(info.display_id),
    title: typeof info.title === "string" && info.title.trim() !== "" ? info.title.trim() : null,
    durationSeconds: duration,
    webpageUrl: str(info.webpage_url),
    extractor: str(info.extractor),
    extractorKey: str(info.extractor_key),
    tracks: captionTracks(info.subtitles, info.automatic_captions),
  };
}

export function isYtDlpTrackRef(ref: unknown): ref is YtDlpTrackRef {
  if (typeof ref !== "object" || ref === null) return false;
  const r = ref as Partial<YtDlpTrackRef>;
  return (
    (typeof r.url === "string" || r.url === null) &&
    typeof r.key === "string" &&
    typeof r.format === "string" &&
    (FORMAT_PREFERENCE as readonly string[]).includes(r.format)
  );
}
