import type { Transcription, Transcript } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import type { transcriptionEntrySchema } from "@/lib/transcripts/schemas";

// A history entry's serialiser; the transcript's own are the read model's (lib/transcripts/read).

export type TranscriptionRow = Transcription & { transcript: Pick<Transcript, "title" | "sourceUrl"> | null };
export type JobFailure = { code: string; message: string };

/** A fixed-address thumbnail, for the platforms that have one (no lookup needed). */
export function thumbnailUrl(platform: string, videoId: string): string | null {
  return platform === "youtube" && /^[A-Za-z0-9_-]{11}$/.test(videoId)
    ? `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`
    : null;
}

/**
 * A history entry; `jobFailure` is its failed job's error, when it has one; `publishedSlug` the caller's live
 * publication of its transcript, when there is one.
 */
export function serializeTranscription(
  row: TranscriptionRow,
  jobFailure?: JobFailure | null,
  publishedSlug?: string | null,
  addedBy?: string | null,
): z.infer<typeof transcriptionEntrySchema> {
  const requestFailure = row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null;
  return {
    id: row.id,
    video_id: row.videoId,
    lang: row.lang,
    source: row.platform,
    duration_seconds: row.durationSeconds,
    total_seconds: row.totalSeconds,
    complete: row.state === "done",
    job_id: row.jobId,
    status: row.state,
    created_at: row.createdAt.toISOString(),
    source_url: row.transcript?.sourceUrl ?? null,
    title: row.transcript?.title ?? row.title,
    thumbnail_url: thumbnailUrl(row.platform, row.videoId),
    transcript_id: row.state === "done" ? row.transcriptId : null,
    published_slug: row.state === "done" ? (publishedSlug ?? null) : null,
    error: row.state === "error" ? (requestFailure ?? jobFailure ?? null) : null,
    added_by: addedBy ?? null,
  };
}
