import { runYtDlp } from "@/lib/captions/ytdlp";
import { SourceError } from "@/lib/captions/types";
import type { Outbound } from "@/lib/http/outbound";

// YouTube playlists and channels, listed with yt-dlp's flat-playlist mode (one JSON document, no video page
// fetched per entry) through the one yt-dlp runner (lib/captions/ytdlp/run.ts: no shell, deadline, output cap).

const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"]);
const LIST_ID = /^[A-Za-z0-9_-]{10,64}$/;
const HANDLE = /^@[A-Za-z0-9._-]{1,100}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** A YouTube playlist or channel URL → its canonical form (a channel's Videos tab), or null. */
export function parsePlaylistUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.port) return null;
  if (!YOUTUBE_HOSTS.has(url.hostname.toLowerCase())) return null;
  const seg = url.pathname.split("/").filter(Boolean);
  const list = url.searchParams.get("list");
  if (seg.length === 1 && seg[0] === "playlist" && list && LIST_ID.test(list))
    return `https://www.youtube.com/playlist?list=${list}`;
  const tab =
    seg[seg.length - 1] === "videos" || seg[seg.length - 1] === "streams" || seg[seg.length - 1] === "shorts"
      ? seg.pop()
      : "videos";
  if (seg.length === 1 && HANDLE.test(seg[0]!)) return `https://www.youtube.com/${seg[0]}/${tab}`;
  if (seg.length === 2 && seg[0] === "channel" && CHANNEL_ID.test(seg[1]!))
    return `https://www.youtube.com/channel/${seg[1]}/${tab}`;
  if (seg.length === 2 && (seg[0] === "c" || seg[0] === "user") && NAME.test(seg[1]!))
    return `https://www.youtube.com/${seg[0]}/${seg[1]}/${tab}`;
  return null;
}

export interface PlaylistEntry {
  id: string;
  title: string;
  durationSeconds: number;
}

export interface Playlist {
  title: string | null;
  entries: PlaylistEntry[];
  /** The channel's id (UC…) when a channel was listed (yt-dlp's `channel_id`); null for a playlist. */
  channelId: string | null;
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** The flat-playlist JSON → entries (nested tabs flattened; entries without a video id left out). */
export function parsePlaylistJson(input: unknown, max: number): Playlist {
  const root = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const entries: PlaylistEntry[] = [];
  const seen = new Set<string>();
  const walk = (list: unknown, depth: number) => {
    if (!Array.isArray(list) || depth > 3) return;
    for (const raw of list) {
      if (entries.length >= max) return;
      if (typeof raw !== "object" || raw === null) continue;
      const entry = raw as Record<string, unknown>;
      if (Array.isArray(entry.entries)) {
        walk(entry.entries, depth + 1);
        continue;
      }
      const id = typeof entry.id === "string" ? entry.id : "";
      if (!VIDEO_ID.test(id) || seen.has(id)) continue;
      seen.add(id);
      const duration =
        typeof entry.duration === "number" && Number.isFinite(entry.duration)
          ? Math.max(0, Math.ceil(entry.duration))
          : 0;
      entries.push({
        id,
        title: typeof entry.title === "string" && entry.title ? entry.title : id,
        durationSeconds: duration,
      });
    }
  };
  walk(root.entries, 0);
  const channelId = [root.channel_id, root.id].find((v): v is string => typeof v === "string" && CHANNEL_ID.test(v));
  return { title: typeof root.title === "string" ? root.title : null, entries, channelId: channelId ?? null };
}

export interface PlaylistOptions {
  binary?: string;
  /** The outbound instance whose guard every connection of yt-dlp goes through (default: the strict one). */
  outbound?: Outbound;
  max: number;
  signal?: AbortSignal;
  /** Extra environment for the binary (tests: the fake yt-dlp's mode). */
  env?: Record<string, string>;
  /** Extra arguments before the URL (tests: --no-check-certificates behind a TLS-terminating fake). */
  extraArgs?: readonly string[];
}

/** Lists a playlist or channel (at most `max` entries). Throws SourceError (yt-dlp's failures, mapped). */
export async function listPlaylist(url: string, options: PlaylistOptions): Promise<Playlist> {
  const { stdout } = await runYtDlp(
    [
      "--flat-playlist",
      "--yes-playlist",
      "--dump-single-json",
      "--playlist-end",
      String(options.max),
      ...(options.extraArgs ?? []),
    ],
    {
      url,
      binary: options.binary,
      outbound: options.outbound,
      timeoutMs: 120_000,
      signal: options.signal,
      env: options.env,
    },
  );
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new SourceError("upstream_failed", "yt-dlp printed something other than the playlist's JSON.");
  }
  return parsePlaylistJson(json, options.max);
}
