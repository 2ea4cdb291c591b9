/**
 * What every caption parser shares: the Cue type, the parse error, timestamps and text cleaning.
 *
 * Text is cleaned the same way for every format: tags removed, HTML entities decoded by the
 * `entities` library (the whole HTML5 table, `;` required, so "AT&T" and "&notice" stay as
 * written), zero-width characters removed (U+200B between CJK words is not a space), a line break
 * between two Chinese or Japanese characters removed (those scripts put no space between words, so
 * a wrapped line is one run of text), and every other run of whitespace (newlines, NBSP, ideographic
 * space) collapsed to one space.
 *
 * Pure: no I/O.
 */
import { decodeHTMLStrict } from "entities";

import type { Segment, Word } from "@/lib/formats/types";

/**
 * A cue as a parser reads it. `words`: the words the file times itself (YouTube's automatic
 * captions: json3 `tOffsetMs`, srv3 `<s t>`, WebVTT `<00:00:01.469>` tags), each a single
 * whitespace-free token of the cue's text, in order; the timed words are the text's last tokens (a
 * rolling WebVTT cue re-shows the previous row untimed above them). Absent where the file times no word.
 */
export interface Cue extends Segment {
  /** The event continues the previous one on the same line (json3 `aAppend: 1`, srv3 `a="1"`). */
  append?: boolean;
}

/**
 * The formats this module reads. `transcript` is YouTube's classic timedtext XML (srv1, no `fmt`);
 * `podcast-json` and `podcast-html` are Podcasting 2.0 transcripts (podcast.ts); `podcast-srt` is SubRip that
 * names its speakers in the text (`Name:`, named-turns.ts), as podcasts publish it.
 */
export type CaptionFormat =
  | "json3"
  | "srv3"
  | "transcript"
  | "vtt"
  | "srt"
  | "ttml"
  | "podcast-json"
  | "podcast-html"
  | "podcast-srt";

export class CaptionParseError extends Error {
  override readonly name = "CaptionParseError";
}

/**
 * What a file held that the parser could not read and left out (a cue under a timing line that is no time, a
 * JSON segment without usable times or text): counted, so whoever stores the transcript can say so.
 */
export interface Dropped {
  cues: number;
  words: number;
}

/** Counts one left-out cue and the words of its text (without its tags: `<v Ann>`). */
export function countDropped(dropped: Dropped | undefined, text: string): void {
  if (!dropped) return;
  dropped.cues++;
  dropped.words += text
    .replace(/<[^<>]*>/gu, " ")
    .split(/\s+/u)
    .filter((w) => w !== "").length;
}

// ---------------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------------

/**
 * Decodes HTML character references (named, decimal, hex). With `twice`, a second round for text
 * that was escaped twice: YouTube's classic XML escapes its HTML-escaped text again (`I&amp;#39;m`).
 */
export function decodeEntities(s: string, twice = false): string {
  if (!s.includes("&")) return s;
  const once = decodeHTMLStrict(s);
  return twice && once !== s && once.includes("&") ? decodeHTMLStrict(once) : once;
}

// Element tags (<s ...>, </font>, <br/>, <c.colorE5E5E5>, <v Bob>) and WebVTT timestamp tags
// (<00:00:01.469>). A bare "<" that does not start a tag ("a < b", "<3") is text and stays.
const TAG = /<\/?[A-Za-z][^<>]*>|<\d{1,3}:\d{2}(?::\d{2})?[.,]\d{1,3}>/g;
const BREAK = /<br\s*\/?>/gi;
/** Invisible characters that are not spaces: zero-width space, word joiner, BOM, soft hyphen, LRM/RLM. */
const INVISIBLE = /[\u200b\u2060\ufeff\u00ad\u200e\u200f]/g;
const WHITESPACE = /[\s\u0000-\u001f\u007f]+/g;
/**
 * Characters of scripts written without spaces between words: Han, Hiragana, Katakana, CJK and
 * full-width punctuation. Korean (Hangul) is written with spaces and is not here.
 */
const UNSPACED = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff01-\\uff60\\u30fc";
/** A line break (with the blanks around it) between two such characters. */
const UNSPACED_LINE_BREAK = new RegExp(`(?<=[${UNSPACED}])[ \\t]*(?:\\r\\n?|\\n)[\\s]*(?=[${UNSPACED}])`, "gu");
const ENDS_UNSPACED = new RegExp(`[${UNSPACED}]$`, "u");
const STARTS_UNSPACED = new RegExp(`^[${UNSPACED}]`, "u");

/**
 * Joins two pieces of caption text: with nothing between a Chinese or Japanese end and start
 * (a line wrapped there is one run of text), else with one space.
 */
