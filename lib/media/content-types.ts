// Which media types a direct download accepts, and the file extension it is stored under.
import path from "node:path";

/** Playlists live under audio/* but are text pointing elsewhere: never a file we transcribe. */
const PLAYLIST_TYPES = new Set(["audio/x-mpegurl", "audio/mpegurl", "audio/x-scpls", "audio/scpls", "audio/x-ms-asx"]);
/** Generic binary types: the bytes decide (ffprobe). `binary/octet-stream` is S3's old default. */
const GENERIC_TYPES = new Set(["application/octet-stream", "binary/octet-stream", "application/ogg"]);

/** The media type of a Content-Type header, lower case, without parameters ("" when absent). */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Whether a download with this Content-Type may be audio: audio/*, video/*, generic binary types, or
 * no type at all (then ffprobe decides). HTML, JSON, text, images and playlists are refused.
 */
export function isAcceptedContentType(contentType: string | null | undefined): boolean {
  const type = mediaTypeOf(contentType);
  if (type === "") return true;
  if (PLAYLIST_TYPES.has(type)) return false;
  return type.startsWith("audio/") || type.startsWith("video/") || GENERIC_TYPES.has(type);
}

const EXTENSIONS: Record<string, string> = {
  "audio/mpeg": ".mp3",
  "audio/mp3": ".mp3",
  "audio/mp4": ".m4a",
  "audio/x-m4a": ".m4a",
  "audio/m4a": ".m4a",
  "audio/aac": ".aac",
  "audio/aacp": ".aac",
  "audio/wav": ".wav",
  "audio/x-wav": ".wav",
  "audio/wave": ".wav",
  "audio/ogg": ".ogg",
  "audio/opus": ".opus",
  "application/ogg": ".ogg",
  "audio/flac": ".flac",
  "audio/x-flac": ".flac",
  "audio/webm": ".webm",
  "video/webm": ".webm",
  "video/mp4": ".mp4",
  "video/quicktime": ".mov",
  "video/x-matroska": ".mkv",
  "audio/aiff": ".aiff",
  "audio/x-aiff": ".aiff",
  "audio/amr": ".amr",
};

/** A file extension for the download: from the Content-Type, else the URL's, else ".bin". */
export function extensionFor(type: string, url: string): string {
  const fromType = EXTENSIONS[type];
  if (fromType) return fromType;
  try {
    const ext = path.extname(new URL(url).pathname).toLowerCase();
    if (/^\.[a-z0-9]{1,5}$/.test(ext)) return ext;
  } catch {
    // not a URL we can read an extension from
  }
  return ".bin";
}
