import { env } from "@/lib/env";
import type { Publication, Transcript } from "@/lib/generated/prisma/client";
import { serializeTranscript } from "@/lib/transcripts/read";
import type { PublicTranscript } from "@/lib/publishing/schemas";
import { podcastTranscriptLinks } from "@/lib/publishing/podcast-links";

export type PublishedRow = Publication & { publishedAt: Date; transcript: Transcript };

/** The public page of a slug, on APP_URL. */
export function publicPageUrl(slug: string): string {
  return new URL(`/t/${slug}`, env().APP_URL).toString();
}

/** Uploaded files are public under their stored title only: no storage path, no object id. */
export function isUpload(row: Pick<Transcript, "platform">): boolean {
  return row.platform === "upload";
}

/** The transcript object (lib/transcripts/read) plus slug, page url, published_at and the feed's transcript files. */
export function serializePublicTranscript(row: PublishedRow): PublicTranscript {
  const transcript = serializeTranscript(row.transcript, "json");
  const upload = isUpload(row.transcript);
  return {
    ...transcript,
    source_url: upload ? null : transcript.source_url,
    video_id: upload ? null : transcript.video_id,
    slug: row.slug,
    url: publicPageUrl(row.slug),
    published_at: row.publishedAt.toISOString(),
    podcast_transcripts: podcastTranscriptLinks(row.slug, row.transcript.lang),
  };
}
