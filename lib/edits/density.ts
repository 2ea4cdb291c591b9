import type { Loc, ValidationErrorItem } from "@/lib/http/validation";

// What one save may hold is bounded by what its media can hold, not by bytes alone: nobody speaks more than
// about ten words a second (the fastest speakers on record stay under eleven), so a correction with more words
// than that over the media's length is not a transcript of it, whatever its size in bytes. Characters are
// bounded per allowed word (a generous eight, spaces included), so a few long "words" cannot stand in for
// many: that bounds the text whether or not a language separates its words with spaces. Short media get a
// floor (a minute's worth), and a source that already holds more keeps what it holds, so its own text can
// always be corrected. Counting stops as soon as a bound is passed, and allocates nothing: it runs on the
// event loop before a save's heavy work, and again on a subtitle file once it is parsed.

/** Words a second of media may hold. */
export const WORDS_PER_SECOND = 10;
/** Characters (spaces included) per allowed word. */
export const CHARS_PER_WORD = 8;
/** The words any media may hold, however short: a minute's worth. */
export const MIN_WORDS = 60 * WORDS_PER_SECOND;

export interface DensityLimits {
  /** The media's length in seconds, as the message gives it. */
  seconds: number;
  words: number;
  characters: number;
}

interface Texts {
  text: string;
  words?: readonly { text: string }[];
}

/** What a transcript holds: its words (at spaces) and characters, of its text or of its word times, whichever is more. */
export interface Measure {
  words: number;
  characters: number;
}

/** Words (runs of non-space characters) in `text`; the same count as validate.ts's /\S+/gu, without a regex. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // The characters \s matches (ASCII, Latin-1 and Unicode spaces, line and paragraph separators, BOM).
    const space =
      c === 0x20 ||
      (c >= 0x09 && c <= 0x0d) ||
      c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff;
    if (space) inWord = false;
    else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}

/**
 * What `segments` hold; counting stops once past `limits` (the figures are then at least past them). Values
 * that are not strings or arrays count as nothing here (validation reports them).
 */
export function measure(segments: readonly Texts[], limits?: Pick<DensityLimits, "words" | "characters">): Measure {
  let textWords = 0;
  let textChars = 0;
  let timedWords = 0;
  let timedChars = 0;
  for (const segment of segments) {
    if (typeof segment?.text === "string") {
      textWords += countWords(segment.text);
      textChars += segment.text.length;
    }
    if (Array.isArray(segment?.words)) {
      timedWords += segment.words.length;
      for (const word of segment.words) if (typeof word?.text === "string") timedChars += word.text.length + 1;
    }
    if (
      limits &&
      (Math.max(textWords, timedWords) > limits.words || Math.max(textChars, timedChars) > limits.characters)
    )
      break;
  }
  return { words: Math.max(textWords, timedWords), characters: Math.max(textChars, timedChars) };
}

/** The most a correction of media `seconds` long may hold; `source`: what its source holds, kept whatever it is. */
export function densityLimits(seconds: number, source: Measure = { words: 0, characters: 0 }): DensityLimits {
  const length = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const words = Math.max(MIN_WORDS, Math.ceil(length * WORDS_PER_SECOND), source.words);
  return { seconds: length, words, characters: Math.max(words * CHARS_PER_WORD, source.characters) };
}

/** "12 min 5 s", "1 h 2 min 3 s", "40 s". */
export function mediaLength(seconds: number): string {
  const s = Math.round(seconds);
  const parts = [
    [Math.floor(s / 3600), "h"],
    [Math.floor((s % 3600) / 60), "min"],
    [s % 60, "s"],
  ] as const;
  const shown = parts.filter(([n], i) => n > 0 || (i === 2 && s < 60));
  return shown.map(([n, unit]) => `${n} ${unit}`).join(" ");
}

const number = (n: number) => n.toLocaleString("en-US");

/** The 422 item when `segments` hold more than `limits` allow (null when they do not), at `loc`. */
export function densityProblem(
  segments: readonly Texts[],
  limits: DensityLimits,
  loc: Loc,
): ValidationErrorItem | null {
  const held = measure(segments, limits);
  const length = mediaLength(limits.seconds);
  const what =
    held.words > limits.words
      ? `more words than ${length} of media can hold (at most ${number(limits.words)}, ${WORDS_PER_SECOND} a second)`
      : held.characters > limits.characters
        ? `more text than ${length} of media can hold (at most ${number(limits.characters)} characters, ${CHARS_PER_WORD} for each of its ${number(limits.words)} words)`
        : null;
  if (what === null) return null;
  return {
    type: "value_error",
    loc,
    msg: `Value error, this correction holds ${what}. Send only the words spoken in this media.`,
    input: held.words > limits.words ? held.words : held.characters,
    ctx: { error: {} },
  };
}
