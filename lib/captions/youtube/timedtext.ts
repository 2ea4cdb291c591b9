/**
 * Parsers for YouTube's timedtext formats: json3 (`fmt=json3`), srv3 (`fmt=srv3`), the classic
 * `<transcript>` XML (no `fmt`), and the WebVTT YouTube serves for `fmt=vtt`.
 *
 * Every parser returns `Cue`s: a Segment plus `append` for events YouTube marks as appended to the
 * previous one (json3 `aAppend`, srv3 `a="1"`). Text is cleaned the same way everywhere: tags
 * stripped, HTML entities decoded (named and numeric, and a second round for the classic format,
 * which escapes its HTML-escaped text again: `&amp;#39;`), whitespace (newlines included) collapsed.
 * Newline-only events come back with empty text; dedup.ts drops them.
 *
 * Pure: no I/O.
 */
import type { Segment } from "@/lib/formats/types";

export interface Cue extends Segment {
  /** The event continues the previous one on the same line (json3 `aAppend: 1`, srv3 `a="1"`). */
  append?: boolean;
}

export type TimedtextFormat = "json3" | "srv3" | "transcript" | "vtt";

export class TimedtextParseError extends Error {
  override readonly name = "TimedtextParseError";
}

// ---------------------------------------------------------------------------------------------------
// Text cleaning
// ---------------------------------------------------------------------------------------------------

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
  ndash: "\u2013", mdash: "\u2014", hellip: "\u2026", bull: "\u2022", middot: "\u00b7",
  lsquo: "\u2018", rsquo: "\u2019", sbquo: "\u201a", ldquo: "\u201c", rdquo: "\u201d", bdquo: "\u201e",
  laquo: "\u00ab", raquo: "\u00bb", lsaquo: "\u2039", rsaquo: "\u203a",
  copy: "\u00a9", reg: "\u00ae", trade: "\u2122", deg: "\u00b0", plusmn: "\u00b1", times: "\u00d7", divide: "\u00f7",
  frac12: "\u00bd", frac14: "\u00bc", frac34: "\u00be", sup2: "\u00b2", sup3: "\u00b3", micro: "\u00b5",
  euro: "\u20ac", pound: "\u00a3", yen: "\u00a5", cent: "\u00a2", sect: "\u00a7", para: "\u00b6",
  iexcl: "\u00a1", iquest: "\u00bf", shy: "\u00ad", zwj: "\u200d", zwnj: "\u200c", lrm: "\u200e", rlm: "\u200f",
  hearts: "\u2665", spades: "\u2660", clubs: "\u2663", diams: "\u2666", larr: "\u2190", rarr: "\u2192",
  uarr: "\u2191", darr: "\u2193", harr: "\u2194", prime: "\u2032", Prime: "\u2033", minus: "\u2212",
  szlig: "\u00df", aelig: "\u00e6", AElig: "\u00c6", oelig: "\u0153", OElig: "\u0152", oslash: "\u00f8", Oslash: "\u00d8",
  aring: "\u00e5", Aring: "\u00c5", ccedil: "\u00e7", Ccedil: "\u00c7", ntilde: "\u00f1", Ntilde: "\u00d1",
  eth: "\u00f0", ETH: "\u00d0", thorn: "\u00fe", THORN: "\u00de",
};

// Accented vowels: &aacute; &Agrave; &ouml; ... generated rather than listed.
const ACCENTS: Readonly<Record<string, string>> = { acute: "\u0301", grave: "\u0300", circ: "\u0302", tilde: "\u0303", uml: "\u0308" };
const ACCENTED = new Map<string, string>();
for (const base of ["a", "e", "i", "o", "u", "y", "A", "E", "I", "O", "U", "Y"]) {
  for (const [name, mark] of Object.entries(ACCENTS)) {
    const composed = (base + mark).normalize("NFC");
    if (composed.length === 1) ACCENTED.set(base + name, composed);
  }
}

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

function decodeOnce(s: string): string {
  return s.replace(ENTITY, (whole, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      // Invalid and surrogate code points stay as written rather than become U+FFFD.
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return whole;
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body] ?? ACCENTED.get(body) ?? whole;
  });
}

