/**
 * HLS WebVTT: X serves its captions as an m3u8 media playlist of WebVTT segments.
 */
import type { Cue } from "./text";
import { stripBom } from "./text";
import { parseVttDocument } from "./vtt";

/** The segment URLs of an HLS media playlist, resolved against the playlist's own URL. */
export function parseM3u8Segments(playlist: string, baseUrl: string): string[] {
  const urls: string[] = [];
  for (const raw of stripBom(playlist).replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    urls.push(new URL(line, baseUrl).href);
  }
  return urls;
}

export function isM3u8(text: string): boolean {
  return stripBom(text).trimStart().startsWith("#EXTM3U");
}

/** Touching or equal within half a millisecond (times are whole milliseconds already). */
const SAME = 0.0005;

/**
 * Joins the WebVTT segments of an HLS subtitle rendition the way yt-dlp's HLS downloader does: cue
 * times of later segments are shifted by the change of their X-TIMESTAMP-MAP relative to the first
 * segment, cues repeated across segment boundaries are dropped, and a cue continued in the next
 * segment (same text, starting where the earlier one ends) becomes one cue (keeping the earlier
 * cue's word times, the words being the same). Word times move with their cue.
 */
export function mergeHlsVtt(segmentTexts: readonly string[]): Cue[] {
  const merged: Cue[] = [];
  let base: { mpegts: number; localMs: number } | null = null;
  segmentTexts.forEach((text, i) => {
    const doc = parseVttDocument(text);
    let adjust = 0;
    if (i === 0) base = doc.timestampMap ?? { mpegts: 0, localMs: 0 };
    else if (doc.timestampMap && base) {
      const b: { mpegts: number; localMs: number } = base;
      adjust = (doc.timestampMap.mpegts - b.mpegts) / 90000 - (doc.timestampMap.localMs - b.localMs) / 1000;
    }
    for (const cue of doc.cues) {
      const start = Math.round((cue.start + adjust) * 1000) / 1000;
      const end = Math.round((cue.end + adjust) * 1000) / 1000;
      const same = merged
        .slice(-32)
        .find((c) => c.text === cue.text && (Math.abs(c.start - start) < SAME || Math.abs(c.end - start) < SAME));
      if (same) {
        same.end = Math.max(same.end, end);
        continue;
      }
      const shift = (t: number) => Math.max(0, Math.round((t + adjust) * 1000) / 1000);
      merged.push(
        cue.words
          ? {
              start,
              end,
              text: cue.text,
              words: cue.words.map((w) => ({ ...w, start: shift(w.start), end: shift(w.end) })),
            }
          : { start, end, text: cue.text },
      );
    }
  });
  return merged
    .map((c, i) => [c, i] as const)
    .sort((a, b) => a[0].start - b[0].start || a[1] - b[1])
    .map(([c]) => c);
}
