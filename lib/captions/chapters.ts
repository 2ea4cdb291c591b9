/**
 * Chapters: from a platform's own list (yt-dlp's `chapters`) or from timestamps in a description, the
 * way YouTube makes them: one timestamp per line, the first at 0:00, at least three, rising.
 */
import type { Chapter } from "./types";

/** "1:02:03" → 3723, "4:05" → 245; null when it is not a clock. */
export function clockSeconds(clock: string): number | null {
  const m = /^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})$/.exec(clock);
  if (!m) return null;
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (s >= 60 || (m[1] !== undefined && min >= 60)) return null;
  return h * 3600 + min * 60 + s;
}

const CLOCK = String.raw`\(?\[?((?:\d{1,2}:)?\d{1,2}:\d{2})\]?\)?`;
const LEADING = new RegExp(String.raw`^\s*(?:[-–—•*▶►]\s*)?${CLOCK}\s*(?:[-–—:|.)\]]\s*)?(.*)$`);
const TRAILING = new RegExp(String.raw`^\s*(.*?)\s*(?:[-–—:|]\s*)?${CLOCK}\s*$`);

/** Chapters in a description, or [] when it does not follow YouTube's rules. */
export function chaptersFromDescription(description: string | null | undefined, durationSeconds = 0): Chapter[] {
  if (!description) return [];
  const found: Chapter[] = [];
  for (const line of description.split(/\r?\n/)) {
    let start: number | null = null;
    let title = "";
    const lead = LEADING.exec(line);
    if (lead) {
      start = clockSeconds(lead[1] as string);
      title = (lead[2] ?? "").trim();
    } else {
      const trail = TRAILING.exec(line);
      if (trail) {
        start = clockSeconds(trail[2] as string);
        title = (trail[1] ?? "").trim();
      }
    }
    if (start === null || title === "") continue;
    if (durationSeconds > 0 && start >= durationSeconds) continue;
    const last = found[found.length - 1];
    if (last && start <= last.start) continue; // not rising: a second list, or a quoted time
    found.push({ start, title: title.replace(/\s+/g, " ").slice(0, 200) });
  }
  if (found.length < 3 || found[0]?.start !== 0) return [];
  return found;
}

/** yt-dlp's `chapters` ([{start_time, end_time, title}]) → Chapter[], sorted, untitled ones dropped. */
export function chaptersFromList(list: unknown): Chapter[] {
  if (!Array.isArray(list)) return [];
  const out: Chapter[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null) continue;
    const { start_time: start, title } = item as { start_time?: unknown; title?: unknown };
    if (typeof start !== "number" || !Number.isFinite(start) || start < 0) continue;
    if (typeof title !== "string" || title.trim() === "") continue;
    out.push({ start: Math.round(start * 1000) / 1000, title: title.trim().replace(/\s+/g, " ").slice(0, 200) });
  }
  return out.sort((a, b) => a.start - b.start);
}
