import { getDb } from "@/lib/db/client";
import { hotQuery } from "@/lib/db/hot-sql";
import type { Format } from "@/lib/formats";
import { errors } from "@/lib/http/errors";
import { asSeenBy } from "@/lib/transcripts/read";
import { publicFile } from "@/lib/publishing/public-files";
import type { Version } from "@/lib/publishing/public-version";
import { isSlug, slugWords } from "@/lib/publishing/slug";
import { serializePublicTranscript, type PublishedRow } from "@/lib/publishing/serializers";

// GET /v1/public/{slug}, its downloads, and the /t/{slug} page read one row the same way: only while it is
// published, so unpublishing is visible at once on the origin. Unknown and unpublished slugs are the same 404.

/** What a CDN may do with a public answer: a minute in browsers, five in shared caches, then revalidate. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=60, s-maxage=300, stale-while-revalidate=600";

const notPublished = () => errors.notFound("No published transcript has this slug.");

/** The published row of a slug, or null (unknown, unpublished, or not a slug at all). */
export async function findPublished(slug: string): Promise<PublishedRow | null> {
  if (!isSlug(slug)) return null;
  const db = await getDb();
  const row = await db.publication.findFirst({
    where: { slug, publishedAt: { not: null } },
    include: { transcript: true },
  });
  if (!row) return null;
  // The page shows what its publisher sees: their own correction, when they saved one.
  return { ...row, transcript: await asSeenBy(row.userId, row.transcript) } as PublishedRow;
}

export type { Version } from "@/lib/publishing/public-version";

/**
 * The version of a published slug: one small indexed query, no segments. Every GET /v1/public/{slug} runs
 * it, 304s included, so it is a hot statement (lib/db/hot-sql.ts).
 */
export async function publishedVersion(slug: string): Promise<Version | null> {
  if (!isSlug(slug)) return null;
  const rows = await hotQuery<Version>(
    "public-version",
    // fetchedAt: the later of the transcript's and the publisher's newest correction (asSeenBy, lib/transcripts/read).
    `SELECT p."id", p."publishedAt",
            GREATEST(t."fetchedAt", (SELECT max(r."createdAt") FROM "TranscriptRevision" r
                                     WHERE r."userId" = p."userId" AND r."transcriptId" = p."transcriptId")) AS "fetchedAt"
     FROM "Publication" p JOIN "Transcript" t ON t."id" = p."transcriptId"
     WHERE p."slug" = $1 AND p."publishedAt" IS NOT NULL`,
    [slug],
  );
  return rows[0] ?? null;
}

/** A validator that changes whenever the answer can: (re)publishing or a refreshed transcript. */
export function validators(version: Version): { etag: string; lastModified: Date } {
  const published = version.publishedAt.getTime();
  const fetched = version.fetchedAt.getTime();
  return {
    etag: `W/"${version.id}.${published.toString(36)}.${fetched.toString(36)}"`,
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

function cacheHeaders(version: Version): Record<string, string> {
  const { etag, lastModified } = validators(version);
  return {
    ETag: etag,
    "Last-Modified": lastModified.toUTCString(),
    "Cache-Control": PUBLIC_CACHE_CONTROL,
    Vary: "Accept-Encoding",
  };
}

// Serialised answers by ETag, so a read costs one small query instead of loading and re-serialising the
// segments. The ETag names the exact version, so an entry is never stale; whether the slug is still
// published is asked on every request. Bounded by size; the least recently used entry goes first.
const BODY_CACHE_MAX_CHARS = 32 * 1024 * 1024;
const bodies = new Map<string, string>();
let cachedChars = 0;

function recall(etag: string): string | undefined {
  const body = bodies.get(etag);
  if (body !== undefined) {
    bodies.delete(etag);
    bodies.set(etag, body);
  }
  return body;
}

function remember(etag: string, body: string): void {
  if (body.length > BODY_CACHE_MAX_CHARS / 8 || bodies.has(etag)) return;
  for (const [key, old] of bodies) {
    if (cachedChars + body.length <= BODY_CACHE_MAX_CHARS) break;
    bodies.delete(key);
    cachedChars -= old.length;
  }
  bodies.set(etag, body);
  cachedChars += body.length;
}

/** GET /v1/public/{slug}: the public transcript object, or 304 when the caller's copy is current. */
export async function publicTranscriptResponse(request: Request, slug: string): Promise<Response> {
  const version = await publishedVersion(slug);
  if (!version) throw notPublished();
  const headers = cacheHeaders(version);
  const { etag, lastModified } = validators(version);
  if (notModified(request, etag, lastModified)) return new Response(null, { status: 304, headers });
  let body = recall(etag);
  if (body === undefined) {
    const row = await findPublished(slug);
    if (!row) throw notPublished();
    body = JSON.stringify(serializePublicTranscript(row));
    // Cached under the version just read only if the row is still that version.
    if (validators({ id: row.id, publishedAt: row.publishedAt, fetchedAt: row.transcript.fetchedAt }).etag === etag)
      remember(etag, body);
  }
  return new Response(body, { headers: { ...headers, "content-type": "application/json" } });
}

/**
 * GET /v1/public/{slug}/download: the transcript as a file; uploads without their storage path. A current copy
 * gets 304 from the version query alone; the file is rendered once per version and kept (public-files.ts).
 */
export async function publicDownloadResponse(request: Request, slug: string, format: Format): Promise<Response> {
  const version = await publishedVersion(slug);
  if (!version) throw notPublished();
  const { etag, lastModified } = validators(version);
  if (notModified(request, etag, lastModified))
    return new Response(null, { status: 304, headers: cacheHeaders(version) });
  const file = await publicFile(slug, { download: format }, version, (v) => validators(v).etag);
  const name = `${slugWords(file.title)}-${file.lang}.${file.extension}`.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(file.bytes, {
    headers: {
      ...cacheHeaders(file.version),
      "content-type": file.contentType!,
      "content-disposition": `attachment; filename="${name}"`,
    },
  });
}
