// Browser-side file uploads: sign (POST /v1/uploads/sign), then PUT the bytes to the signed URL with
// XMLHttpRequest, whose upload events give a progress bar (fetch has none for request bodies).

import type { SignedUpload } from "@/lib/uploads/schemas";
import { apiFetch, ApiRequestError, errorCode, errorMessage } from "@/lib/browser/api";

export type { SignedUpload };

/** What the file picker offers; the server decides in the end (allow-list, then the file's first bytes). */
export const UPLOAD_ACCEPT = "audio/*,video/*";

// Names browsers and systems give to types the API knows under another one.
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  "audio/mp3": "audio/mpeg",
  "audio/x-mp3": "audio/mpeg",
  "audio/mpeg3": "audio/mpeg",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/x-flac": "audio/flac",
  "audio/m4a": "audio/mp4",
  "audio/x-aac": "audio/aac",
  "audio/x-ogg": "audio/ogg",
  "video/x-m4v": "video/mp4",
};

// When the browser reports no type at all (an unknown extension on this system), the extension decides.
const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  weba: "audio/webm",
  flac: "audio/flac",
  aac: "audio/aac",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mkv: "video/x-matroska",
};

/**
 * The Content-Type to sign and send for a file: the browser's type (aliases mapped to the API's names),
 * else one from the extension, else application/octet-stream (which the API refuses with a clear 415).
 */
export function uploadContentType(file: { name: string; type: string }): string {
  const declared = file.type.trim().toLowerCase();
  if (declared) return TYPE_ALIASES[declared] ?? declared;
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(file.name)?.[1]?.toLowerCase() ?? "";
  return EXTENSION_TYPES[extension] ?? "application/octet-stream";
}

/** Whether a chosen file is audio or video by its type or extension: anything else is refused before uploading. */
export function isAudioOrVideo(file: { name: string; type: string }): boolean {
  return /^(audio|video)\//.test(uploadContentType(file));
}

export function signUpload(filename: string, contentType: string): Promise<SignedUpload> {
  return apiFetch<SignedUpload>("/v1/uploads/sign", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ filename, content_type: contentType }),
  });
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * PUTs `file` to a signed URL with exactly the signed Content-Type. Resolves when the store has it;
 * rejects with an ApiRequestError carrying the store's `detail` (413, 415, 403…), or an AbortError.
 */
export function putFile(
  url: string,
  file: Blob,
  contentType: string,
  { onProgress, signal }: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException("The upload was cancelled.", "AbortError"));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (event) =>
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      signal?.removeEventListener("abort", abort);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.({ loaded: file.size, total: file.size });
        resolve();
        return;
      }
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON (a proxy's page, S3's XML): the status alone
      }
      reject(new ApiRequestError(xhr.status, errorMessage(xhr.status, body), errorCode(body)));
    };
    xhr.onerror = () => {
      signal?.removeEventListener("abort", abort);
      reject(new ApiRequestError(0, "The upload failed: the connection was lost. Try again."));
    };
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    const abort = () => xhr.abort();
    signal?.addEventListener("abort", abort, { once: true });
    xhr.send(file);
  });
}

/** 0 → "0 B", 1536 → "1.5 KB", 5_242_880 → "5.0 MB" (binary units, as file managers mostly show them). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
