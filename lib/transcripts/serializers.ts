import type { HistoryEntry, Transcript } from "@/lib/generated/prisma/client";
import { renderTranscript, type Format, type Segment, type TranscriptMeta } from "@/lib/formats";
import type { Chapter } from "@/lib/captions/types";
import type { Platform } from "@/lib/sources";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";
import type { z } from "zod";
import type { transcriptionEntrySchema } from "@/lib/transcripts/schemas";

export function transcriptSegments(row: Pick<Transcript, "segments">): Segment[] {
  return Array.isArray(row.segments) ? (row.segments as unknown as Segment[]) : [];
}

/** The one transcript shape: the direct answer, a finished job's `transcript`, a public page. */
export function serializeTranscript(row: Transcript & { edited?: true }, format: Format): TranscriptResponse {
  const segments = transcriptSegments(row);
  const captionKind: TranscriptResponse["caption_kind"] =
    row.captionKind === "manual" || row.captionKind === "auto" || row.captionKind === "translated"
      ? row.captionKind
      : null;
  const base = {
    id: row.id,
    platform: row.platform as Platform,
    video_id: row.videoId,
    source_url: row.sourceUrl,
    title: row.title,
    lang: row.lang,
    source: row.origin,
    caption_kind: captionKind,
    duration_seconds: row.durationSeconds,
    channel: row.channel,
    source_published_at: row.publishedAt,
    chapters: transcriptChapters(row),
    served_by: row.servedBy,
    format,
    // The author's correction (lib/edits/author-view.ts): only then is the field there.
    ...(row.edited ? { edited: true as const } : {}),
  };
  // Segments are normalized when stored (store-captions.ts), so json needs no work here.
  if (format === "json") return { ...base, content: null, segments };
  return { ...base, content: renderTranscript(format, segments, transcriptMeta(row)).content, segments: null };
}

export function transcriptChapters(row: Pick<Transcript, "chapters">): Chapter[] {
  if (!Array.isArray(row.chapters)) return [];
  return (row.chapters as unknown[]).filter(
    (c): c is Chapter =>
      typeof c === "object" &&
      c !== null &&
      typeof (c as Chapter).start === "number" &&
      typeof (c as Chapter).title === "string",
  );
}

/** What the human-readable formats print besides the segments. */
export function transcriptMeta(row: Transcript): TranscriptMeta {
  return {
    title: row.title,
    sourceUrl: row.sourceUrl,
    platform: row.platform,
    videoId: row.videoId,
    lang: row.lang,
    chapters: transcriptChapters(row),
  };
}

export type HistoryEntryRow = HistoryEntry & { transcript: Pick<Transcript, "title" | "sourceUrl"> | null };
export type JobFailure = { code: string; message: string };

/** A fixed-address thumbnail, for the platforms that have one (no lookup needed). */
export function thumbnailUrl(platform: string, videoId: string): string | null {
  return platform === "youtube" && /^[A-Za-z0-9_-]{11}$/.test(videoId)
    ? `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`
    : null;
}

/** A history entry; `jobFailure` is its failed job's error, when it has one. */
export function serializeTranscription(
  row: HistoryEntryRow,
  jobFailure?: JobFailure | null,
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
    error: row.state === "error" ? (requestFailure ?? jobFailure ?? null) : null,
  };
}
