import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { errors } from "@/lib/http/errors";
import { resolveSource, type ResolveDeps } from "@/lib/transcripts/resolve-source";
import { parseObjectPath, SOURCE_PREFIX } from "@/lib/uploads/objects";
import { newSlug } from "@/lib/publishing/slug";
import { publicPageUrl } from "@/lib/publishing/serializers";
import { expirePublicPages } from "@/lib/cache/public-pages";
import type { PublishRequest, PublishResponse } from "@/lib/publishing/schemas";

const SLUG_ATTEMPTS = 5;

/** The history key of a source: the same url → the same (platform, video) as POST /v1/transcript. */
async function sourceKey(url: string, deps: ResolveDeps): Promise<{ platform: string; videoId: string }> {
  const trimmed = url.trim();
  // An upload: its source_url (upload:<object_path>) or the object path itself, as POST /v1/transcript takes it.
  const objectPath = parseObjectPath(trimmed);
  if (objectPath) return { platform: "upload", videoId: objectPath.split("/")[2] ?? objectPath };
  if (trimmed.startsWith(SOURCE_PREFIX)) throw errors.notFound("No transcript of this upload in your history.");
  const source = await resolveSource(trimmed, deps);
  return { platform: source.platform, videoId: source.videoId };
}

/**
 * POST /v1/publish: puts the caller's finished transcript of (url, lang) on a public page. The slug is
 * made once per user and transcript; publishing again (also after unpublishing) keeps it.
 */
export async function publishTranscript(
  userId: string,
  request: PublishRequest,
  deps: ResolveDeps,
): Promise<PublishResponse> {
  const key = await sourceKey(request.url, deps);
  const db = await getDb();
  const entry = await db.transcription.findUnique({
    where: { userId_platform_videoId_lang: { userId, ...key, lang: request.lang } },
    include: { transcript: { select: { id: true, title: true } } },
  });
  if (!entry) {
    throw errors.notFound(
      `No transcript of this source in '${request.lang}' in your history. Transcribe it first (POST /v1/transcript), then publish it.`,
    );
  }
  if (entry.state !== "done" || !entry.transcript) {
    throw errors.conflict(
      "transcript_not_complete",
      `This transcript is not complete yet (status: ${entry.state}). Publish it once it is done.`,
    );
  }
  const transcriptId = entry.transcript.id;

  const existing = await db.publication.findUnique({ where: { userId_transcriptId: { userId, transcriptId } } });
  if (existing) {
    if (!existing.publishedAt) {
      await db.publication.updateMany({
        where: { id: existing.id, publishedAt: null },
        data: { publishedAt: new Date() },
      });
      expirePublicPages([existing.slug]); // its cached 404
    }
    return { slug: existing.slug, url: publicPageUrl(existing.slug) };
  }
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
    try {
      const created = await db.publication.create({
        data: { slug: newSlug(entry.transcript.title), userId, transcriptId, publishedAt: new Date() },
      });
      expirePublicPages([created.slug]);
      return { slug: created.slug, url: publicPageUrl(created.slug) };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") throw error;
      // A concurrent publish of the same transcript won: answer with its slug. Otherwise the slug was taken: draw again.
      const winner = await db.publication.findUnique({ where: { userId_transcriptId: { userId, transcriptId } } });
      if (winner) return publishTranscript(userId, request, deps);
    }
  }
  throw new Error("Could not draw a free slug");
}

/** DELETE /v1/publish/{slug}: the owner's published page goes private at once; anything else is the same 404. */
export async function unpublishTranscript(userId: string, slug: string): Promise<void> {
  const db = await getDb();
  const { count } = await db.publication.updateMany({
    where: { slug, userId, publishedAt: { not: null } },
    data: { publishedAt: null },
  });
  if (count === 0) throw errors.notFound("No published transcript of yours has this slug.");
  expirePublicPages([slug]);
}