/**
 * Decodes HTML entities, named and numeric. Runs twice at most: YouTube's classic transcript format
 * XML-escapes text that is already HTML-escaped (`I&amp;#39;m` is "I'm").
 */
export function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  const once = decodeOnce(s);
  if (once === s || !once.includes("&")) return once;
  return decodeOnce(once);
}

// Element tags (<s ...>, </font>, <br/>) and WebVTT timestamp tags (<00:00:01.469>). A bare "<" that
// does not start a tag ("a < b", "<3") is text and stays.
const TAG = /<\/?[A-Za-z][^<>]*>|<\d{1,3}:\d{2}(?::\d{2})?\.\d{3}>/g;
const BREAK = /<br\s*\/?>/gi;

function stripTags(s: string): string {
  return s.replace(BREAK, " ").replace(TAG, "");
}

/** Strips tags, decodes entities, collapses every run of whitespace (newlines, nbsp) to one space. */
export function cleanText(raw: string): string {
  // Tags first (real markup), then entities, then tags again (markup that was escaped as text,
  // e.g. `&lt;font color=&quot;#E5E5E5&quot;&gt;` in the classic format).
  const decoded = decodeEntities(stripTags(raw));
  const text = decoded.includes("<") ? stripTags(decoded) : decoded;
  return text.replace(/[\s\u00a0\u200b\ufeff]+/g, " ").trim();
}

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

const MS = 1000;

function finite(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Seconds rounded to the millisecond, so float noise never reaches the output. */
function seconds(ms: number): number {
  return Math.round(ms) / MS;
}

function cue(startMs: number, durationMs: number, text: string, append: boolean): Cue {
  const start = seconds(Math.max(0, startMs));
  const end = seconds(Math.max(0, startMs) + Math.max(0, durationMs));
  return append ? { start, end, text, append: true } : { start, end, text };
}

/** Attributes of one start tag, e.g. ` t="80" d="4040" w="1"` → {t: "80", d: "4040", w: "1"}. */
function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source)) !== null) out[m[1] as string] = decodeEntities(m[2] ?? m[3] ?? "");
  return out;
}

// ---------------------------------------------------------------------------------------------------
// json3
// ---------------------------------------------------------------------------------------------------

interface Json3Seg {
  utf8?: unknown;
}

interface Json3Event {
  tStartMs?: unknown;
  dDurationMs?: unknown;
  aAppend?: unknown;
  segs?: unknown;
}

/**
 * `{"wireMagic":"pb3","events":[{"tStartMs":80,"dDurationMs":4040,"wWinId":1,"segs":[{"utf8":"hey"},
 * {"utf8":" guys","tOffsetMs":320}]}, {"tStartMs":2430,"dDurationMs":1690,"wWinId":1,"aAppend":1,
 * "segs":[{"utf8":"\n"}]}, ...]}`. Events without `segs` (window and style definitions) are skipped.
 * Word segments carry their own leading spaces, so they are joined as they are.
 */
