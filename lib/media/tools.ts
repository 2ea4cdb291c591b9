/**
 * What ffmpeg and ffprobe are allowed to open. Files come from users and platforms, so the input side
 * is locked down:
 * - `-protocol_whitelist file,pipe`: no network protocol (an HLS or DASH playlist cannot make ffmpeg
 *   fetch anything), nothing but local files;
 * - `-format_whitelist`: only container demuxers for audio/video files. No playlists (hls, concat,
 *   dash), no image sequences, no text formats: a file cannot point ffmpeg at other files on this
 *   machine, and a text file is never "media";
 * - the input is passed as `file:<absolute path>`, so no name is ever read as a protocol or an option.
 */
import path from "node:path";

/** Demuxers (ffmpeg -demuxers names) accepted for input files. */
export const INPUT_DEMUXERS: readonly string[] = [
  "aac",
  "ac3",
  "aiff",
  "amr",
  "amrnb",
  "amrwb",
  "ape",
  "asf",
  "au",
  "avi",
  "caf",
  "dsf",
  "dts",
  "dtshd",
  "eac3",
  "flac",
  "flv",
  "live_flv",
  "gsm",
  "loas",
  "matroska",
  "webm",
  "mov",
  "mp4",
  "m4a",
  "3gp",
  "3g2",
  "mj2",
  "mp3",
  "mpc",
  "mpc8",
  "mpeg",
  "mpegts",
  "mxf",
  "nut",
  "ogg",
  "oma",
  "rm",
  "shn",
  "tak",
  "truehd",
  "mlp",
  "tta",
  "voc",
  "w64",
  "wav",
  "wv",
  "xwma",
];

/** Input options for every ffmpeg/ffprobe run, placed before `-i`. */
export const INPUT_GUARD_ARGS: readonly string[] = [
  "-protocol_whitelist",
  "file,pipe",
  "-format_whitelist",
  INPUT_DEMUXERS.join(","),
];

/** Output options that keep the input's first audio stream alone: no video, subtitles, data or metadata. */
/** How the recognisers' ffmpeg steps start: no banner, no stdin, errors only, output overwritten. */
export const QUIET_OVERWRITE_ARGS: readonly string[] = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"];

export const FIRST_AUDIO_ONLY_ARGS: readonly string[] = ["-map", "0:a:0", "-vn", "-sn", "-dn", "-map_metadata", "-1"];

/** `file:/absolute/path`: never read as another protocol, an option, or a relative name. */
export function fileUrl(p: string): string {
  return `file:${path.resolve(p)}`;
}

export interface ToolPaths {
  /** Default "ffmpeg": from PATH, else the one npm installed (lib/process/media-tools.ts). */
  ffmpegPath?: string;
  /** Default "ffprobe": from PATH, else the one npm installed. */
  ffprobePath?: string;
}

/** Lines of stderr that say the input is not media we can read (as opposed to a tool failure). */
export const NOT_MEDIA_PATTERN =
  /Invalid data found when processing input|not on whitelist|Invalid argument|could not find codec parameters|Failed to read frame size|moov atom not found|EBML header parsing failed|does not contain any stream|matches no streams|Output file #0 does not contain any stream|Unknown input format|End of file/i;
