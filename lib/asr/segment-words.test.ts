import { describe, expect, it } from "vitest";
import { joinWords, segmentWords } from "./segment-words";
import type { Word } from "./types";

/** Words of `text` at a steady pace: each `wordSeconds` long, `gapSeconds` apart, from `start`. */
function timed(text: string, { start = 0, wordSeconds = 0.3, gapSeconds = 0.1 } = {}): Word[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((t, i) => ({
      text: t,
      start: start + i * (wordSeconds + gapSeconds),
      end: start + i * (wordSeconds + gapSeconds) + wordSeconds,
    }));
}

function checkInvariants(
  words: Word[],
  segments: ReturnType<typeof segmentWords>,
  maxChars: number,
  maxSeconds: number,
) {
  // Every word exactly once, in order, none split.
  expect(segments.flatMap((s) => s.text.split(" "))).toEqual(words.map((w) => w.text));
  for (const s of segments) {
    const single = !s.text.includes(" ");
    if (!single) {
      expect(s.text.length).toBeLessThanOrEqual(maxChars);
      expect(s.end - s.start).toBeLessThanOrEqual(maxSeconds + 1e-9);
    }
  }
  for (let i = 1; i < segments.length; i++) expect(segments[i].start).toBeGreaterThanOrEqual(segments[i - 1].end);
}

describe("segmentWords", () => {
  it("returns nothing for no words", () => {
    expect(segmentWords([])).toEqual([]);
    expect(segmentWords([{ text: "  ", start: 0, end: 1 }])).toEqual([]);
  });

  it("keeps a short sentence whole, with the first start and last end", () => {
    const words = timed("Hello there, world.");
    expect(segmentWords(words)).toEqual([{ start: 0, end: words[2].end, text: "Hello there, world.", words }]);
  });

  it("splits at sentence ends rather than inside sentences", () => {
    const words = timed(
      "The quick brown fox jumps over the lazy dog near the river bank. Then it runs away into the woods and nobody sees it again. The end.",
      { wordSeconds: 0.2, gapSeconds: 0.05 },
    );
    const segments = segmentWords(words);
    checkInvariants(words, segments, 84, 7);
    expect(segments.map((s) => s.text)).toEqual([
      "The quick brown fox jumps over the lazy dog near the river bank.",
      "Then it runs away into the woods and nobody sees it again. The end.",
    ]);
  });

  it("prefers a comma to a plain word boundary when a sentence is too long", () => {
    const words = timed(
      "When the committee finally met after many delays in the spring, the members argued for hours about the budget and the schedule",
      { wordSeconds: 0.15, gapSeconds: 0.05 },
    );
    const segments = segmentWords(words);
    checkInvariants(words, segments, 84, 7);
    expect(segments[0].text).toBe("When the committee finally met after many delays in the spring,");
  });

  it("breaks at a pause over 0.6 s in unpunctuated speech", () => {
    const first = timed("so we went down to the market and bought some bread and cheese", {
      wordSeconds: 0.2,
      gapSeconds: 0.05,
    });
    const second = timed("then we walked home along the river in the evening sun", {
      start: first.at(-1)!.end + 0.8,
      wordSeconds: 0.2,
      gapSeconds: 0.05,
    });
    const segments = segmentWords([...first, ...second]);
    expect(segments.map((s) => s.text)).toEqual([
      "so we went down to the market and bought some bread and cheese",
      "then we walked home along the river in the evening sun",
    ]);
  });

  it("cuts long unpunctuated runs at word boundaries into evenly filled segments within the limits", () => {
    const text = Array.from(
      { length: 120 },
      (_, i) => ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur"][i % 6],
    ).join(" ");
    const words = timed(text, { wordSeconds: 0.1, gapSeconds: 0.02 });
    const segments = segmentWords(words);
    checkInvariants(words, segments, 84, 7);
    const lengths = segments.map((s) => s.text.length);
    expect(segments.length).toBe(Math.ceil(text.length / 84));
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThan(25);
  });

  it("respects maxSeconds for slow speech", () => {
    const words = timed("one two three four five six seven eight nine ten eleven twelve", {
      wordSeconds: 0.8,
      gapSeconds: 0.4,
    });
    const segments = segmentWords(words, { maxSeconds: 3 });
    checkInvariants(words, segments, 84, 3);
    expect(segments.length).toBeGreaterThanOrEqual(5);
  });

  it("gives a single very long word its own segment, even over both limits", () => {
    const long = "Pneumonoultramicroscopicsilicovolcanoconiosis".repeat(3);
    const words: Word[] = [
      { text: "The", start: 0, end: 0.2 },
      { text: "word", start: 0.3, end: 0.5 },
      { text: long, start: 0.6, end: 9.6 },
      { text: "is", start: 9.7, end: 9.8 },
      { text: "long.", start: 9.9, end: 10.2 },
    ];
    const segments = segmentWords(words, { maxChars: 40, maxSeconds: 7 });
    expect(segments).toEqual([
      { start: 0, end: 0.5, text: "The word", words: words.slice(0, 2) },
      { start: 0.6, end: 9.6, text: long, words: words.slice(2, 3) },
      { start: 9.7, end: 10.2, text: "is long.", words: words.slice(3) },
    ]);
  });

  it("honours custom limits", () => {
    const words = timed("a b c d e f g h i j k l m n o p", { wordSeconds: 0.1, gapSeconds: 0 });
    const segments = segmentWords(words, { maxChars: 7 });
    checkInvariants(words, segments, 7, 7);
    expect(segments.every((s) => s.text.length === 7)).toBe(true);
  });

  it("breaks at a long silence even when everything would fit", () => {
    const words: Word[] = [
      { text: "Yes", start: 0, end: 0.3 },
      { text: "indeed", start: 0.35, end: 0.8 },
      { text: "okay", start: 3.5, end: 3.9 },
    ];
    expect(segmentWords(words).map((s) => s.text)).toEqual(["Yes indeed", "okay"]);
  });

  it("joins words of scripts without spaces directly", () => {
    expect(joinWords(["今日", "は", "いい", "天気", "です。"])).toBe("今日はいい天気です。");
    expect(joinWords(["Hello", ",", "world", "!"])).toBe("Hello, world!");
    const words: Word[] = ["我们", "今天", "去", "公园", "。"].map((t, i) => ({
      text: t,
      start: i * 0.3,
      end: i * 0.3 + 0.25,
    }));
    expect(segmentWords(words)).toEqual([{ start: 0, end: 1.45, text: "我们今天去公园。", words }]);
  });

  it("keeps each segment's words with their own times, except where a time was only estimated", () => {
    const words = [...timed("One two three."), ...timed("Four five six.", { start: 5 })];
    const segments = segmentWords(words);
    expect(segments.map((s) => s.text)).toEqual(["One two three.", "Four five six."]);
    expect(segments.flatMap((s) => s.words ?? [])).toEqual(words);
    const shared: Word[] = words.map((w, i) => (i >= 3 ? { ...w, estimated: true } : w));
    const mixed = segmentWords(shared);
    expect(mixed.map((s) => s.words?.length ?? 0)).toEqual([3, 0]);
    expect(mixed.flatMap((s) => s.words ?? []).some((w) => "estimated" in w)).toBe(false);
  });
});