export function parseJson3(body: string): Cue[] {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new TimedtextParseError("The json3 caption track is not valid JSON.");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new TimedtextParseError("The json3 caption track is not an object.");
  }
  const events = (data as { events?: unknown }).events;
  if (events === undefined) return [];
  if (!Array.isArray(events)) throw new TimedtextParseError("The json3 caption track has no event list.");
  const out: Cue[] = [];
  for (const raw of events as unknown[]) {
    if (typeof raw !== "object" || raw === null) continue;
    const ev = raw as Json3Event;
    if (!Array.isArray(ev.segs)) continue;
    const start = finite(ev.tStartMs);
    if (start === null) continue;
    const text = (ev.segs as unknown[])
      .map((s) => (typeof s === "object" && s !== null && typeof (s as Json3Seg).utf8 === "string" ? ((s as Json3Seg).utf8 as string) : ""))
      .join("");
    out.push(cue(start, finite(ev.dDurationMs) ?? 0, cleanText(text), finite(ev.aAppend) === 1 || ev.aAppend === true));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// srv3
// ---------------------------------------------------------------------------------------------------

/**
 * `<timedtext format="3"><body><p t="80" d="4040" w="1"><s ac="0">hey</s><s t="320" ac="0"> guys</s></p>
 * <p t="2430" d="1690" w="1" a="1">\n</p>...</body></timedtext>`. Times are milliseconds.
 */
export function parseSrv3(body: string): Cue[] {
  if (!/<timedtext\b/i.test(body)) throw new TimedtextParseError("The srv3 caption track has no <timedtext> element.");
  const bodyStart = body.search(/<body\b/i);
  const scope = bodyStart === -1 ? body : body.slice(bodyStart);
  const out: Cue[] = [];
  const re = /<p\b([^>]*?)(?:\/>|>([\s\S]*?)<\/p>)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(scope)) !== null) {
    const attrs = attributes(m[1] ?? "");
    const start = finite(attrs.t);
    if (start === null) continue;
    out.push(cue(start, finite(attrs.d) ?? 0, cleanText(m[2] ?? ""), attrs.a === "1"));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Classic transcript XML
// ---------------------------------------------------------------------------------------------------

/**
 * `<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0.08" dur="4.04">hey guys
 * I&amp;#39;m</text>...</transcript>`. Times are seconds.
 */
export function parseTranscriptXml(body: string): Cue[] {
  if (!/<transcript\b/i.test(body)) throw new TimedtextParseError("The caption track has no <transcript> element.");
  const out: Cue[] = [];
  const re = /<text\b([^>]*?)(?:\/>|>([\s\S]*?)<\/text>)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) {
    const attrs = attributes(m[1] ?? "");
    const start = finite(attrs.start);
    if (start === null) continue;
    out.push(cue(start * MS, (finite(attrs.dur) ?? 0) * MS, cleanText(m[2] ?? ""), false));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// WebVTT (fmt=vtt)
// ---------------------------------------------------------------------------------------------------

const VTT_TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{3})$/;

function vttMs(stamp: string): number | null {
  const m = VTT_TIME.exec(stamp.trim());
  if (!m) return null;
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * MS + Number(m[4]);
}

/**
 * WebVTT as YouTube serves it. For auto captions every cue is a two-row window: the previous line in
 * plain text, then the new line with `<00:00:01.469><c> word</c>` timing tags, separated by 10 ms
 * "hold" cues that show the finished line alone. That is the rolling repetition dedup.ts removes.
 * A cue's text ends at an empty line only: YouTube pads rows with a single space.
 */
export function parseVtt(body: string): Cue[] {
  const text = body.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
  if (!text.startsWith("WEBVTT")) throw new TimedtextParseError("The caption track is not WebVTT.");
  const out: Cue[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split("\n");
    const timing = lines.findIndex((l) => l.includes("-->"));
    if (timing === -1 || timing > 1) continue; // header, NOTE, STYLE, REGION
    const [from, rest] = (lines[timing] as string).split("-->");
    const start = vttMs(from ?? "");
    const end = vttMs((rest ?? "").trim().split(/\s+/)[0] ?? "");
    if (start === null || end === null) continue;
    out.push(cue(start, end - start, cleanText(lines.slice(timing + 1).join("\n")), false));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Any of them
// ---------------------------------------------------------------------------------------------------

/** Which format a body is in, from its first bytes (YouTube does not always honour `fmt`). */
export function sniffFormat(body: string): TimedtextFormat | null {
  const head = body.replace(/^\ufeff/, "").trimStart().slice(0, 512);
  if (head.startsWith("{")) return "json3";
  if (head.startsWith("WEBVTT")) return "vtt";
  if (/<transcript\b/i.test(head)) return "transcript";
  if (/<timedtext\b/i.test(head)) return "srv3";
  return null;
}

/** Parses a timedtext body in whichever supported format it is. Throws TimedtextParseError. */
export function parseTimedtext(body: string): Cue[] {
  switch (sniffFormat(body)) {
    case "json3":
      return parseJson3(body);
    case "vtt":
      return parseVtt(body);
    case "transcript":
      return parseTranscriptXml(body);
    case "srv3":
      return parseSrv3(body);
    default:
      throw new TimedtextParseError("The caption track is in a format Verbatim does not read.");
  }
}
