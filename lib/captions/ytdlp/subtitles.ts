/**
 * Subtitle file parsers for the formats yt-dlp hands us (WebVTT, YouTube json3, SRT, srv3/TTML), plus the
 * HLS WebVTT merge used by X. Pure: strings in, Segment[] out (seconds, entities decoded, tags removed).
 */
import type { Segment } from "@/lib/formats/types";

export type SubtitleFormat = "json3" | "vtt" | "srt" | "srv3" | "ttml";

export interface ParseOptions {
  /**
   * Remove the rolling duplicates of auto captions: a cue whose first line repeats the previous cue's
   * last line loses that line (YouTube-style auto VTT shows each line twice as it scrolls up).
   */
  dedupe?: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  lrm: "",
  rlm: "",
  zwj: "",
  zwnj: "",
  shy: "",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  trade: "™",
  eacute: "é",
  egrave: "è",
  agrave: "à",
  ccedil: "ç",
  uuml: "ü",
  ouml: "ö",
  auml: "ä",
  szlig: "ß",
  ntilde: "ñ",
};

/** Decodes HTML/XML character references: named (common set), decimal and hex. Unknown names stay. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    const named = NAMED_ENTITIES[ref.toLowerCase()];
    return named ?? whole;
  });
}

/** Tags of any markup (`<c.colorE5E5E5>`, `</c>`, `<00:00:01.000>`, `<v Bob>`, `<i>`, `<font ...>`) removed. */
function stripTags(text: string): string {
  return text.replace(/<[^<>]*>/g, "");
}

