import { getDb } from "@/lib/db/client";
import type { Format } from "@/lib/formats";
import { errors } from "@/lib/http/errors";
import { transcriptFile } from "@/lib/transcripts/get-transcript";
import { isSlug, slugWords } from "@/lib/publishing/slug";
import { isUpload, serializePublicTranscript, type PublishedRow } from "@/lib/publishing/serializers";

// GET /v1/public/{slug}, its downloads, and the /t/{slug} page read one row the same way: only while it is
// published, so unpublishing is visible at once on the origin. Unknown and unpublished slugs are the same 404.

/** What a CDN may do with a public answer: a minute in browsers, five in shared caches, then revalidate. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";

const notPublished = () => errors.notFound("No published transcript has this slug.");

/** The published row of a slug, or null (unknown, unpublished, or not a slug at all). */
export async function findPublished(slug: string): Promise<PublishedRow | null> {
  if (!isSlug(slug)) return null;
  const db = await getDb();
  const row = await db.publication.findFirst({ where: { slug, publishedAt: { not: null } }, include: { transcript: true } });
  return row as PublishedRow | null;
}

/** A validator that changes whenever the answer can: (re)publishing or a refreshed transcript. */
export function validators(row: PublishedRow): { etag: string; lastModified: Date } {
  const published = row.publishedAt.getTime();
  const fetched = row.transcript.fetchedAt.getTime();
  return {
    etag: `W/"${row.id}.${published.toString(36)}.${fetched.toString(36)}"`,
    lastModified: new Date(Math.max(published, fetched)),
  };
}

/** True when the request's If-None-Match (or, without one, If-Modified-Since) still matches. */
export function notModified(request: Request, etag: string, lastModified: Date): boolean {
  const match = request.headers.get("if-none-match");
  if (match !== null) {
    const weak = (tag: string) => tag.trim().replace(/^W\//, "");
    return match.trim() === "*" || match.split(",").some((tag) => weak(tag) === weak(etag));
  }
  const since = Date.parse(request.headers.get("if-modified-since") ?? "");
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function cacheHeaders(row: PublishedRow): Record<string, string> {
  const { etag, lastModified } = validators(row);
  return { ETag: etag, "Last-Modified": lastModified.toUTCString(), "Cache-Control": PUBLIC_CACHE_CONTROL, Vary: "Accept-Encoding" };
}

/** GET /v1/public/{slug}: the public transcript object, or 304 when the caller's copy is current. */
export async function publicTranscriptResponse(request: Request, slug: string): Promise<Response> {
  const row = await findPublished(slug);
  if (!row) throw notPublished();
  const headers = cacheHeaders(row);
  const { etag, lastModified } = validators(row);
  if (notModified(request, etag, lastModified)) return new Response(null, { status: 304, headers });
  return Response.json(serializePublicTranscript(row), { headers });
}

/** GET /v1/public/{slug}/download: the transcript as a file; uploads without their storage path. */
export async function publicDownloadResponse(request: Request, slug: string, format: Format): Promise<Response> {
  const row = await findPublished(slug);
  if (!row) throw notPublished();
  const headers = cacheHeaders(row);
  const { etag, lastModified } = validators(row);
  if (notModified(request, etag, lastModified)) return new Response(null, { status: 304, headers });
  const transcript = isUpload(row.transcript) ? { ...row.transcript, sourceUrl: "", videoId: "" } : row.transcript;
  return transcriptFile(transcript, format, `${slugWords(row.transcript.title)}-${row.transcript.lang}`, headers);
}
