import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { errors } from "@/lib/http/errors";
import { parseObjectPath } from "@/lib/uploads/objects";
import { resolveUploadForUser } from "@/lib/uploads/resolve-upload";
import { ORIGINAL, readTranscript } from "@/lib/transcripts/read";

/** A single `bytes=` range of a file of `size` bytes, inclusive; null for none, or for a form we do not serve (several ranges). */
export function parseByteRange(
  header: string | null,
  size: number,
): { start: number; end: number } | null | "unsatisfiable" {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    // The last N bytes.
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/**
 * GET /v1/transcripts/{id}/media: the caller's own uploaded file behind a transcript, so the dashboard
 * can play it beside the text. The upload must still be kept (resolveUploadForUser: owner, complete,
 * within retention); the local store answers byte ranges (players seek with them), S3 redirects to a
 * presigned GET.
 */
export async function transcriptMedia(userId: string, transcriptId: string, range: string | null): Promise<Response> {
  const transcript = await readTranscript(userId, transcriptId, { revision: ORIGINAL });
  const objectPath = transcript.platform === "upload" ? parseObjectPath(transcript.sourceUrl) : null;
  if (!objectPath) throw errors.notFound("This transcript is not of an uploaded file.");
  const upload = await resolveUploadForUser(userId, objectPath);
  const headers: Record<string, string> = { "cache-control": "private, no-store" };
  if (upload.url !== undefined)
    return new Response(null, { status: 302, headers: { ...headers, location: upload.url } });

  const size = upload.sizeBytes;
  Object.assign(headers, {
    "content-type": upload.contentType,
    "accept-ranges": "bytes",
    "content-disposition": "inline",
  });
  const wanted = parseByteRange(range, size);
  if (wanted === "unsatisfiable") throw errors.rangeNotSatisfiable(size);
  const { start, end } = wanted ?? { start: 0, end: size - 1 };
  const body =
    size === 0 ? null : (Readable.toWeb(createReadStream(upload.path, { start, end })) as ReadableStream<Uint8Array>);
  headers["content-length"] = String(size === 0 ? 0 : end - start + 1);
  if (wanted) headers["content-range"] = `bytes ${start}-${end}/${size}`;
  return new Response(body, { status: wanted ? 206 : 200, headers });
}
