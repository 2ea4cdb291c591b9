// A published transcript's file from its segments' JSON text: what the parse thread (lib/process/parse-worker.ts)
// runs for public-files.ts, or public-files.ts itself for a short transcript. Only lib/formats is needed here:
// no database, no settings, so the thread loads little. The answer is the file's UTF-8 bytes, moved back to
// the calling thread rather than copied (and never encoded there).
import { renderPodcastHtml, renderPodcastJson, renderSrt, renderTranscript, renderVtt } from "@/lib/formats";
import type { Format, Segment, TranscriptMeta } from "@/lib/formats/types";

/** A podcast feed's file (`transcript.<kind>`), or a download in one of the export formats. */
export type PublicFileKind = { podcast: "vtt" | "srt" | "json" | "html" } | { download: Format };

export interface FileRenderJob {
  kind: "public-file";
  file: PublicFileKind;
  /** The segments as stored (jsonb read as text). */
  segmentsJson: string;
  meta: TranscriptMeta;
}

export interface FileRenderOutcome {
  bytes: Uint8Array<ArrayBuffer>;
  /** The download's Content-Type and extension (a podcast file's are its kind's). */
  contentType: string | null;
  extension: string | null;
}

function segmentsOf(text: string): Segment[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? (value as Segment[]) : [];
}

function render(file: PublicFileKind, segments: Segment[], meta: TranscriptMeta) {
  if ("download" in file) return renderTranscript(file.download, segments, meta);
  const content =
    file.podcast === "vtt"
      ? renderVtt(segments)
      : file.podcast === "srt"
        ? renderSrt(segments)
        : file.podcast === "json"
          ? renderPodcastJson(segments)
          : renderPodcastHtml(segments, meta);
  return { content, contentType: null, extension: null };
}

export function renderFileJob(job: FileRenderJob): FileRenderOutcome {
  const { content, contentType, extension } = render(job.file, segmentsOf(job.segmentsJson), job.meta);
  return { bytes: new TextEncoder().encode(content) as Uint8Array<ArrayBuffer>, contentType, extension };
}