export function joinCaptionText(a: string, b: string): string {
  if (a === "") return b;
  if (b === "") return a;
  return ENDS_UNSPACED.test(a) && STARTS_UNSPACED.test(b) ? a + b : `${a} ${b}`;
}

function stripTags(s: string): string {
  return s.replace(BREAK, "\n").replace(TAG, "");
}

export interface CleanOptions {
  /**
   * XML formats (srv3, classic): decode twice and strip tags again after decoding, for markup that
   * was escaped as text (`&lt;font color=&quot;#E5E5E5&quot;&gt;` in the classic format).
   */
  xml?: boolean;
}

/** Strips tags, decodes entities, removes zero-width characters, collapses whitespace to single spaces. */
export function cleanText(raw: string, opts: CleanOptions = {}): string {
  let text = decodeEntities(stripTags(raw), opts.xml === true);
  if (opts.xml && text.includes("<")) text = stripTags(text);
  return text.replace(INVISIBLE, "").replace(UNSPACED_LINE_BREAK, "").replace(WHITESPACE, " ").trim();
}

// ---------------------------------------------------------------------------------------------------
// Times and cues
// ---------------------------------------------------------------------------------------------------

const CLOCK = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)[.,](\d{1,3})$/;

/** `hh:mm:ss.ttt` or `mm:ss.ttt` (WebVTT, SRT; `,` or `.` before the fraction) → milliseconds, or null. */
export function parseClockMs(stamp: string): number | null {
  const m = CLOCK.exec(stamp.trim());
  if (!m) return null;
  const [, h, min, s, frac] = m;
  return ((Number(h ?? 0) * 60 + Number(min)) * 60 + Number(s)) * 1000 + Number((frac ?? "0").padEnd(3, "0"));
}

/** Seconds rounded to the millisecond, so float noise never reaches the output. */
function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/** A cue from milliseconds; a negative start becomes 0 and an end before the start becomes the start. */
export function cueAt(startMs: number, endMs: number, text: string, append = false, words?: Word[]): Cue {
  const s = Math.max(0, startMs);
  const start = seconds(s);
  const end = seconds(Math.max(s, endMs));
  const cue: Cue = append ? { start, end, text, append: true } : { start, end, text };
  if (words !== undefined && words.length > 0) cue.words = words;
  return cue;
}

/** One word that cleanText would leave as it is: no tag, entity, whitespace, control or invisible character. */
const PLAIN_WORD = /^[^\s<&\u0000-\u001f\u007f\u00ad\u200b\u200e\u200f\u2060\ufeff]+$/;

/** A piece of a cue's text that the file gives its own time (a json3 seg, an srv3 `<s>`, the text after a VTT timestamp tag). */
export interface TimedPiece {
  /** When the piece starts, ms from the start of the media. */
  ms: number;
  raw: string;
}

/**
 * The words of timed pieces: each piece cleaned like cue text, timed at its start, ending where the next
 * word starts (the last one at `endMs`); a word never starts before the one before it. A piece of
 * several words (spaces inside once cleaned) is a line timed as a whole, not a word: it gives none.
 */
export function timedWords(pieces: readonly TimedPiece[], endMs: number, opts: CleanOptions = {}): Word[] {
  const starts: number[] = [];
  const texts: string[] = [];
  let prev = 0;
  for (const piece of pieces) {
    // Most pieces are one plain word (" everyone"): nothing for cleanText to do but trim.
    const trimmed = piece.raw.trim();
    const clean = PLAIN_WORD.test(trimmed) ? trimmed : cleanText(piece.raw, opts);
    if (clean === "") continue;
    if (clean.includes(" ")) continue;
    const ms = Math.max(prev, piece.ms, 0);
    prev = ms;
    starts.push(ms);
    texts.push(clean);
  }
  return texts.map((text, i) => {
    const start = starts[i] as number;
    const next = i + 1 < starts.length ? (starts[i + 1] as number) : Math.max(start, endMs);
    return { start: seconds(start), end: seconds(next), text };
  });
}

/** A caption file's bytes as text: UTF-16 by its byte order mark, else UTF-8 (the platforms' encodings). */
export function decodeCaptionBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  return new TextDecoder("utf-8").decode(bytes);
}

/** Whether a body holds only white space (or a byte order mark), without decoding it. */
export function isBlankBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) continue;
    if (b === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) {
      i += 2;
      continue;
    }
    return false;
  }
  return true;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function finite(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Attributes of one start tag, e.g. ` t="80" d="4040" w="1"` → {t: "80", d: "4040", w: "1"}. Names keep their prefix. */
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(tag)) !== null) out[m[1] as string] = decodeEntities(m[2] ?? m[3] ?? "");
  return out;
}
