import { normalizeSegments } from "./normalize";
import type { Segment, TranscriptMeta } from "./types";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Text with every character that could start markup escaped; quotes too, so it may go in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}

/**
 * `m:ss` below an hour, `h:mm:ss` from an hour on, as the transcript format's own examples write (`0:09`), with
 * the milliseconds after a `.` when there are any (`0:09.500`): in whole seconds, two lines that start within
 * the same second would start at the same time, and a reader (ours too) would run them together.
 */
function clock(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const whole = Math.floor(ms / 1000);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  const fraction = ms % 1000 === 0 ? "" : `.${String(ms % 1000).padStart(3, "0")}`;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}${fraction}` : `${m}:${s}${fraction}`;
}

/**
 * The HTML transcript of the Podcasting 2.0 format (podcast namespace, transcripts.md) as a whole, minimal
 * document: per normalized cue a `<time>` (its start, bare as in the format's examples: readers match
 * `<time>0:09</time>`; a fraction of a second only where the start has one, `<time>0:09.500</time>`) and a `<p>`, preceded by `<cite>Name:</cite>` where the speaker changes
 * to a named one. Everything from the transcript is escaped.
 */
export function renderPodcastHtml(segments: readonly Segment[], meta: Pick<TranscriptMeta, "title" | "lang">): string {
  const lines = [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(meta.lang)}">`,
    "<head>",
    '<meta charset="utf-8" />',
    `<title>${escapeHtml(meta.title?.trim() || "Transcript")}</title>`,
    "</head>",
    "<body>",
  ];
  let speaking: string | undefined;
  for (const { start, text, speaker } of normalizeSegments(segments)) {
    if (speaker !== undefined && speaker !== speaking) lines.push(`<cite>${escapeHtml(speaker)}:</cite>`);
    speaking = speaker;
    lines.push(`<time>${clock(start)}</time>`, `<p>${escapeHtml(text)}</p>`);
  }
  lines.push("</body>", "</html>", "");
  return lines.join("\n");
}
