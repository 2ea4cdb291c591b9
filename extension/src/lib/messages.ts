// The messages between the page's content script and the extension's pages. Each side checks what it receives:
// the content script runs beside a page that may be hostile, so the panel believes only well-formed numbers and
// an address, never markup or code, and the content script obeys only the two requests below.
import { showOf } from "./show";

/** Content script → extension: the page's player, as it is now. */
export interface PlayerState {
  type: "verbatim:state";
  /** The page's address (YouTube's changes on its single-page navigation). */
  url: string;
  /** The media element's own source, when it is an http(s) address (a page's <audio>/<video>), else null. */
  media: string | null;
  /** Whether the page has a media element at all. */
  player: boolean;
  time: number;
  duration: number | null;
  paused: boolean;
  /** The show the page belongs to (a YouTube channel, a podcast's feed: ./show.ts), or null. */
  show: string | null;
}

/** Extension → content script. */
export type PlayerRequest = { type: "verbatim:seek"; time: number } | { type: "verbatim:ask" };

const MAX_URL = 2048;
const MAX_SECONDS = 7 * 24 * 3600;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const seconds = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= MAX_SECONDS;

function httpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MAX_URL) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A player state from a content script, or null for anything else. */
export function parsePlayerState(value: unknown): PlayerState | null {
  if (!isRecord(value) || value.type !== "verbatim:state") return null;
  const url = httpUrl(value.url);
  if (!url || !seconds(value.time) || typeof value.paused !== "boolean" || typeof value.player !== "boolean")
    return null;
  if (value.duration !== null && !seconds(value.duration)) return null;
  if (value.media !== null && httpUrl(value.media) === null) return null;
  return {
    type: "verbatim:state",
    url,
    media: value.media === null ? null : httpUrl(value.media),
    player: value.player,
    time: value.time,
    duration: value.duration,
    paused: value.paused,
    // Checked again on this side: only a channel's or a feed's address, for this page.
    show: typeof value.show === "string" ? showOf(url, { channel: value.show, feed: value.show }) : null,
  };
}

/** A request to the content script, or null for anything else. */
export function parsePlayerRequest(value: unknown): PlayerRequest | null {
  if (!isRecord(value)) return null;
  if (value.type === "verbatim:ask") return { type: "verbatim:ask" };
  if (value.type === "verbatim:seek" && seconds(value.time)) return { type: "verbatim:seek", time: value.time };
  return null;
}

const YOUTUBE_HOSTS = new Set(["www.youtube.com", "m.youtube.com", "youtube.com", "music.youtube.com"]);

/** The video a YouTube watch (or shorts) address names, or null. */
export function youtubeVideoId(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (!YOUTUBE_HOSTS.has(url.hostname)) return null;
  const id =
    url.pathname === "/watch"
      ? url.searchParams.get("v")
      : (/^\/(?:shorts|live)\/([^/]+)/.exec(url.pathname)?.[1] ?? null);
  return id && /^[A-Za-z0-9_-]{11}$/.test(id) ? id : null;
}

/**
 * What to ask Verbatim for on this page: the YouTube video; else the page itself when its media plays from a
 * blob or stream (Verbatim reads pages it knows, such as a podcast episode's); else the media file's address.
 */
export function transcriptSource(state: PlayerState): { url: string } | { audio: string } | null {
  const id = youtubeVideoId(state.url);
  if (id) return { url: `https://www.youtube.com/watch?v=${id}` };
  if (!state.player) return null;
  return state.media ? { audio: state.media } : { url: state.url };
}
