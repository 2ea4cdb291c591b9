import path from "node:path";
import { randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// Names and places of uploaded objects, shared by signing, receiving and resolving.
//
//   object path:  uploads/<userId>/<22 random base64url chars>/<safe filename>
//   local file:   <DATA_DIR>/uploads/<object path>            (only once complete and valid)
//   in progress:  <DATA_DIR>/uploads/<object path>.partial    (never served)
//   S3 key:       <object path>

/** The media types an upload may declare (audio/* and video/* that speech recognition reads). */
export const ALLOWED_CONTENT_TYPES = [
  "audio/mpeg",
  "audio/mp4",
  "audio/x-m4a",
  "audio/wav",
  "audio/x-wav",
  "audio/ogg",
  "audio/webm",
  "audio/flac",
  "audio/aac",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "video/x-matroska",
] as const;

export type UploadContentType = (typeof ALLOWED_CONTENT_TYPES)[number];

/** How long a signed PUT URL is valid. */
export const PUT_URL_TTL_SECONDS = 15 * 60;

/** The prefix that marks an upload in `source_url` (and is accepted, optionally, wherever an object path is). */
export const SOURCE_PREFIX = "upload:";

const RANDOM_BYTES = 16; // 22 base64url characters
const MAX_FILENAME = 120;

/** Lower-cased and trimmed; null when not on the allow-list (parameters such as `; codecs=…` are not allowed). */
export function allowedContentType(value: string): UploadContentType | null {
  const type = value.trim().toLowerCase();
  return (ALLOWED_CONTENT_TYPES as readonly string[]).includes(type) ? (type as UploadContentType) : null;
}

/**
 * A name that is safe as one path segment, in a URL and as an S3 key: the last component only,
 * accents folded, anything outside [A-Za-z0-9._-] collapsed to "_", no leading dot, at most 120
 * characters with the extension kept. "upload" when nothing is left.
 */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  let safe = base
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/_*\._*/g, ".")
    .replace(/^[._-]+/, "")
    .replace(/[._-]+$/, "");
  if (safe.length > MAX_FILENAME) {
    const ext = /\.[A-Za-z0-9]{1,10}$/.exec(safe)?.[0] ?? "";
    safe = safe.slice(0, MAX_FILENAME - ext.length).replace(/[._-]+$/, "") + ext;
  }
  return safe || "upload";
}

/** The name kept for display: the given one without control characters, at most 255 characters. */
export function displayFilename(name: string): string {
  return (
    name
      .replace(/[\u0000-\u001f\u007f]/g, "")
      .trim()
      .slice(0, 255) || "upload"
  );
}

export function newObjectPath(userId: string, filename: string): string {
  return `uploads/${userId}/${randomBytes(RANDOM_BYTES).toString("base64url")}/${safeFilename(filename)}`;
}

const OBJECT_PATH = /^uploads\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,119}$/;

/** True only for paths newObjectPath can produce (so never "..", never absolute, never nested deeper). */
export function isObjectPath(value: string): boolean {
  return OBJECT_PATH.test(value);
}

/** An object path from `uploads/…` or `upload:uploads/…`; null for anything else. */
export function parseObjectPath(value: string): string | null {
  const candidate = value.startsWith(SOURCE_PREFIX) ? value.slice(SOURCE_PREFIX.length) : value;
  return isObjectPath(candidate) ? candidate : null;
}

export function uploadsRoot(): string {
  return path.resolve(env().DATA_DIR, "uploads");
}

/** Where an object lives on disk, complete and while it is being received. */
export function localPaths(objectPath: string): { final: string; partial: string; dir: string } {
  if (!isObjectPath(objectPath)) throw new Error(`Not an upload object path: ${objectPath}`);
  const root = uploadsRoot();
  const final = path.resolve(root, objectPath);
  if (!final.startsWith(root + path.sep)) throw new Error(`Upload path escapes the uploads folder: ${objectPath}`);
  return { final, partial: `${final}.partial`, dir: path.dirname(final) };
}
