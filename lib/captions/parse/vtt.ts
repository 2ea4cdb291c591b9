/**
 * WebVTT, as YouTube (`fmt=vtt`), yt-dlp and other platforms serve it.
 *
 * Read line by line rather than in blank-line-separated blocks, because YouTube's files break the
 * block rule in both directions:
 * - a cue's text ends at an empty line, or at any line that contains `-->`: YouTube's VTT sometimes
 *   puts the next timing line straight after a cue's text, with no blank line between
 *   (`<c.colorCCCCCC>what</c>\n00:05:04.080 --> 00:05:05.069 align:start position:0%`). Read by
 *   blocks, that timing line became subtitle text;
 * - a line holding a single space does not end a cue: YouTube pads rows of auto captions with one.
 *
 * Outside cues, everything without `-->` is skipped: the header (`Kind:`, `Language:`, `Style:`),
 * cue identifiers, NOTE, STYLE and REGION blocks (which the format forbids to contain `-->`).
 * For auto captions every cue is a two-row window (the previous line in plain text, then the new
 * line with `<00:00:01.469><c> word</c>` timing tags) with 10 ms "hold" cues between them: the
 * rolling repetition dedup.ts removes.
 *
 * Word times: a row with timestamp tags gives its words their times (the text before the
 * first tag at the cue's start, the text after each tag at that tag's time); a cue's last row that
 * is a single word without tags (`[Music]`, or a one-word row of the 2018 layout) is timed at the
 * cue's start. Other rows are untimed: in a rolling cue the upper row only re-shows words timed in
 * the cue before.
 *
 * Voices (`<v Name>`): voices.ts.
 */
import type { Word } from "@/lib/formats/types";

import {
  CaptionParseError,
  type Cue,
  type TimedPiece,
  cleanText,
  countDropped,
  cueAt,
  type Dropped,
  parseClockMs,
  stripBom,
  timedWords,
} from "./text";
import { voiceCues } from "./voices";

export interface VttDocument {
  cues: Cue[];
  /** X-TIMESTAMP-MAP of an HLS segment: MPEG-TS time (90 kHz ticks) of the given local time (ms). */
  timestampMap: { mpegts: number; localMs: number } | null;
}

const TIMING = /^\s*(\S+)\s*-->\s*(\S+)/;

/** Seconds alone, `7.380` or `59,1`: how some publishers (Podnews) write a time under a minute. */
const SECONDS_ONLY = /^(\d{1,6})(?:[.,](\d{1,3}))?$/;
/** A clock whose minutes or seconds run past 59 (`00:00:90,740`, a podcast's SRT): read by arithmetic. */
const OVERFLOWING_CLOCK = /^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})$/;

/**
 * A cue time: the format's `[hh:]mm:ss.ttt`, seconds alone, or a clock whose seconds run past 59. The formats
 * forbid the last two, and browsers, ffmpeg and the `subtitle` and `webvtt-parser` packages drop such a cue;
 * real podcast files write them (`0.860 --> 7.380`; `00:00:90,740 --> 00:00:91,600` between cues at 0:50 and
 * 1:31), and a timing line leaves no doubt what they mean, so they are read rather than losing those words.
 */
function parseCueTimeMs(stamp: string): number | null {
  const clock = parseClockMs(stamp);
  if (clock !== null) return clock;
  const trimmed = stamp.trim();
  const seconds = SECONDS_ONLY.exec(trimmed);
  if (seconds) return Number(seconds[1]) * 1000 + Number((seconds[2] ?? "0").padEnd(3, "0"));
  const over = OVERFLOWING_CLOCK.exec(trimmed);
  if (!over) return null;
  const [, h, m, sec, frac] = over;
  return ((Number(h ?? 0) * 60 + Number(m)) * 60 + Number(sec)) * 1000 + Number(frac!.padEnd(3, "0"));
}

/** The start and end of a timing line, or null when it is not one. */
export function parseTimingLine(line: string): { startMs: number; endMs: number } | null {
  const m = TIMING.exec(line);
  if (!m) return null;
  const startMs = parseCueTimeMs(m[1] as string);
  const endMs = parseCueTimeMs(m[2] as string);
  return startMs === null || endMs === null ? null : { startMs, endMs };
}

