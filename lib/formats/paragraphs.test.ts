import { describe, expect, it } from "vitest";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import { readCaptionFile, REAL_CAPTION_FILES } from "@/test/fixtures/captions";
import { activeWordIndex, paragraphOf, READING_PARAGRAPHS, readingParagraphs, type TimedSegment } from "./paragraphs";

const seg = (start: number, end: number, text: string, words?: TimedSegment["words"]): TimedSegment => ({
  start,
  end,
  text,
  ...(words ? { words } : {}),
});

describe("readingParagraphs", () => {
  it("is empty for no segments", () => {
    expect(readingParagraphs([])).toEqual([]);
  });

  it("joins cues into one paragraph until a sentence ends after 20 s", () => {
    const segments = [
      seg(0, 5, "We started"),
      seg(5, 10, "with bread."),
      seg(10, 21, "Then the dough"),
      seg(21, 24, "had to rest."),
      seg(24, 28, "After that"),
    ];
    // "with bread." ends a sentence at 10 s: too early; "had to rest." at 24 s: a break.
    expect(readingParagraphs(segments)).toEqual([
      { from: 0, to: 4, start: 0 },
      { from: 4, to: 5, start: 24 },
    ]);
  });

  it("breaks unpunctuated captions at pauses and at the latest after 45 s", () => {
    const segments = Array.from({ length: 30 }, (_, i) => seg(i * 2, i * 2 + 2, "and so on"));
    segments.push(seg(63, 65, "after a pause"));
    const paragraphs = readingParagraphs(segments);
    // 0..46 s (23 cues), then 46..60 s, then the cue after the 3 s pause.
    expect(paragraphs.map((p) => [p.from, p.to])).toEqual([
      [0, 23],
      [23, 30],
      [30, 31],
    ]);
  });

  it("starts a paragraph at every chapter break", () => {
    const segments = [seg(0, 1, "a"), seg(1, 2, "b"), seg(2, 3, "c")];
    expect(readingParagraphs(segments, READING_PARAGRAPHS, [2, 0, 99, 1.5]).map((p) => p.from)).toEqual([0, 2]);
  });

  it("keeps segments that carry words whole (words are the view's, paragraphs are the segments')", () => {
    const words = [
      { start: 0, end: 0.4, text: "Hello" },
      { start: 0.5, end: 1, text: "there." },
    ];
    const paragraphs = readingParagraphs([seg(0, 1, "Hello there.", words), seg(4, 5, "Next.")]);
    expect(paragraphs).toEqual([
      { from: 0, to: 1, start: 0 },
      { from: 1, to: 2, start: 4 },
    ]);
  });

  it("covers every segment exactly once, in order, on every real caption file; figures per hour", () => {
    const figures: string[] = [];
    for (const { file, format, kind } of REAL_CAPTION_FILES) {
      const segments = captionSegments(parseCaptions(readCaptionFile(file), format), kind);
      const paragraphs = readingParagraphs(segments);
      let next = 0;
      for (const paragraph of paragraphs) {
        expect(paragraph.from).toBe(next);
        expect(paragraph.to).toBeGreaterThan(paragraph.from);
        next = paragraph.to;
      }
      expect(next).toBe(segments.length);
      const hours = (segments.at(-1)!.end - segments[0].start) / 3600;
      figures.push(
        `${file}: ${segments.length} cues, ${paragraphs.length} paragraphs; per hour ${Math.round(segments.length / hours)} cues, ${Math.round(paragraphs.length / hours)} paragraphs`,
      );
    }
    if (process.env.PARAGRAPH_FIGURES) console.log(figures.join("\n"));
  });
});

describe("paragraphOf", () => {
  const paragraphs = [
    { from: 0, to: 3, start: 0 },
    { from: 3, to: 4, start: 9 },
    { from: 4, to: 10, start: 12 },
  ];
  it("finds the paragraph that holds a segment", () => {
    expect([0, 2, 3, 4, 9].map((i) => paragraphOf(paragraphs, i))).toEqual([0, 0, 1, 2, 2]);
  });
  it("is -1 outside", () => {
    expect(paragraphOf(paragraphs, 10)).toBe(-1);
    expect(paragraphOf(paragraphs, -1)).toBe(-1);
    expect(paragraphOf([], 0)).toBe(-1);
  });
});

describe("activeWordIndex", () => {
  const words = [
    { start: 1, end: 1.4 },
    { start: 1.5, end: 2 },
    { start: 3, end: 3.5 },
  ];
  it("is the last word that has started, allowing a quarter second for lagging reports", () => {
    expect(activeWordIndex(words, 0.5)).toBe(-1);
    expect(activeWordIndex(words, 0.8)).toBe(0);
    expect(activeWordIndex(words, 1.6)).toBe(1);
    expect(activeWordIndex(words, 2.5)).toBe(1);
    expect(activeWordIndex(words, 10)).toBe(2);
  });
  it("is -1 without words or a time", () => {
    expect(activeWordIndex(undefined, 1)).toBe(-1);
    expect(activeWordIndex(words, null)).toBe(-1);
    expect(activeWordIndex([], 1)).toBe(-1);
  });
});