/** One displayed line: tags removed, entities decoded, whitespace collapsed. */
function cleanLine(raw: string): string {
  return decodeEntities(stripTags(raw))
    .replace(/[\u200b\u200e\u200f\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------------
// Cue assembly shared by VTT and SRT
// ---------------------------------------------------------------------------------------------------

interface RawCue {
  start: number;
  end: number;
  lines: string[];
}

function cuesToSegments(cues: RawCue[], opts: ParseOptions): Segment[] {
  const out: Segment[] = [];
  let previousLast: string | null = null;
  for (const cue of cues) {
    let lines = cue.lines.map(cleanLine).filter((l) => l !== "");
    const last = lines.length > 0 ? (lines[lines.length - 1] as string) : null;
    if (opts.dedupe && previousLast !== null && lines[0] === previousLast) lines = lines.slice(1);
    if (last !== null) previousLast = last;
    if (lines.length === 0) continue;
    out.push({ start: round3(cue.start), end: round3(Math.max(cue.end, cue.start)), text: lines.join(" ") });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// WebVTT
// ---------------------------------------------------------------------------------------------------

const VTT_TIMESTAMP = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)[.,](\d{1,3})$/;
const TIMING_LINE = /^\s*(\S+)\s+-->\s+(\S+)(?:\s+.*)?$/;

/** `hh:mm:ss.ttt` or `mm:ss.ttt` (WebVTT), `,` accepted for the decimal separator. Null if malformed. */
export function parseTimestamp(ts: string): number | null {
  const m = VTT_TIMESTAMP.exec(ts.trim());
  if (!m) return null;
  const [, h, min, s, frac] = m;
  return Number(h ?? 0) * 3600 + Number(min) * 60 + Number(s) + Number((frac ?? "0").padEnd(3, "0")) / 1000;
}

/**
 * Blocks separated by blank lines. WebVTT ends a cue only at a truly empty line (YouTube's auto captions
 * carry a line holding one space inside cues); SRT files in the wild also use whitespace-only lines.
 */
function splitBlocks(text: string, separator: RegExp): string[][] {
  return stripBom(text)
    .replace(/\r\n?/g, "\n")
    .split(separator)
    .map((b) => b.split("\n"))
    .filter((lines) => lines.some((l) => l.trim() !== ""));
}

interface VttDocument {
  cues: RawCue[];
  /** X-TIMESTAMP-MAP of an HLS segment, in 90 kHz ticks. */
  timestampMap: { mpegts: number; local: number } | null;
}

function parseVttDocument(text: string): VttDocument {
  const blocks = splitBlocks(text, /\n{2,}/);
  const cues: RawCue[] = [];
  let timestampMap: VttDocument["timestampMap"] = null;
  blocks.forEach((block, index) => {
    let lines = block;
    // Leading empty lines of a block (extra blank lines) do not count.
    while (lines.length > 0 && (lines[0] as string).trim() === "") lines = lines.slice(1);
    if (index === 0 && (lines[0] ?? "").trim().startsWith("WEBVTT")) {
      for (const l of lines) {
        const m = /^X-TIMESTAMP-MAP=(.*)$/.exec(l.trim());
        if (m) timestampMap = parseTimestampMap(m[1] as string);
      }
      // A header may run straight into the first cue when the blank line after it is missing.
      const timingAt = lines.findIndex((l) => l.includes("-->"));
      if (timingAt === -1) return;
      lines = lines.slice(timingAt);
    }
    if (/^(NOTE|STYLE|REGION)(\s|$)/.test((lines[0] ?? "").trim())) return;
    const timingIndex = lines.findIndex((l) => l.includes("-->"));
    if (timingIndex === -1 || timingIndex > 1) return; // at most one identifier line before the timing
    const m = TIMING_LINE.exec(lines[timingIndex] as string);
    if (!m) return;
    const start = parseTimestamp(m[1] as string);
    const end = parseTimestamp(m[2] as string);
    if (start === null || end === null) return;
    cues.push({ start, end, lines: lines.slice(timingIndex + 1) });
  });
  return { cues, timestampMap };
}

function parseTimestampMap(value: string): { mpegts: number; local: number } | null {
  let mpegts = 0;
  let local = 0;
  for (const part of value.split(",")) {
    const [k, v] = part.split(/:(.*)/s).map((s) => s.trim());
    if (k === "MPEGTS" && v && /^\d+$/.test(v)) mpegts = Number(v);
    else if (k === "LOCAL" && v) {
      const t = parseTimestamp(v);
      if (t === null) return null;
      local = Math.round(t * 90000);
    }
  }
  return { mpegts, local };
}

/** WebVTT → segments. Cue settings, identifiers, NOTE/STYLE/REGION blocks and inline tags are ignored. */
export function parseVtt(text: string, opts: ParseOptions = {}): Segment[] {
  return cuesToSegments(parseVttDocument(text).cues, opts);
}

// ---------------------------------------------------------------------------------------------------
// SRT
// ---------------------------------------------------------------------------------------------------

/** SubRip → segments. `<i>`/`<font>` tags and ASS override codes (`{\an8}`) are removed. */
export function parseSrt(text: string, opts: ParseOptions = {}): Segment[] {
  const cues: RawCue[] = [];
  for (const block of splitBlocks(text, /\n(?:[ \t]*\n)+/)) {
    const lines = block.filter((l, i) => i > 0 || l.trim() !== "");
    const timingIndex = lines.findIndex((l) => l.includes("-->"));
    if (timingIndex === -1 || timingIndex > 1) continue;
    const m = TIMING_LINE.exec(lines[timingIndex] as string);
    if (!m) continue;
    const start = parseTimestamp(m[1] as string);
    const end = parseTimestamp(m[2] as string);
    if (start === null || end === null) continue;
    cues.push({ start, end, lines: lines.slice(timingIndex + 1).map((l) => l.replace(/\{\\[^{}]*\}/g, "")) });
  }
  return cuesToSegments(cues, opts);
}

// ---------------------------------------------------------------------------------------------------
// json3 (YouTube timed text)
// ---------------------------------------------------------------------------------------------------

interface Json3Event {
  tStartMs?: unknown;
  dDurationMs?: unknown;
  segs?: unknown;
}

/**
 * YouTube json3 → segments. Events without `segs` (window definitions) and whitespace-only events
 * (the "\n" appends of auto captions) are skipped; a segment's pieces are concatenated.
 */
export function parseJson3(text: string, opts: ParseOptions = {}): Segment[] {
  let doc: unknown;
  try {
    doc = JSON.parse(stripBom(text));
  } catch {
    throw new Error("The caption file is not valid JSON.");
  }
  const events = typeof doc === "object" && doc !== null && Array.isArray((doc as { events?: unknown }).events) ? (doc as { events: unknown[] }).events : null;
  if (!events) throw new Error("The caption file has no events.");
  const cues: RawCue[] = [];
  for (const ev of events as Json3Event[]) {
    if (typeof ev !== "object" || ev === null || !Array.isArray(ev.segs)) continue;
    const start = typeof ev.tStartMs === "number" ? ev.tStartMs / 1000 : null;
    if (start === null || !Number.isFinite(start)) continue;
    const duration = typeof ev.dDurationMs === "number" && Number.isFinite(ev.dDurationMs) ? ev.dDurationMs / 1000 : 0;
    const joined = (ev.segs as unknown[])
      .map((s) => (typeof s === "object" && s !== null && typeof (s as { utf8?: unknown }).utf8 === "string" ? (s as { utf8: string }).utf8 : ""))
      .join("");
    if (joined.trim() === "") continue;
    cues.push({ start, end: start + duration, lines: joined.split("\n") });
  }
  return cuesToSegments(cues, opts);
}

// ---------------------------------------------------------------------------------------------------
// srv3 / TTML (XML)
// ---------------------------------------------------------------------------------------------------

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, "i").exec(tag);
  return m ? (m[2] ?? m[3] ?? null) : null;
}

/** TTML time expression: clock time (hh:mm:ss.fff, hh:mm:ss:frames at 30 fps) or offset (1.5s, 1500ms, 2m, 1h). */
function parseTtmlTime(value: string | null): number | null {
  if (value === null) return null;
  const v = value.trim();
  const clock = /^(\d+):(\d{2}):(\d{2})(?:\.(\d+)|:(\d+))?$/.exec(v);
  if (clock) {
    const [, h, m, s, frac, frames] = clock;
    const f = frac ? Number(`0.${frac}`) : frames ? Number(frames) / 30 : 0;
    return Number(h) * 3600 + Number(m) * 60 + Number(s) + f;
  }
  const offset = /^(\d+(?:\.\d+)?)(h|m|s|ms)$/.exec(v);
  if (offset) {
    const n = Number(offset[1]);
    return offset[2] === "h" ? n * 3600 : offset[2] === "m" ? n * 60 : offset[2] === "ms" ? n / 1000 : n;
  }
  return null;
}

/**
 * srv3 (`<p t="ms" d="ms">`) and TTML (`<p begin=".." end=".."|dur="..">`) → segments. `<br/>` becomes
 * a line break, other tags are dropped.
 */
export function parseTimedTextXml(text: string, opts: ParseOptions = {}): Segment[] {
  const cues: RawCue[] = [];
  const re = /<p\b([^>]*)>([\s\S]*?)<\/p>/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const tag = m[1] as string;
    const body = m[2] as string;
    let start: number | null;
    let end: number | null;
    const t = attr(tag, "t");
    if (t !== null) {
      start = Number(t) / 1000;
      end = start + Number(attr(tag, "d") ?? 0) / 1000;
    } else {
      start = parseTtmlTime(attr(tag, "begin"));
      const dur = parseTtmlTime(attr(tag, "dur"));
      end = parseTtmlTime(attr(tag, "end")) ?? (start !== null && dur !== null ? start + dur : start);
    }
    if (start === null || end === null || !Number.isFinite(start) || !Number.isFinite(end)) continue;
    cues.push({ start, end, lines: body.split(/<br\s*\/?>|\n/i) });
  }
  return cuesToSegments(cues, opts);
}

// ---------------------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------------------

/** Guesses the format from the content, for files whose declared ext was wrong. */
export function sniffFormat(text: string): SubtitleFormat | null {
  const head = stripBom(text).trimStart().slice(0, 512);
  if (head.startsWith("WEBVTT")) return "vtt";
  if (head.startsWith("{")) return "json3";
  if (head.startsWith("<")) return /<tt\b/i.test(head) ? "ttml" : "srv3";
  if (/^\d+\s*\r?\n\s*\d+:\d{2}:\d{2}[,.]\d{1,3}\s+-->/.test(head)) return "srt";
  if (/^\d+:\d{2}:\d{2}[,.]\d{1,3}\s+-->/.test(head)) return "srt";
  return null;
}

/** Parses a subtitle file of the given format (the content decides when it clearly disagrees). */
export function parseSubtitle(text: string, format: SubtitleFormat, opts: ParseOptions = {}): Segment[] {
  const actual = sniffFormat(text) ?? format;
  switch (actual) {
    case "vtt":
      return parseVtt(text, opts);
    case "srt":
      return parseSrt(text, opts);
    case "json3":
      return parseJson3(text, opts);
    case "srv3":
    case "ttml":
      return parseTimedTextXml(text, opts);
  }
}

// ---------------------------------------------------------------------------------------------------
// HLS WebVTT (X serves its captions as an m3u8 playlist of WebVTT segments)
// ---------------------------------------------------------------------------------------------------

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

/**
 * Joins the WebVTT segments of an HLS subtitle rendition the way yt-dlp's HLS downloader does: cue times
 * of later segments are shifted by the change of their X-TIMESTAMP-MAP relative to the first segment,
 * cues repeated across segment boundaries are dropped, and a cue continued in the next segment (same
 * text, ending where the next starts) becomes one cue.
 */
export function mergeHlsVtt(segmentTexts: readonly string[], opts: ParseOptions = {}): Segment[] {
  const cues: RawCue[] = [];
  let base: { mpegts: number; local: number } | null = null;
  segmentTexts.forEach((text, i) => {
    const doc = parseVttDocument(text);
    let adjust = 0;
    if (i === 0) base = doc.timestampMap ?? { mpegts: 0, local: 0 };
    else if (doc.timestampMap && base) {
      const b: { mpegts: number; local: number } = base;
      adjust = (doc.timestampMap.mpegts - b.mpegts - (doc.timestampMap.local - b.local)) / 90000;
    }
    for (const cue of doc.cues) cues.push({ start: cue.start + adjust, end: cue.end + adjust, lines: cue.lines });
  });
  const merged: Array<RawCue & { key: string }> = [];
  for (const cue of cues) {
    const key = cue.lines.map(cleanLine).filter((l) => l !== "").join("\n");
    const same = merged
      .slice(-32)
      .find((c) => c.key === key && (Math.abs(c.start - cue.start) < 0.0005 || Math.abs(c.end - cue.start) < 0.0005));
    if (same) {
      same.end = Math.max(same.end, cue.end);
      continue;
    }
    merged.push({ ...cue, key });
  }
  merged.sort((a, b) => a.start - b.start);
  return cuesToSegments(merged, opts);
}