function parseTimestampMap(value: string): VttDocument["timestampMap"] {
  let mpegts = 0;
  let localMs = 0;
  for (const part of value.split(",")) {
    const [k, v] = part.split(/:(.*)/s).map((s) => s.trim());
    if (k === "MPEGTS" && v && /^\d+$/.test(v)) mpegts = Number(v);
    else if (k === "LOCAL" && v) {
      const t = parseClockMs(v);
      if (t === null) return null;
      localMs = t;
    }
  }
  return { mpegts, localMs };
}

export function splitLines(body: string): string[] {
  return stripBom(body).replace(/\r\n?/g, "\n").split("\n");
}

/**
 * Cues from a line list, starting at `from`. A cue's text ends where `endsText(line)` is true or at a
 * line with `-->`. Shared with SRT.
 */
export function readCues(
  lines: readonly string[],
  from: number,
  endsText: (line: string) => boolean,
  textOf: (lines: string[]) => string,
  wordsOf?: (lines: string[], startMs: number, endMs: number) => Word[],
  split?: (lines: string[], startMs: number, endMs: number, cue: Cue) => Cue[],
  dropped?: Dropped,
): Cue[] {
  const cues: Cue[] = [];
  let i = from;
  while (i < lines.length) {
    const line = lines[i] as string;
    i++;
    if (!line.includes("-->")) continue;
    const timing = parseTimingLine(line);
    const text: string[] = [];
    while (i < lines.length && !endsText(lines[i] as string) && !(lines[i] as string).includes("-->"))
      text.push(lines[i++] as string);
    // A line with "-->" that is no timing line (a broken one) starts nothing; its text is dropped, and counted.
    if (!timing) {
      if (text.some((l) => l.trim() !== "")) countDropped(dropped, text.join(" "));
    } else {
      const words = wordsOf?.(text, timing.startMs, timing.endMs);
      const cue = cueAt(timing.startMs, timing.endMs, textOf(text), false, words);
      if (split) cues.push(...split(text, timing.startMs, timing.endMs, cue));
      else cues.push(cue);
    }
  }
  return cues;
}

const TIMESTAMP_TAG = /<(\d{1,3}:\d{2}(?::\d{2})?[.,]\d{1,3})>/;
const ANY_TAG = /<[^<>]*>/g;

/** The timed words of one cue's rows (see the file comment). */
export function vttWords(rows: readonly string[], startMs: number, endMs: number): Word[] {
  const pieces: TimedPiece[] = [];
  const lastRow = rows.findLastIndex((r) => r.replace(ANY_TAG, "").trim() !== "");
  rows.forEach((row, i) => {
    const parts = row.includes("<") ? row.split(TIMESTAMP_TAG) : [row];
    if (parts.length > 1) {
      // [before, stamp, text, stamp, text, ...]
      pieces.push({ ms: startMs, raw: parts[0] as string });
      for (let k = 1; k + 1 < parts.length; k += 2) {
        const ms = parseClockMs(parts[k] as string);
        if (ms !== null) pieces.push({ ms, raw: parts[k + 1] as string });
        else pieces.push({ ms: pieces.at(-1)?.ms ?? startMs, raw: parts[k + 1] as string });
      }
    } else if (i === lastRow) {
      // One word alone (timedWords drops a row of several).
      pieces.push({ ms: startMs, raw: row });
    }
  });
  return timedWords(pieces, endMs);
}

export function parseVttDocument(body: string, dropped?: Dropped): VttDocument {
  const lines = splitLines(body);
  if (!/^WEBVTT(?:[ \t]|$)/.test(lines[0] ?? "")) throw new CaptionParseError("The caption track is not WebVTT.");
  let timestampMap: VttDocument["timestampMap"] = null;
  // The header runs to the first empty line, or to a timing line when that blank line is missing.
  let i = 1;
  for (; i < lines.length && (lines[i] as string).trim() !== "" && !(lines[i] as string).includes("-->"); i++) {
    const m = /^X-TIMESTAMP-MAP=(.*)$/.exec((lines[i] as string).trim());
    if (m) timestampMap = parseTimestampMap(m[1] as string);
  }
  const cues = readCues(
    lines,
    i,
    (l) => l === "",
    (text) => cleanText(text.join("\n")),
    vttWords,
    voiceCues,
    dropped,
  );
  return { cues, timestampMap };
}

export function parseVtt(body: string, dropped?: Dropped): Cue[] {
  return parseVttDocument(body, dropped).cues;
}
