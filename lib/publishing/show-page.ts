import { getDb } from "@/lib/db/client";
import { isSlug } from "@/lib/publishing/slug";

// A followed show's public page (/s/{slug}) and its feed (/s/{slug}/feed.xml) list the follow's items that
// its owner has published: an item is on the show while its transcript's publication is live, so publishing
// and unpublishing an episode (by hand, or by a `publish: true` follow) is what puts it there or takes it off.
// A show with no published episode has no page (the same 404 as an unknown slug): following a feed publishes
// nothing by itself.

const showTitle = (title: string | null) => title?.trim() || "Untitled show";

/** The most episodes a show's page and feed list (newest first). */
export const SHOW_MAX_EPISODES = 500;

export interface ShowEpisode {
  /** The publisher's guid for the item, as its feed gives it. */
  guid: string;
  title: string;
  /** The transcript's public page: /t/{slug}. */
  slug: string;
  lang: string;
  /** The item's audio (an episode's enclosure) or page (a video's watch URL). */
  sourceUrl: string;
  kind: "audio" | "video";
  /** When the publisher published it (the feed's pubDate), else when it was published here. */
  date: Date;
  durationSeconds: number;
  /** The audio file's size in bytes as the publisher's feed gives it, or null where it gives none. */
  audioBytes: number | null;
}

export interface Show {
  slug: string;
  title: string;
  /** The followed feed or channel. */
  sourceUrl: string;
  kind: string;
  episodes: ShowEpisode[];
}

interface EpisodeRow {
  guid: string;
  itemTitle: string;
  url: string;
  itemPublishedAt: Date | null;
  durationSeconds: number;
  audioBytes: bigint | null;
  slug: string;
  publishedAt: Date;
  title: string | null;
  lang: string;
  platform: string;
}

/** The show of a slug with its published episodes, newest first; null when it has none (or no such show). */
export async function findShow(slug: string): Promise<Show | null> {
  if (!isSlug(slug)) return null;
  const db = await getDb();
  const follow = await db.follow.findUnique({
    where: { showSlug: slug },
    select: { id: true, userId: true, title: true, url: true, kind: true },
  });
  if (!follow) return null;
  // The owner's live publications of the follow's transcribed items (FollowItem(followId, status) finds them).
  const rows = await db.$queryRaw<EpisodeRow[]>`
    SELECT i."guid", i."title" AS "itemTitle", i."url", i."publishedAt" AS "itemPublishedAt", i."durationSeconds", i."audioBytes",
           p."slug", p."publishedAt", t."title", t."lang", t."platform"
    FROM "FollowItem" i
    JOIN "Publication" p ON p."transcriptId" = i."transcriptId" AND p."userId" = ${follow.userId}
    JOIN "Transcript" t ON t."id" = p."transcriptId"
    WHERE i."followId" = ${follow.id} AND i."status" = 'done' AND p."publishedAt" IS NOT NULL
    ORDER BY coalesce(i."publishedAt", p."publishedAt") DESC, i."id" DESC
    LIMIT ${SHOW_MAX_EPISODES}`;
  if (rows.length === 0) return null;
  return {
    slug,
    title: showTitle(follow.title),
    sourceUrl: follow.url,
    kind: follow.kind,
    episodes: rows.map((row) => ({
      guid: row.guid,
      // The feed's own name for the item; the transcript's where the item has none.
      title: row.itemTitle || row.title || "Untitled episode",
      slug: row.slug,
      lang: row.lang,
      sourceUrl: row.url,
      kind: row.platform === "podcast" ? "audio" : "video",
      date: row.itemPublishedAt ?? row.publishedAt,
      durationSeconds: row.durationSeconds,
      audioBytes: row.audioBytes === null ? null : Number(row.audioBytes),
    })),
  };
}

/** The show an episode's public page links back to, and the episode's date in the show's feed. */
export interface EpisodeShow {
  slug: string;
  title: string;
  /** When the publisher published the episode (the item's pubDate), where the feed says. */
  episodeDate: Date | null;
}

/**
 * The followed show a published transcript is an episode of, where its publisher follows that show: its page
 * exists, since this episode is on it. Null for anything else (another user's follow does not make a show).
 */
export async function findShowOfEpisode(slug: string): Promise<EpisodeShow | null> {
  if (!isSlug(slug)) return null;
  const db = await getDb();
  const rows = await db.$queryRaw<{ slug: string; title: string | null; episodeDate: Date | null }[]>`
    SELECT f."showSlug" AS "slug", f."title", i."publishedAt" AS "episodeDate"
    FROM "Publication" p
    JOIN "FollowItem" i ON i."transcriptId" = p."transcriptId" AND i."status" = 'done'
    JOIN "Follow" f ON f."id" = i."followId" AND f."userId" = p."userId"
    WHERE p."slug" = ${slug} AND p."publishedAt" IS NOT NULL AND f."showSlug" IS NOT NULL
    ORDER BY f."createdAt", f."id"
    LIMIT 1`;
  const row = rows[0];
  return row ? { slug: row.slug, title: showTitle(row.title), episodeDate: row.episodeDate } : null;
}
