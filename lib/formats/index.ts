import { renderJson } from "./json";
import { renderMarkdown } from "./markdown";
import { renderSrt } from "./srt";
import { renderText } from "./text";
import type { Format, Segment, TranscriptMeta } from "./types";
import { renderVtt } from "./vtt";

export { FORMATS, parseFormat } from "./types";
export type { Format, MomentLink, Segment, TranscriptMeta } from "./types";
export { normalizeSegments } from "./normalize";
export { renderJson } from "./json";
export { renderMarkdown } from "./markdown";
export { renderSrt } from "./srt";
export { renderText, renderTimestampedText } from "./text";
export { renderVtt } from "./vtt";
export { renderPodcastJson, PODCAST_JSON_VERSION, type PodcastJsonSegment } from "./podcast-json";
export { renderPodcastHtml } from "./html";

export interface RenderedTranscript {
  content: string;
  /** Full Content-Type header value, charset included. */
  contentType: string;
  /** File extension without the dot. */
  extension: string;
}

export const FORMAT_INFO: Readonly<Record<Format, { contentType: string; extension: string }>> = {
  json: { contentType: "application/json; charset=utf-8", extension: "json" },
  text: { contentType: "text/plain; charset=utf-8", extension: "txt" },
  srt: { contentType: "application/x-subrip; charset=utf-8", extension: "srt" },
  vtt: { contentType: "text/vtt; charset=utf-8", extension: "vtt" },
  md: { contentType: "text/markdown; charset=utf-8", extension: "md" },
};

/** Renders a transcript in one of the export formats. Segments are normalized first (see normalizeSegments). */
export function renderTranscript(
  format: Format,
  segments: readonly Segment[],
  meta: TranscriptMeta,
): RenderedTranscript {
  let content: string;
  switch (format) {
    case "json":
      content = renderJson(segments);
      break;
    case "text":
      content = renderText(segments);
      break;
    case "srt":
      content = renderSrt(segments);
      break;
    case "vtt":
      content = renderVtt(segments);
      break;
    case "md":
      content = renderMarkdown(segments, meta);
      break;
    default: {
      const unknown: never = format;
      throw new Error(`Unknown transcript format: ${String(unknown)}`);
    }
  }
  const info = FORMAT_INFO[format];
  return { content, contentType: info.contentType, extension: info.extension };
}
