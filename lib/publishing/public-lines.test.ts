import { describe, expect, it } from "vitest";
import { captionSegments, parseCaptions } from "@/lib/captions/parse";
import { readCaptionFile, REAL_CAPTION_FILES } from "@/test/fixtures/captions";
import { lineSegments, publicLine } from "./public-lines";

describe("public page lines", () => {
  it("carries no word times for a line without words", () => {
    expect(publicLine({ start: 1, end: 2, text: "no words here" })).toEqual([1, 2, "no words here"]);
    expect(lineSegments([[1, 2, "no words here"]])).toEqual([{ start: 1, end: 2, text: "no words here" }]);
  });

  it("sends each word's start in centiseconds after the line's start, and reads them back", () => {
    const segment = {
      start: 10.5,
      end: 12,
      text: "two words",
      words: [
        { start: 10.5, end: 11.204, text: "two" },
        { start: 11.204, end: 12, text: "words" },
      ],
    };
    expect(publicLine(segment)).toEqual([10.5, 12, "two words", [0, 70]]);
    expect(lineSegments([publicLine(segment)])).toEqual([
      {
        start: 10.5,
        end: 12,
        text: "two words",
        words: [
          { start: 10.5, end: 11.2, text: "two" },
          { start: 11.2, end: 12, text: "words" },
        ],
      },
    ]);
    // Before the page runs (the server's HTML): no words.
    expect(lineSegments([publicLine(segment)], false)).toEqual([{ start: 10.5, end: 12, text: "two words" }]);
  });

  it("names a speaker only where it changes, and reads every line back as its speaker's", () => {
    const segments = [
      { start: 0, end: 1, text: "Hello there", speaker: "Alban" },
      { start: 1, end: 2, text: "and welcome", speaker: "Alban" },
      { start: 2, end: 3, text: "Thanks", speaker: "Mari" },
      { start: 3, end: 4, text: "(music)" },
      { start: 4, end: 5, text: "Back", speaker: "Mari" },
    ];
    const lines = segments.map(publicLine);
    expect(lines).toEqual([
      [0, 1, "Hello there", null, "Alban"],
      [1, 2, "and welcome"],
      [2, 3, "Thanks", null, "Mari"],
      [3, 4, "(music)", null, ""],
      [4, 5, "Back", null, "Mari"],
    ]);
    expect(lineSegments(lines)).toEqual(segments);
    // Word times and a speaker on one line.
    const timed = {
      start: 0,
      end: 1,
      text: "hi you",
      speaker: "Alban",
      words: [
        { start: 0, end: 0.5, text: "hi" },
        { start: 0.5, end: 1, text: "you" },
      ],
    };
    expect(publicLine(timed)).toEqual([0, 1, "hi you", [0, 50], "Alban"]);
    expect(lineSegments([publicLine(timed)])).toEqual([timed]);
  });

  it("leaves the words out where their count is not the text's", () => {
    const segment = {
      start: 0,
      end: 1,
      text: "日本語",
      words: [
        { start: 0, end: 0.5, text: "日本" },
        { start: 0.5, end: 1, text: "語" },
      ],
    };
    expect(publicLine(segment)).toEqual([0, 1, "日本語"]);
    expect(lineSegments([[0, 1, "a b", [0]]])).toEqual([{ start: 0, end: 1, text: "a b" }]);
  });

  it.each(REAL_CAPTION_FILES.filter((f) => f.kind === "auto"))(
    "$file: every timed word reaches the page with its text and its start to 5 ms",
    (f) => {
      const segments = captionSegments(parseCaptions(readCaptionFile(f.file), f.format), f.kind);
      const back = lineSegments(segments.map(publicLine));
      const sent = segments.flatMap((s) => (s.words ?? []).map((w) => ({ text: w.text, start: w.start })));
      const received = back.flatMap((s) => (s.words ?? []).map((w) => ({ text: w.text, start: w.start })));
      expect(received.map((w) => w.text)).toEqual(sent.map((w) => w.text));
      received.forEach((w, k) => expect(Math.abs(w.start - sent[k].start)).toBeLessThanOrEqual(0.005));
      expect(back.map((s) => s.text)).toEqual(segments.map((s) => s.text));
    },
  );
});
