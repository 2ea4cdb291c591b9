import { describe, expect, it } from "vitest";
import {
  CHARS_PER_WORD,
  countWords,
  densityLimits,
  densityProblem,
  measure,
  mediaLength,
  MIN_WORDS,
  WORDS_PER_SECOND,
} from "@/lib/edits/density";

const at = ["body", "segments"];
const words = (count: number, word = "word") => Array.from({ length: count }, () => word).join(" ");

describe("countWords", () => {
  it("counts runs of non-space characters as /\\S+/u does", () => {
    for (const text of ["", "  ", "one", " two  words ", "a\tb\nc\u00a0d\u3000e\u2009f", "今天我们来讨论 一下"])
      expect(countWords(text), JSON.stringify(text)).toBe(text.match(/\S+/gu)?.length ?? 0);
  });
});

describe("densityLimits", () => {
  it("ten words a second of media, eight characters each, and at least a minute's worth", () => {
    expect(densityLimits(3200)).toEqual({ seconds: 3200, words: 32_000, characters: 256_000 });
    expect(densityLimits(5)).toEqual({ seconds: 5, words: MIN_WORDS, characters: MIN_WORDS * CHARS_PER_WORD });
    expect(densityLimits(Number.NaN).words).toBe(MIN_WORDS);
  });

  it("a source that holds more keeps what it holds", () => {
    expect(densityLimits(100, { words: 5000, characters: 90_000 })).toEqual({
      seconds: 100,
      words: 5000,
      characters: 90_000,
    });
  });
});

describe("densityProblem", () => {
  it("refuses the probe's save: 800 segments of 249 nineteen-character words for 800 four-second segments", () => {
    const limits = densityLimits(3200);
    const word = "abcdefghijklmnopqrs";
    const segments = Array.from({ length: 800 }, (_, i) => ({
      start: i * 4,
      end: i * 4 + 3.9,
      text: words(249, word),
    }));
    const problem = densityProblem(segments, limits, at);
    expect(problem).toMatchObject({ type: "value_error", loc: at });
    expect(problem!.msg).toBe(
      "Value error, this correction holds more text than 53 min 20 s of media can hold (at most 256,000 characters, 8 for each of its 32,000 words). Send only the words spoken in this media.",
    );
    // Counting stopped at the segment that passed the bound (its characters, before its words).
    const perSegment = 249 * 20 - 1;
    expect(problem!.input).toBe(perSegment * Math.ceil(256_001 / perSegment));
    // With one-letter words it is their number that passes first.
    const short = segments.map((s) => ({ ...s, text: words(249, "a") }));
    expect(densityProblem(short, limits, at)!.msg).toBe(
      "Value error, this correction holds more words than 53 min 20 s of media can hold (at most 32,000, 10 a second). Send only the words spoken in this media.",
    );
  });

  it("accepts a transcript at the bound, refuses one word more", () => {
    const limits = densityLimits(60);
    const full = [{ text: words(60 * WORDS_PER_SECOND, "a") }];
    expect(densityProblem(full, limits, at)).toBeNull();
    expect(densityProblem([...full, { text: "b" }], limits, at)).toMatchObject({ input: 601 });
  });

  it("bounds the characters per allowed word: long words, or a language written without spaces", () => {
    const limits = densityLimits(60);
    const long = [{ text: words(500, "x".repeat(CHARS_PER_WORD * 2)) }];
    expect(densityProblem(long, limits, at)!.msg).toContain(
      "more text than 1 min of media can hold (at most 4,800 characters, 8 for each of its 600 words)",
    );
    // Chinese speech, about five characters a second, is far inside it.
    expect(densityProblem([{ text: "我".repeat(300) }], limits, at)).toBeNull();
  });

  it("counts word times too: a short text cannot carry more timed words than the media holds", () => {
    const limits = densityLimits(60);
    const timed = [{ text: "a", words: Array.from({ length: 601 }, () => ({ text: "a" })) }];
    expect(densityProblem(timed, limits, at)).toMatchObject({ input: 601 });
  });
});

describe("measure and mediaLength", () => {
  it("measures the text or the word times, whichever holds more", () => {
    expect(measure([{ text: "one two", words: [{ text: "one" }] }, { text: "three" }])).toEqual({
      words: 3,
      characters: 12,
    });
  });

  it("writes a media's length as a person reads it", () => {
    expect([0, 40, 60, 725, 3723].map(mediaLength)).toEqual(["0 s", "40 s", "1 min", "12 min 5 s", "1 h 2 min 3 s"]);
  });
});
