// A caption track's timedtext: only YouTube's own /api/timedtext address is fetched, as json3 (with the PO
// token when the track needs one), the way a browser player asks, and parsed off the event loop.
import type { Segment } from "@/lib/formats/types";

import { CaptionParseError } from "../parse";
import { CaptionTrackTooLarge, parseCaptionsOffThread } from "../parse-off-thread";
import type { CaptionTrack } from "../types";
import type { InnerTubeClient } from "./clients";
import { sourceError } from "./errors";
import { YOUTUBE_API_HOSTS } from "./fetch";
import { withPoToken } from "./pot";
import type { YoutubeTrackRef } from "./tracks";

/** A caption track is a few hundred KiB at most; 20 MiB is a 10-hour auto track in json3 with room to spare. */
export const MAX_TRACK_BYTES = 20 * 1024 * 1024;

export const TIMEDTEXT_HEADERS = {
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

/** A track's address as the player response gave it, refused unless it is YouTube's timedtext endpoint. */
export function checkedTrackUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw sourceError("upstream_failed", "YouTube gave an invalid caption track address.");
  }
  // Caption tracks live on www.youtube.com; anything else in a baseUrl is not followed.
  if (!YOUTUBE_API_HOSTS.has(url.hostname.toLowerCase()) || url.pathname !== "/api/timedtext") {
    throw sourceError("upstream_failed", "YouTube gave an unexpected caption track address.");
  }
  return url;
}

/** The checked address asking for json3, with the track's PO token (and its client's `c`) when it has one. */
export function json3Url(url: URL, ref: YoutubeTrackRef): URL {
  url.searchParams.set("fmt", "json3");
  return ref.pot && ref.client ? withPoToken(url, ref.pot, CLIENT_NAMES[ref.client] ?? ref.client) : url;
}

/** The track's segments, read in the parse thread; a track over its bounds or unreadable is a SourceError. */
export async function parseTrack(body: Buffer, kind: CaptionTrack["kind"]): Promise<Segment[]> {
  try {
    return await parseCaptionsOffThread(body, "json3", kind);
  } catch (err) {
    if (err instanceof CaptionTrackTooLarge) throw sourceError("response_too_large", err.message, err);
    if (err instanceof CaptionParseError)
      throw sourceError("upstream_failed", "YouTube sent a caption track Verbatim could not read.", err);
    throw err;
  }
}
