import path from "node:path";
import { FORMAT_INFO, type Format } from "@/lib/formats";

// What the watch folder reads and what it writes beside a file. Everything Verbatim writes there ends in an
// extension it never reads (a transcript format's, the note's .txt), and its temporary files are hidden, so the
// folder never feeds itself.

/** Names written beside a file, and anything else of these kinds, are never read as recordings. */
const NEVER_READ = new Set(["srt", "vtt", "md", "txt", "json"]);

/**
 * Names of a copy still in progress under a temporary name (browsers, rsync, Finder's and Windows' partial files):
 * read once they are renamed to their own name.
 */
const IN_PROGRESS = new Set(["part", "partial", "crdownload", "download", "tmp", "temp", "filepart", "opdownload"]);

export const NOTE_SUFFIX = ".verbatim-error.txt";

/** True for a name the watch reads: not hidden (dotfiles, macOS's ._ files), not ours, not a copy in progress. */
export function isCandidate(name: string): boolean {
  if (name.startsWith(".") || name.startsWith("~$") || name.endsWith("~")) return false;
  const ext = path.extname(name).slice(1).toLowerCase();
  return !NEVER_READ.has(ext) && !IN_PROGRESS.has(ext);
}

/** A folder the walk enters: not hidden (.git, .Trash, .stfolder, .sync). */
export function isWalkedFolder(name: string): boolean {
  return !name.startsWith(".") && !name.startsWith("@"); // @eaDir: Synology's thumbnails
}

/** `talk.mp3` in `srt` → `talk.mp3.srt`: the whole name, so two recordings never share a result. */
export function resultName(mediaName: string, format: Format): string {
  return `${mediaName}.${FORMAT_INFO[format].extension}`;
}

/** `notes.pdf` → `notes.pdf.verbatim-error.txt`. */
export function noteName(mediaName: string): string {
  return `${mediaName}${NOTE_SUFFIX}`;
}

/** A hidden name in the same folder for writing `target` before it takes its own name. */
export function tempName(target: string, random: string): string {
  return `.${target.slice(0, 180)}.verbatim-${random}.tmp`;
}

/**
 * `candidate` (a real, absolute path) inside `root` (the folder's real path), or the folder itself? Compared by
 * path segments, so `/watch-other` is not inside `/watch`.
 */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
