import { getDb } from "@/lib/db/client";
import { podcastTranscriptLinks, podcastTranscriptTag } from "@/lib/publishing/podcast-links";
import { publicPageUrl } from "@/lib/publishing/serializers";

export interface MyPublication {
  slug: string;
  url: string;
  title: string | null;
  platform: string;
  lang: string;
  publishedAt: string;
  /** The `<podcast:transcript …/>` element of each file, with its type, to paste into a feed's item. */
  feedTags: { type: string; tag: string }[];
}

/** The dashboard's Published page: the caller's published transcripts, newest first. */
export async function listMyPublications(userId: string): Promise<MyPublication[]> {
  const db = await getDb();
  const rows = await db.publication.findMany({
    where: { userId, publishedAt: { not: null } },
    orderBy: [{ publishedAt: "desc" }, { id: "desc" }],
    take: 500,
    include: { transcript: { select: { title: true, platform: true, lang: true } } },
  });
  return rows.map((row) => ({
    slug: row.slug,
    url: publicPageUrl(row.slug),
    title: row.transcript.title,
    platform: row.transcript.platform,
    lang: row.transcript.lang,
    publishedAt: row.publishedAt!.toISOString(),
    feedTags: podcastTranscriptLinks(row.slug, row.transcript.lang).map((link) => ({
      type: link.type,
      tag: podcastTranscriptTag(link),
    })),
  }));
}
