import type { Transcript } from "@/lib/generated/prisma/client";
import { renderTranscript, type Format, type Segment, type TranscriptMeta } from "@/lib/formats";
import type { Chapter } from "@/lib/captions/types";
import type { Platform } from "@/lib/sources";
import type { TranscriptResponse } from "@/lib/transcripts/schemas";
import type { TranscriptView } from "./read-transcript";

export function transcriptSegments(row: Pick<Transcript, "segments">): Segment[] {
  return Array.isArray(row.segments) ? (row.segments as unknown as Segment[]) : [];
}

/** The one transcript shape: the direct answer, a finished job's `transcript`, a public page. */
export function serializeTranscript(row: TranscriptView, format: Format): TranscriptResponse {
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
    // The viewer's own correction (read-transcript.ts): only then is the field there.
    ...(row.edited ? { edited: true as const } : {}),
    ...(row.sourceNote ? { source_note: row.sourceNote } : {}),
  };
  // Segments are normalized when stored (store-captions.ts), so json needs no work here.
  if (format === "json") return { ...base, content: null, segments };
  return { ...base, content: renderTranscript(format, segments, transcriptMeta(row)).content, segments: null };
}

/**
 * serializeTranscript(row, format) as JSON text, from its segments already written as JSON text
 * (`segmentsJson`) and, for a format other than json, their rendering (`content`): a large correction's
 * answer (lib/edits) is spliced together rather than its segments parsed and written again.
 */
export function serializedTranscriptJson(
  row: TranscriptView,
  format: Format,
  segmentsJson: string,
  content: string | null,
): string {
  const shell = serializeTranscript({ ...row, segments: [] }, "json");
  if (format !== "json") return JSON.stringify({ ...shell, format, content, segments: null });
  const text = JSON.stringify(shell);
  const empty = ',"segments":[]}';
  if (!text.endsWith(empty)) throw new Error("serializeTranscript no longer answers segments last");
  return `${text.slice(0, -empty.length)},"segments":${segmentsJson}}`;
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
